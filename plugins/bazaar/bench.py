"""The fast random policy (for rollouts and the engine benchmark) and the benchmark itself.

The policy buys whenever it can (otherwise a random player with unlimited
stones might never end the game) and otherwise draws or makes a random trade.
"""

from __future__ import annotations

import random
import time

from bazaarbot.plugin import GamePlugin

from . import rules
from .colours import NCOL
from .state import ACTION, BUY, DISCARD, JOKER, BazaarState

#: chance that the random policy draws rather than trades (when it may do both)
ROLLOUT_DRAW_CHANCE = 0.5
#: players at the benchmark table
BENCH_PLAYERS = 2


def policy_move(s: BazaarState, rng: random.Random) -> tuple:
    """A legal move for the player to act: buy if possible, else draw or a random trade."""
    seat = s.turn
    phase = s.phase
    if phase == JOKER:
        return ("joker", rng.choice(rules.joker_colours(s)))
    if phase == DISCARD:
        hand = s.hands[seat]
        return ("discard", rules._unit(rng.choice([c for c in range(NCOL) if hand[c]])))
    if phase == ACTION:
        if rules.can_draw(s) and (not s.has_acted[seat] or rng.random() < ROLLOUT_DRAW_CHANCE):
            return ("draw",)
        trades = rules.possible_trades(s, seat)
        if trades:
            row, back = rng.choice(trades)
            return ("trade", row, back)
        if rules.can_draw(s):
            return ("draw",)
    if phase == BUY:
        fields = rules.buyable_fields(s, seat)
        return ("buy", rng.choice(fields)) if fields else ("pass",)
    if phase == ACTION:  # stuck with an empty bank: no purchase without a draw or a trade
        return ("pass",)
    raise ValueError(f"no move in phase {phase}")


def play_policy_move(s: BazaarState, rng: random.Random) -> None:
    rules.apply_move(s, policy_move(s, rng))


def bench_figures(game: GamePlugin, seconds: float) -> list[tuple[str, float]]:
    """Decisions and complete games per second, on the fast path and through the typed commands."""
    players = [f"p{i + 1}" for i in range(BENCH_PLAYERS)]
    defaults = {o.name: o.default for o in game.options}
    rng = random.Random(1)
    half = seconds / 2
    # fast path: the rollout policy on move tuples (what the AI uses)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < half or games == 0:
        state = game.setup(players, random.Random(rng.random()), defaults)
        while state.phase != "over":
            play_policy_move(state, rng)
            decisions += 1
        games += 1
    fast = time.perf_counter() - start
    # command path: legal_commands + parse + apply with the same buy-when-possible policy
    c_decisions = c_games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < half or c_games == 0:
        state = game.setup(players, random.Random(rng.random()), defaults)
        while game.result(state) is None:
            seat = game.to_act(state)[0]
            commands = game.legal_commands(state, seat)
            buys = [c for c in commands if c.startswith("buy")]
            if buys:
                command = rng.choice(buys)
            elif state.phase == ACTION and "draw" in commands and rng.random() < ROLLOUT_DRAW_CHANCE:
                command = "draw"
            else:
                command = rng.choice(commands)
            game.apply(state, seat, game.parse(state, seat, command))
            c_decisions += 1
        c_games += 1
    slow = time.perf_counter() - start
    return [
        ("decisions/s", decisions / fast),
        ("games/s", games / fast),
        ("decisions/s (typed commands)", c_decisions / slow),
        ("games/s (typed commands)", c_games / slow),
        ("decisions per game", decisions / games),
    ]
