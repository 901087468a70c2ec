"""``hint``: the search's best few moves for the seat to decide, run in a worker process.

A pure function of (game, position, seat, budget, seed), so the same seed
gives the same hint; the figures are the search's own visit shares and win
chances, and a reason comes only from the plugin's ``hint_reason``.
"""

from __future__ import annotations

import time
from typing import Any

from bazaarbot.ai.choose import game_named
from bazaarbot.ai.ismcts import SearchBudget
from bazaarbot.plugin import GamePlugin

from .analysis import judge

#: how many moves a hint offers
HINT_MOVES = 3


def hint(
    game_name: str | GamePlugin,
    state_json: dict[str, Any],
    seat: int,
    budget: SearchBudget,
    seed: int,
    language: str | None = None,
    wall_clock: bool = False,
) -> list[dict[str, Any]]:
    """The best moves for ``seat``: command, share of visits, win chance, a reason (or None), and
    the playouts the search made.

    With ``wall_clock`` the budget's time cap is wall-clock time, so on a busy machine the hint
    still comes in time, from fewer playouts (and then perhaps another hint for the same seed).
    """
    from bazaarbot.i18n import language as speaking

    game = game_name if isinstance(game_name, GamePlugin) else game_named(game_name)
    state = game.from_json(state_json)
    actions = game.ai_actions(state, seat)
    if not actions:
        return []
    playouts = 0
    if len(actions) == 1:
        judged = [(game.ai_command(state, seat, actions[0]), 1.0, None, actions[0])]
    else:
        clock = time.perf_counter if wall_clock else time.process_time
        ranked, _mine = judge(game, state, seat, budget, seed, clock=clock)
        playouts = sum(j.visits for j in ranked)
        judged = [(j.command, j.share, j.chance, j.action) for j in ranked[:HINT_MOVES] if j.visits]
    out = []
    with speaking(language):
        for command, share, chance, action in judged:
            reason = game.hint_reason(state, seat, action)
            reason = str(reason) if reason else None
            out.append(
                {"command": command, "share": share, "chance": chance, "reason": reason, "playouts": playouts}
            )
    return out
