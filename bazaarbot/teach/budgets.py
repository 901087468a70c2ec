"""How much a hint and a review may spend, derived from the ``hard`` level of the config.

A hint is the ``hard`` search by its iterations alone, with no time cap: a busy
machine makes it come later, never smaller (so the same seed gives the same
hint anywhere). A review judges every decision of a game with a sixth of that
(at least a few dozen iterations) and is bounded as a whole.
"""

from __future__ import annotations

import math

from bazaarbot.ai.ismcts import SearchBudget
from bazaarbot.ai.levels import DEFAULT_LEVELS, Level

#: CPU seconds one reviewed decision may take at most
REVIEW_DECISION_SECONDS = 0.5
#: CPU seconds a whole review may take, spread over its decisions: little enough that every
#: finished game can have its review (the replay's win-chance graph) in the background
REVIEW_SECONDS = 8.0
#: a review's search per decision is this share of a hint's iterations
REVIEW_SHARE = 6


def _hard(levels: dict[str, Level] | None) -> Level:
    return (levels or DEFAULT_LEVELS).get("hard", DEFAULT_LEVELS["hard"])


def hint_budget(levels: dict[str, Level] | None = None) -> SearchBudget:
    hard = _hard(levels)
    return SearchBudget(hard.iterations, math.inf, hard.depth, hard.exploration)


def review_budget(levels: dict[str, Level] | None = None) -> SearchBudget:
    hard = _hard(levels)
    iterations = max(min(hard.iterations, 32), hard.iterations // REVIEW_SHARE)
    return SearchBudget(iterations, min(hard.time_cap, REVIEW_DECISION_SECONDS), hard.depth, hard.exploration)
