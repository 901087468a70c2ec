"""One decision judged by the search: each candidate move's share of the visits and its win chance.

The search is the AI's own ISMCTS from the deciding seat's point of view:
every iteration re-deals what that seat cannot see, so the figures depend
only on what the seat knew; each edge counts the iterations through it once,
so its mean reward is the estimated win chance. A move the search hardly tried (the one a
person played, say) gets extra iterations that start with it, so its
chance is an estimate and not a guess from two rollouts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bazaarbot.ai.ismcts import Search, SearchBudget
from bazaarbot.ai.node import Node
from bazaarbot.plugin import GamePlugin

#: a judged move needs at least this share of the iterations (or ``MIN_VISITS``) for its chance to count
FORCED_SHARE = 0.1
MIN_VISITS = 8


@dataclass(frozen=True)
class Judged:
    """One candidate: the command as typed, its share of the root visits, its estimated win chance."""

    command: str
    share: float
    chance: float
    visits: int
    action: Any = None

    def as_dict(self) -> dict[str, Any]:
        return {"command": self.command, "share": self.share, "chance": self.chance, "visits": self.visits}


class _JudgingSearch(Search):
    """The AI's search, able to start extra iterations with one given root move."""

    forced: Any = None

    def _select(self, node: Node, state: Any, actor: int, actions: list[Any]) -> tuple[Any, Node, bool]:
        if node is self.root and self.forced is not None and self.forced in actions:
            child = node.children.get(self.forced)
            created = child is None
            if child is None:
                child = node.children[self.forced] = Node()
            for action in actions:
                other = node.children.get(action)
                if other is not None:
                    other.avail += 1
            return self.forced, child, created
        return super()._select(node, state, actor, actions)

    def force(self, action: Any, visits: int) -> None:
        """Iterate, starting with ``action``, until it has ``visits`` visits (bounded by the budget)."""
        self.forced = action
        try:
            for _ in range(max(0, self.budget.iterations)):
                child = self.root.children.get(action)
                if child is not None and child.visits >= visits:
                    break
                self.iterate()
        finally:
            self.forced = None


def action_of(game: GamePlugin, state: Any, seat: int, text: str) -> Any:
    """The ``ai_actions`` entry that the typed command ``text`` plays (None if none matches)."""
    actions = game.ai_actions(state, seat)
    wanted = text.strip().lower()
    for action in actions:
        if game.ai_command(state, seat, action).strip().lower() == wanted:
            return action
    # typed another way (an alias, another language): the action that leaves the same state
    after = game.clone(state)
    game.apply(after, seat, game.parse(after, seat, text))
    target = game.to_json(after)
    for action in actions:
        trial = game.clone(state)
        game.ai_play(trial, seat, action)
        if game.to_json(trial) == target:
            return action
    return None


def judge(
    game: GamePlugin,
    state: Any,
    seat: int,
    budget: SearchBudget,
    seed: int,
    played: Any = None,
    clock: Callable[[], float] = time.process_time,
) -> tuple[list[Judged], Judged | None]:
    """Every legal move of ``seat`` by the search's visits (most first), and the ``played`` action's
    own figures (its chance measured with the extra iterations it was given).

    Deterministic for its arguments (unless the budget's time cap cuts the search short).
    """
    search = _JudgingSearch(game, state, seat, budget, random.Random(seed), clock)
    search.run()
    children = search.root.children
    legal = game.ai_actions(state, seat)
    # the ranking is the search's own, before any extra iterations for the played move
    searched = {a: children[a].visits for a in legal if a in children}
    if played is not None:
        least = max(MIN_VISITS, int(search.iterations * FORCED_SHARE))
        search.force(played, least)
    total = sum(searched.values()) or 1
    judged = []
    for action in legal:
        child = children.get(action)
        visits = searched.get(action, 0)
        judged.append(
            Judged(
                game.ai_command(state, seat, action),
                visits / total,
                child.mean() if child else 0.0,
                visits,
                action,
            )
        )
    judged.sort(key=lambda j: (-j.visits, -j.chance))
    mine = next((j for j in judged if j.action == played), None) if played is not None else None
    return judged, mine
