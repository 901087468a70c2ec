"""``hint``: the search's best few moves for the seat to decide, run in a worker process.

A pure function of (game, position, seat, budget, seed), so the same seed
gives the same hint: the search's size is its iterations, never the clock, so
a busy machine makes a hint come later but not weaker. The moves are ranked by
the search's visit shares, except that of two moves the search tried about
as often the one with the better win chance comes first (and says so). A
reason beside that comes only from the plugin's ``hint_reason``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bazaarbot.ai.choose import game_named
from bazaarbot.ai.ismcts import SearchBudget
from bazaarbot.plugin import GamePlugin

from .analysis import Judged, judge

#: how many moves a hint offers
HINT_MOVES = 3

#: search shares closer than this (of all playouts) say nothing about which move is better,
#: so the win chance orders such moves
CLOSE_SHARE = 0.08


def by_share_then_chance(ranked: list[Judged]) -> tuple[list[Judged], set[int]]:
    """``ranked`` (most searched first) with neighbours of close share swapped to put the better
    win chance first; and the positions of moves that moved up for their chance."""
    moves = list(ranked)
    lifted: set[Any] = set()
    swapped = True
    while swapped:
        swapped = False
        for i in range(len(moves) - 1):
            upper, lower = moves[i], moves[i + 1]
            if upper.share - lower.share < CLOSE_SHARE and lower.chance > upper.chance:
                moves[i], moves[i + 1] = lower, upper
                lifted.add(lower.command)
                lifted.discard(upper.command)
                swapped = True
    return moves, {i for i, j in enumerate(moves) if j.command in lifted}


def hint(
    game_name: str | GamePlugin,
    state_json: dict[str, Any],
    seat: int,
    budget: SearchBudget,
    seed: int,
    language: str | None = None,
    clock: Callable[[], float] = time.process_time,
) -> list[dict[str, Any]]:
    """The best moves for ``seat``: command, share of visits, win chance, whether its chance placed it
    above a move of close share (``by_chance``), a reason (or None), and the playouts made.

    ``clock`` only serves the budget's time cap; a hint's budget has none (``hint_budget``).
    """
    from bazaarbot.i18n import language as speaking

    game = game_name if isinstance(game_name, GamePlugin) else game_named(game_name)
    state = game.from_json(state_json)
    actions = game.ai_actions(state, seat)
    if not actions:
        return []
    playouts = 0
    if len(actions) == 1:
        judged = [(game.ai_command(state, seat, actions[0]), 1.0, None, actions[0], False)]
    else:
        ranked, _mine = judge(game, state, seat, budget, seed, clock=clock)
        playouts = sum(j.visits for j in ranked)
        ordered, lifted = by_share_then_chance([j for j in ranked if j.visits])
        judged = [
            (j.command, j.share, j.chance, j.action, i in lifted) for i, j in enumerate(ordered[:HINT_MOVES])
        ]
    out = []
    with speaking(language):
        for command, share, chance, action, by_chance in judged:
            reason = game.hint_reason(state, seat, action)
            reason = str(reason) if reason else None
            out.append(
                {
                    "command": command,
                    "share": share,
                    "chance": chance,
                    "by_chance": by_chance,
                    "reason": reason,
                    "playouts": playouts,
                }
            )
    return out
