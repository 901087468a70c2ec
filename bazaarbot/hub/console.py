"""The hub ``bazaarbot console`` serves: the config's bot on one sqlite file, the console its network.

Built here, once, for the command and for a test that runs the same console in its own process.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bazaarbot.config import AdminPolicy, Config
from bazaarbot.hub.hub import Hub


def console_hub(
    config: Config,
    db: str,
    seed: int | None = None,
    script: bool = False,
    admins: tuple[str, ...] = (),
    ai_pool: Any = None,
) -> Hub:
    """The hub ``bazaarbot console`` serves on ``db`` (called inside the running event loop).

    ``ai_pool``: the ``AiPool`` AIs think in (the config's worker processes when not given; a
    test gives one thinking in a thread).
    """
    settings = config.bot if seed is None else replace(config.bot, seed=seed)
    policy = AdminPolicy(accounts=tuple(a.lower() for a in admins), ops_are_admins=False)
    # a script reads each answer at once: no pacing, and its ``---`` never waits for the
    # quiet background review of a finished game (``/review`` still makes one on request);
    # nor does it think ahead while a person thinks
    ai = replace(config.ai, move_delay=0.0, review_after_game=0.0, ponder=False) if script else config.ai
    return Hub.open(
        db,
        settings=settings,
        admins={"console": policy},
        unlimited_networks=frozenset({"console"}),
        tables=config.tables,
        ai=ai,
        turn_seconds=config.turn_seconds(),
        ai_pool=ai_pool,
    )
