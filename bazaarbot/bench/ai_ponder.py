"""``bazaarbot bench ai <game> --ponder``: how long after a person's move the AI answers, with and without
pondering.

A greedy stand-in for the person sits in seat 1 and "thinks" ``--think``
seconds of wall clock before each move; the other seats are the AI level,
thinking in a real worker pool as the bot's do. The latency is the wall clock
from the person's move to the next AI seat's command. The same games are
played twice, first without pondering, then with it (a pondered answer is
the very answer the search gives, so the games are the same); the line says
how often the answer was ready when the person moved.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bazaarbot.ai.choose import choose_action, game_named
from bazaarbot.ai.levels import Level
from bazaarbot.ai.pool import AiPool
from bazaarbot.ai.prepared import PreparedAnswers, position_key
from bazaarbot.ai.seed import ai_seed
from bazaarbot.ai.turn import choose_turn

#: the seat the person sits in (a greedy stand-in)
PERSON = 0


@dataclass(frozen=True)
class PonderTable:
    """The measured table: the game, the AI level, the seats, the person's moves and think time."""

    game_name: str
    level: str
    players: int
    #: how many of the person's moves are measured (from the start of the game)
    person_moves: int
    #: seconds of wall clock the person thinks before each move
    think: float
    seed: int
    levels: dict[str, Level]


async def latencies(table: PonderTable, ponder: bool) -> tuple[list[float], int]:
    """Seconds from each of the person's measured moves to the AI's answer, and the pondered hits."""
    game = game_named(table.game_name)
    level, seed = table.level, table.seed
    defaults = {o.name: o.default for o in game.options}
    state = game.setup([f"p{i + 1}" for i in range(table.players)], random.Random(seed), defaults)
    ai_levels = {seat: level for seat in range(table.players) if seat != PERSON}
    pool = AiPool(1, table.levels)
    prepared = PreparedAnswers()
    waited: list[float] = []
    hits = 0
    move = 0
    answered_person = True
    try:
        await pool.run(ai_seed, seed, 0, 0)  # the worker started before the clock does
        while game.result(state) is None and len(waited) < table.person_moves:
            actor = game.to_act(state)[0]
            if actor == PERSON:
                pondering = []
                if ponder:
                    pondering = pool.ponder(
                        table.game_name, game.to_json(state), PERSON, ai_levels, seed, move
                    )
                await asyncio.sleep(table.think)
                for future in pondering:
                    if future.done() and not future.cancelled():
                        prepared.add(future.result())
                    else:
                        future.cancel()
                rng = random.Random(ai_seed(seed, move, actor))
                action = choose_action(game, state, actor, "greedy", rng, table.levels)
                command = game.ai_command(state, actor, action)
                answered_person = False
                started = time.perf_counter()
            else:
                state_json = game.to_json(state)
                command = prepared.take(position_key(state_json, actor, level))
                if command is None:
                    thought = pool.submit(
                        table.game_name,
                        state_json,
                        actor,
                        level,
                        ai_seed(seed, move, actor),
                        None,
                        choose_turn,
                    )
                    answer = await thought
                    command = answer.command
                    prepared.add(answer.follow_ups)
                elif not answered_person:
                    hits += 1
                if not answered_person:
                    waited.append(time.perf_counter() - started)
                    answered_person = True
            game.apply(state, actor, game.parse(state, actor, command))
            move += 1
    finally:
        pool.shutdown()
    return waited, hits


def run(table: PonderTable, say: Callable[[str], None] = print) -> dict[bool, list[float]]:
    """The latency lines without and with pondering."""
    figures = {}
    for ponder in (False, True):
        waited, hits = asyncio.run(latencies(table, ponder))
        figures[ponder] = waited
        ordered = sorted(waited)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        label = "with pondering" if ponder else "without pondering"
        ready = f", answer ready {hits} of {len(waited)} times" if ponder else ""
        say(
            f"{statistics.median(waited):.3f} s median from the person's move to the AI's ({label}; "
            f"{table.game_name}, {table.players} players, {table.level}, person thinks {table.think:g} s; "
            f"mean {statistics.mean(waited):.3f}, p90 {p90:.3f} over {len(waited)} moves{ready})"
        )
    return figures


def main(args: argparse.Namespace, levels: dict[str, Level], sizes: list[int]) -> int:
    """``bench ai <game> --ponder [--players N] [--think S] [--games MOVES]``: one table size."""
    players = args.players or sizes[0]
    table = PonderTable(args.game, args.level, players, args.games, args.think, args.seed, levels)
    run(table, lambda line: print(line, flush=True))
    return 0
