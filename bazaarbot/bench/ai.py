"""``bazaarbot bench ai``: an AI level against a baseline, in-process, seats rotated.

Times are this process's CPU seconds per decision (one core's worth, as in
``bench engine``), so other work on a shared machine does not distort them.
Each game puts the AI in seat ``i mod K`` and the baseline in every other
seat; a shared win counts as a win. A Jaipur game is a whole match (the
plugin plays rounds until two seals). Only decisions with a real choice
are timed.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bazaarbot.ai.choose import choose_action, game_named, resolve_level
from bazaarbot.ai.levels import Level
from bazaarbot.ai.prepared import PreparedAnswers, position_key
from bazaarbot.ai.seed import ai_seed
from bazaarbot.ai.turn import choose_turn
from bazaarbot.bench.previous import AFRESH, PREVIOUS, previous_action
from bazaarbot.plugin import GamePlugin, Result

#: the other measurements of ``bench ai``, each chosen by its flag: the module whose ``main(args,
#: levels, sizes)`` runs it
MODES = {
    "cost": "bazaarbot.bench.ai_cost",
    "review": "bazaarbot.bench.ai_review",
    "ponder": "bazaarbot.bench.ai_ponder",
    "sweep": "bazaarbot.bench.ai_sweep",
}


@dataclass
class BenchResult:
    games: int = 0
    wins: int = 0
    players: int = 2
    times: list[float] = field(default_factory=list)

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def mean_time(self) -> float:
        return sum(self.times) / len(self.times) if self.times else 0.0

    def summary(self) -> str:
        low, high = self.interval()
        rate = 100.0 * self.wins / self.games if self.games else 0.0
        mean = self.mean_time()
        worst = max(self.times) if self.times else 0.0
        return (
            f"win rate {rate:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%) over {self.games} games; "
            f"mean {mean:.3f} s/move, max {worst:.3f} s/move"
        )


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def run(
    game_name: str,
    level: str = "hard",
    vs: str = "greedy",
    games: int = 20,
    players: int = 2,
    seed: int = 1,
    levels: dict[str, Level] | None = None,
    say: Callable[[str], None] = print,
    record: Callable[[list[str], Result], None] | None = None,
    paired: bool = False,
    as_bot: bool = False,
) -> BenchResult:
    """Play ``games`` games of ``level`` against ``vs`` and report each one and the summary.

    ``record`` is given each game's seat keys (``ai:<policy>:<seat number>``) and result, so the
    games can be rated (``bazaarbot bench ai --record``). ``as_bot`` plays every move as a command
    the way the table does, a search level's turn as ``choose_turn`` answers it (its later
    decisions from the turn's tree); else each decision is one search (``choose_action``).
    """
    game = game_named(game_name)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game_name} takes {game.min_players} to {game.max_players} players")
    defaults = {o.name: o.default for o in game.options}
    names = [f"p{i + 1}" for i in range(players)]
    outcome = BenchResult(players=players)
    for index in range(games):
        # paired: each deal is played once with the AI in every seat, so the deal's luck cancels out
        game_seed = seed * 1_000_003 + (index // players if paired else index)
        ai_seat = index % players
        state = game.setup(names, random.Random(game_seed), defaults)
        prepared = PreparedAnswers()
        move = 0
        while (result := game.result(state)) is None:
            actor = game.to_act(state)[0]
            policy = level if actor == ai_seat else vs
            seed_now = ai_seed(game_seed, move, actor)
            choices = len(game.ai_actions(state, actor))
            started = time.process_time()
            if as_bot:
                command = _bot_command(game, state, actor, policy, seed_now, levels, prepared)
            elif policy == PREVIOUS:
                action = previous_action(game, state, actor, random.Random(seed_now), levels)
            else:
                action = choose_action(game, state, actor, policy, random.Random(seed_now), levels)
            spent = time.process_time() - started
            if actor == ai_seat and choices > 1:
                outcome.times.append(spent)
            if as_bot:
                game.apply(state, actor, game.parse(state, actor, command))
            else:
                game.ai_play(state, actor, action)
            move += 1
        if record is not None:
            record([f"ai:{level if i == ai_seat else vs}:{i + 1}" for i in range(players)], result)
        won = ai_seat in result.winners
        outcome.games += 1
        outcome.wins += won
        say(
            f"game {index + 1}: {level} in seat {ai_seat + 1} {'wins' if won else 'loses'} "
            f"({result.detail.splitlines()[0] if result.detail else ''}) - {outcome.wins}/{outcome.games}, "
            f"mean {outcome.mean_time():.3f} s/move so far"
        )
    if players > 2:
        say(f"expected share 1/{players} = {100 / players:.1f}%")
    say(outcome.summary())
    return outcome


def _bot_command(
    game: GamePlugin,
    state: Any,
    seat: int,
    policy: str,
    seed: int,
    levels: dict[str, Level] | None,
    prepared: PreparedAnswers,
) -> str:
    """The command the bot plays for ``policy``: a search level's as ``choose_turn`` answers the turn
    (a later decision of the turn prepared by its first), the rest as ``choose_action`` does."""
    name = "hard" if policy == AFRESH else policy
    level = None if policy == PREVIOUS else resolve_level(name, levels)
    searches = isinstance(level, Level) and level.iterations > 0
    if not searches:
        rng = random.Random(seed)
        if policy == PREVIOUS:
            return game.ai_command(state, seat, previous_action(game, state, seat, rng, levels))
        return game.ai_command(state, seat, choose_action(game, state, seat, policy, rng, levels))
    state_json = game.to_json(state)
    command = prepared.take(position_key(state_json, seat, name))  # filed by seat: one seat, one policy
    if command is None:
        answer = choose_turn(game, state_json, seat, name, seed, levels, top_up=policy != AFRESH)
        command = answer.command
        prepared.add(answer.follow_ups)
    return command


def main(args: argparse.Namespace) -> int:
    """``bazaarbot bench ai <game>``: checks the game, the levels and the players, then plays."""
    from bazaarbot.config import load_config
    from bazaarbot.registry import discover

    games = discover()
    config = load_config(args.config)
    if not args.game or args.game not in games:
        print(f"name a game: bench ai <game>; installed: {', '.join(sorted(games))}", file=sys.stderr)
        return 2
    levels = config.ai.levels
    for policy in (args.level, args.vs):
        if policy not in levels and policy not in ("random", "greedy", PREVIOUS, AFRESH):
            print(f"no AI level {policy!r}; known: random, greedy, {', '.join(levels)}", file=sys.stderr)
            return 2
    game = games[args.game]
    players = args.players or max(2, game.min_players)
    if not game.min_players <= players <= game.max_players:
        print(f"{args.game} takes {game.min_players} to {game.max_players} players", file=sys.stderr)
        return 2
    mode = next((m for m in MODES if getattr(args, m, False)), None)
    if mode is not None:
        least = max(2, game.min_players)
        sizes = [args.players] if args.players else list(range(least, game.max_players + 1))
        return int(importlib.import_module(MODES[mode]).main(args, levels, sizes))
    store = None
    record = None
    if args.record:
        from bazaarbot.bench.ai_ratings import recorder
        from bazaarbot.store import open_store

        store = open_store(args.db or config.store.url or config.bot.db)  # the store the bot uses
        record = recorder(store, game, args.seed)
    try:
        run(
            args.game,
            level=args.level,
            vs=args.vs,
            games=args.games,
            players=players,
            seed=args.seed,
            levels=levels,
            say=lambda line: print(line, flush=True),
            record=record,
            paired=args.paired,
            as_bot=args.as_bot,
        )
        if store is not None:
            from bazaarbot.bench.ai_ratings import ai_ratings_line

            print(ai_ratings_line(store, game), flush=True)
    finally:
        if store is not None:
            store.close()
    return 0
