"""The named AI levels: what each may spend on a decision, and how ``easy`` errs.

``easy`` does not search: it plays the one-ply greedy move and, like a
beginner, sometimes one of the next best moves instead (never a random
one). ``medium`` and ``hard`` are ISMCTS with an iteration budget; the time
cap only guards against a slow machine, so with the same seed the same
iterations give the same move. The cap is CPU time of the process that
searches, so a machine busy with other work slows a search down without
cutting it short.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ismcts import EXPLORATION, SearchBudget


@dataclass(frozen=True)
class Level:
    """One level: a search budget (``iterations`` 0 means no search) and a beginner's error rate."""

    name: str
    iterations: int
    time_cap: float
    #: rollout plies before the plugin's evaluation takes over
    depth: int = 20
    exploration: float = EXPLORATION
    #: chance of playing the second or third best one-ply move instead of the best
    mistakes: float = 0.0

    def budget(self) -> SearchBudget:
        return SearchBudget(self.iterations, self.time_cap, self.depth, self.exploration)


#: ``hard``'s search: 1,500 iterations take about 0.3-0.6 s of one core in every game here
HARD_ITERATIONS = 1500
#: the most CPU one ``hard`` search may take; the rare larger search is cut short here, so with
#: its set-up and the choice after it a decision stays within a second of the bot's CPU
#: (``bench ai`` measures the whole decision)
HARD_TIME_CAP = 0.98

DEFAULT_LEVELS: dict[str, Level] = {
    "easy": Level("easy", iterations=0, time_cap=1.0, mistakes=0.35),
    "medium": Level("medium", iterations=300, time_cap=1.0),
    "hard": Level("hard", iterations=HARD_ITERATIONS, time_cap=HARD_TIME_CAP),
}

#: the baselines the bench may play against, besides the levels
BASELINES = ("random", "greedy")


def level_names() -> tuple[str, ...]:
    return tuple(DEFAULT_LEVELS)
