"""``bazaarbot bench ai <game> --review``: the CPU a finished game's background review costs, by table size.

Games are played greedy against greedy (real decisions, quickly), then each is
reviewed in this process with ``graph_review`` and its default budget, as the
bot reviews every finished game for its win-chance graph. The figure is the
review's own CPU seconds (the replay included).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bazaarbot.ai.levels import Level
from bazaarbot.teach.budgets import REVIEW_SECONDS
from bazaarbot.teach.graph import graph_review

from .teach import played_game


def run(
    game_name: str,
    sizes: list[int],
    games: int,
    seed: int,
    levels: dict[str, Level] | None = None,
    say: Callable[[str], None] = print,
    cpu_seconds: float = REVIEW_SECONDS,
) -> dict[int, list[float]]:
    """Review ``games`` games at each table size; one line per size."""
    spent: dict[int, list[float]] = {}
    for players in sizes:
        spent[players] = []
        decisions = []
        incomplete = 0
        for index in range(games):
            record, _choices = played_game(game_name, players, seed * 1_000_003 + index)
            started = time.process_time()
            made = graph_review(game_name, record, cpu_seconds, levels)
            spent[players].append(time.process_time() - started)
            decisions.append(len(made["decisions"]))
            incomplete += not made["complete"]
        cpu = spent[players]
        say(
            f"{statistics.mean(cpu):.2f} s CPU/review ({game_name}, {players} players, "
            f"budget {cpu_seconds:g} s; "
            f"max {max(cpu):.2f} s over {games} games of {statistics.mean(decisions):.0f} decisions; "
            f"{incomplete} left decisions out)"
        )
    return spent


def main(args: argparse.Namespace, levels: dict[str, Level], sizes: list[int]) -> int:
    """``bench ai <game> --review [--players N]``: every table size unless one is named."""
    run(args.game, sizes, args.games, args.seed, levels, lambda line: print(line, flush=True))
    return 0
