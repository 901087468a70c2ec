"""``bazaarbot bench teach <game>``: how long a hint takes to arrive and a review to be made, and
how often a hint's first move is the one ``hard`` plays.

Games are played greedy against greedy (quick, and with real decisions);
hints are asked for at positions spread over each game and reviews of each
whole game, both through a real ``AiPool`` (worker processes, as the bot
runs them). A hint's latency is wall-clock time from the request to the
answer, so a busy machine shows in it; the CPU seconds of the search itself
are printed beside it. A review's time is the CPU seconds of its worker.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bazaarbot.ai.choose import choose_action, game_named
from bazaarbot.ai.levels import Level
from bazaarbot.ai.pool import AiPool
from bazaarbot.ai.seed import ai_seed
from bazaarbot.teach.budgets import REVIEW_SECONDS, hint_budget, review_budget
from bazaarbot.teach.hint import hint
from bazaarbot.teach.review import review

#: hints asked per game, spread over its decisions
HINTS_PER_GAME = 8


def timed_hint(*args: Any) -> tuple[list[dict[str, Any]], float]:
    """``hint`` and the CPU seconds it took in its worker."""
    started = time.process_time()
    moves = hint(*args)
    return moves, time.process_time() - started


def played_game(
    name: str, players: int, seed: int
) -> tuple[dict[str, Any], list[tuple[dict[str, Any], int]]]:
    """A greedy-vs-greedy game as a game record, and (position, seat) pairs where a choice was made."""
    game = game_named(name)
    options = {o.name: o.default for o in game.options}
    nicks = [f"p{i + 1}" for i in range(players)]
    state = game.setup(nicks, random.Random(seed), options)
    moves: list[dict[str, Any]] = []
    choices: list[tuple[dict[str, Any], int]] = []
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        if len(game.ai_actions(state, seat)) > 1:
            choices.append((game.to_json(state), seat))
        action = choose_action(game, state, seat, "greedy", random.Random(ai_seed(seed, len(moves), seat)))
        text = game.ai_command(state, seat, action)
        game.apply(state, seat, game.parse(state, seat, text))  # as a table plays it, so the log replays
        moves.append({"n": len(moves), "seat": seat, "author": f"ai:greedy:{seat + 1}", "text": text})
    record = {
        "id": seed,
        "seed": seed,
        "options": options,
        "players": [{"nick": nick, "key": f"n:{nick}"} for nick in nicks],
        "moves": moves,
    }
    return record, choices


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def _measure(
    name: str, games: int, players: int, seed: int, levels: dict[str, Level], say: Callable[[str], None]
) -> None:
    executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    pool = AiPool(1, levels, executor=executor)
    latencies: list[float] = []
    searches: list[float] = []
    playouts: list[int] = []
    #: whether the hint's first move is the one ``hard`` plays there (its own search, another seed)
    agreed: list[bool] = []
    reviews: list[tuple[float, float, int]] = []
    budget = hint_budget(levels)
    try:
        await pool.run(timed_hint, name, game_named(name).to_json(_first(name, players, seed)), 0, budget, 1)
        for index in range(games):
            game_seed = seed * 1_000_003 + index
            record, choices = played_game(name, players, game_seed)
            step = max(1, len(choices) // HINTS_PER_GAME)
            for number, (position, seat) in enumerate(choices[::step][:HINTS_PER_GAME]):
                started = time.perf_counter()
                moves, cpu = await pool.run(timed_hint, name, position, seat, budget, game_seed + number)
                latencies.append(time.perf_counter() - started)
                searches.append(cpu)
                hard = await pool.submit(name, position, seat, "hard", game_seed + number + 7)
                playouts.append(int(moves[0]["playouts"]) if moves else 0)
                agreed.append(bool(moves) and moves[0]["command"] == hard)
            started = time.perf_counter()
            made = await pool.run(review, name, record, review_budget(levels), REVIEW_SECONDS)
            reviews.append((made["seconds"], time.perf_counter() - started, len(made["decisions"])))
            say(
                f"game {index + 1}: {len(record['moves'])} moves; review {made['seconds']:.1f} s CPU "
                f"({len(made['decisions'])} decisions), {reviews[-1][1]:.1f} s wall"
            )
    finally:
        pool.shutdown()
        executor.shutdown(wait=True)  # the worker ends before the interpreter does
    say(
        f"hint latency: median {statistics.median(latencies):.2f} s, p95 {percentile(latencies, 0.95):.2f} s "
        f"over {len(latencies)} hints (wall clock, one worker); search median "
        f"{statistics.median(searches):.2f} s CPU, max {max(searches):.2f} s CPU"
    )
    say(
        f"{sum(agreed)} of {len(agreed)} hints agree with hard (first move); playouts per hint "
        f"{min(playouts)}-{max(playouts)}"
    )
    cpu = [r[0] for r in reviews]
    say(
        f"review time: mean {statistics.mean(cpu):.1f} s CPU per game, max {max(cpu):.1f} s "
        f"({statistics.mean(r[2] for r in reviews):.0f} decisions per game; wall mean "
        f"{statistics.mean(r[1] for r in reviews):.1f} s) over {len(reviews)} games"
    )


def _first(name: str, players: int, seed: int) -> Any:
    game = game_named(name)
    return game.setup([f"p{i + 1}" for i in range(players)], random.Random(seed), {})


def measure(
    name: str,
    games: int,
    players: int,
    seed: int,
    levels: dict[str, Level],
    say: Callable[[str], None] = print,
) -> int:
    """Measure and print the figure lines (the first hint warms the worker up and is not counted)."""
    asyncio.run(_measure(name, games, players, seed, levels, say))
    return 0


def main(args: argparse.Namespace) -> int:
    """``bazaarbot bench teach <game>``: hint latency and review time per game."""
    from bazaarbot.config import load_config
    from bazaarbot.registry import discover

    games = discover()
    if not args.game or args.game not in games:
        print(f"name a game: bench teach <game>; installed: {', '.join(sorted(games))}", file=sys.stderr)
        return 2
    players = args.players or max(2, games[args.game].min_players)
    levels = load_config(args.config).ai.levels
    return measure(args.game, args.games, players, args.seed, levels, lambda line: print(line, flush=True))
