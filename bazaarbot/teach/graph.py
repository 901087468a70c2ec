"""``graph_review``: the review every finished game can have in the background, for its win-chance graph.

One call per finished game, in a worker process (``AiPool.run`` or any
process pool): it judges every decision of the game with the ``hard`` search,
within ``cpu_seconds`` of CPU in all (spread over the decisions, so a long
game gets smaller searches, not a missing end), and returns the review; its
``chance_lines`` are the graph's lines, one per seat. The result is what
``/review`` shows and ``TeachRecords.save_review`` stores, so a person's
later ``/review`` of the game needs no search.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bazaarbot.ai.levels import Level
from bazaarbot.plugin import GamePlugin

from .budgets import REVIEW_SECONDS, review_budget
from .review import chance_lines, review


def graph_review(
    game: str | GamePlugin,
    record: dict[str, Any],
    cpu_seconds: float = REVIEW_SECONDS,
    levels: dict[str, Level] | None = None,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, Any]:
    """The review of the finished game in ``record`` (``Store.game_record``'s shape) within
    ``cpu_seconds`` of this process's CPU; ``review["lines"]`` holds the graph's lines.

    ``levels`` are the bot's AI levels (the search is ``hard``'s); the figures are the same
    kind as a hint's: each seat's estimated chance to win after each of its decisions. ``clock``
    measures the budget (this process's CPU time; a test may pass another).
    """
    made = review(game, record, review_budget(levels), cpu_seconds, clock)
    made["lines"] = chance_lines(made)
    return made
