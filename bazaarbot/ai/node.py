"""One edge of the search tree: statistics of an action played from an information set."""

from __future__ import annotations

from typing import Any


class Node:
    """Visits, summed reward of the seat that chose the action, availability, prior and children.

    In single-observer ISMCTS an action is only sometimes legal (it depends on
    the determinization), so ``avail`` counts the iterations in which it could
    have been chosen; the exploration term uses that instead of the parent's
    visits (Cowling, Powley and Whitehouse 2012). ``passes`` counts the visits
    that went on through the edge; PUCT's selection counts each of them more than the rest.
    """

    __slots__ = ("children", "visits", "value", "avail", "prior", "passes")

    def __init__(self, prior: float = 1.0) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.prior = prior
        #: iterations that went on through this edge to a deeper one (PUCT's selection counts each
        #: 1/``STOP_WEIGHT`` times one that stopped here)
        self.passes = 0

    def mean(self) -> float:
        """Average reward so far (0 when never visited)."""
        return self.value / self.visits if self.visits else 0.0
