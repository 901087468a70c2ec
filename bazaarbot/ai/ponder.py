"""``ponder``: while a person thinks, the AI seats' answers to the person's likeliest moves.

Run in a low-priority worker between a person's decisions. The person's
moves are ranked one ply deep on a re-deal of what the person cannot see (so
the choice of moves to think about uses nothing hidden from the person); for
each of the first ``PONDER_MOVES`` the position after it is played as the
table plays it, and every AI seat that acts there gets ``choose_turn``'s
answer with the very seed the table would give it. So a pondered answer is
the answer the AI would have given anyway, only sooner, and it is used only
for that exact position (``prepared.position_key``).
"""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.plugin import GamePlugin, MoveError

from .choose import game_named
from .greedy import ranked_actions
from .levels import Level
from .prepared import position_key
from .seed import ai_seed
from .turn import choose_turn

#: how many of the person's moves are thought about ahead (the likeliest first)
PONDER_MOVES = 3


def likely_moves(game: GamePlugin, state: Any, person: int, rng: random.Random, count: int) -> list[Any]:
    """The person's ``count`` best moves one ply deep, as they can judge them (a re-deal of the rest)."""
    view = game.determinize(state, person, rng)
    ranked = ranked_actions(game, view, person)
    if ranked is None:
        return [game.greedy_action(view, person, rng)]
    return [action for _value, action in ranked[:count]]


def ponder(
    game_name: str | GamePlugin,
    state_json: dict[str, Any],
    person: int,
    ai_levels: dict[int, str],
    game_seed: int,
    moves_made: int,
    levels: dict[str, Level] | None = None,
    rank: int = 0,
) -> dict[str, str]:
    """Position key -> command: the answers of the seats in ``ai_levels`` (seat -> level) after the
    person's ``rank``-th likeliest move (0: the likeliest), with their follow-ups in the same turn.

    One move per call, so a pondering cancelled when the person moves stops after the search
    under way (the pool runs the ranks as separate tasks)."""
    game = game_name if isinstance(game_name, GamePlugin) else game_named(game_name)
    state = game.from_json(state_json)
    rng = random.Random(ai_seed(game_seed, moves_made, person) ^ 0x9D3E)
    answers: dict[str, str] = {}
    for action in likely_moves(game, state, person, rng, rank + 1)[rank:]:
        after = game.clone(state)
        try:
            game.apply(after, person, game.parse(after, person, game.ai_command(state, person, action)))
        except MoveError:
            continue
        if game.result(after) is not None:
            continue
        after_json = game.to_json(after)
        for seat in game.to_act(after):
            level = ai_levels.get(seat)
            if level is None:
                continue
            seed = ai_seed(game_seed, moves_made + 1, seat)
            answer = choose_turn(game, after_json, seat, level, seed, levels)
            answers[position_key(after_json, seat, level)] = answer.command
            answers.update(answer.follow_ups)
    return answers
