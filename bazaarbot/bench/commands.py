"""The ``bazaarbot bench`` sub-commands, each with only its own flags.

Declaring them costs no import of the benchmarks: each one's module is
imported when it runs, so ``bazaarbot console`` starts no slower for them.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass

Run = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class LoadVariant:
    """Another way to drive ``bench load`` (e.g. through a transport), chosen by a flag of its own."""

    #: the flag's name without dashes: ``web`` is ``bench load --web``
    flag: str
    #: the module whose ``main(args) -> int`` runs instead of the in-process load
    module: str
    help: str
    #: the flag's value, where it takes one (``--versus TREE``); a variant without one is a switch
    metavar: str = ""


#: the variants of ``bench load``; a variant's module may stand above the core and import transports
LOAD_VARIANTS: list[LoadVariant] = [
    LoadVariant(
        "web",
        "bazaarbot.bench.load_web",
        "also through real websockets on loopback (the bot in its own process), with the CPU ratio",
    ),
    LoadVariant(
        "versus",
        "bazaarbot.bench.load_versus",
        "this build's web path beside the build in the source tree TREE, black-box, taking turns",
        "TREE",
    ),
]


def _runner(module: str) -> Run:
    """Run ``module.main(args)``, importing the module only then."""

    def run(args: argparse.Namespace) -> int:
        return int(importlib.import_module(module).main(args))

    return run


def _engine(sub: argparse._SubParsersAction) -> None:
    engine = sub.add_parser(
        "engine", help="rules engine speed of every game", description="Rules engine speed, per game."
    )
    engine.add_argument("game", nargs="?", help="one game (default: every installed game)")
    engine.add_argument("--seconds", type=float, default=3.0, help="how long to measure each figure")
    engine.set_defaults(func=_runner("bazaarbot.bench.engine"))


def _played_games(parser: argparse.ArgumentParser, default: int, games: str, players: str) -> None:
    """The arguments of a benchmark that plays whole games: which game, how many, how many players, seed."""
    parser.add_argument("game", nargs="?", help="the game to play (required)")
    parser.add_argument("--games", type=int, default=default, help=games)
    parser.add_argument("--players", type=int, help=players)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default: 1)")
    parser.add_argument("-c", "--config", help="TOML config with [ai.levels]")


def _ai(sub: argparse._SubParsersAction) -> None:
    ai = sub.add_parser(
        "ai",
        help="an AI level's strength against a baseline",
        description="Play an AI level against a baseline with the seats rotated; print each game, "
        "then the win rate with its 95% interval and the time per move.",
    )
    _played_games(ai, 20, "games to play; Jaipur: matches (default: 20)", "players at the table (default: 2)")
    ai.add_argument("--level", default="hard", help="the AI level measured (default: hard)")
    ai.add_argument(
        "--vs",
        default="greedy",
        help="the opponent: random, greedy, a level, previous (hard's search before each edge counted "
        "an iteration once) or afresh (hard with a turn's later decisions searched afresh, with --as-bot) "
        "(default: greedy)",
    )
    ai.add_argument(
        "--paired", action="store_true", help="play each deal with the level in every seat in turn"
    )
    ai.add_argument(
        "--as-bot",
        action="store_true",
        help="play the searching seats as the bot does: a turn's later decisions from its first search",
    )
    ai.add_argument("--record", action="store_true", help="file and rate the games in the store (AI ratings)")
    ai.add_argument(
        "--db", help="with --record: the sqlite file (default: the config's [store] url, else its [bot] db)"
    )
    ai.add_argument(
        "--cost",
        action="store_true",
        help="CPU per AI turn and per decision at a table of one greedy stand-in for a person and the "
        "level in every other seat, for each table size (or --players)",
    )
    ai.add_argument(
        "--review",
        action="store_true",
        help="CPU of the background review (the win-chance graph) of a finished game, per table size",
    )
    ai.add_argument(
        "--ponder",
        action="store_true",
        help="wall clock from a person's move to the AI's answer, without and with pondering, over the "
        "person's first --games moves",
    )
    ai.add_argument(
        "--sweep",
        metavar="C,C,...",
        help="each exploration constant's regret against a deep search, and the previous search's, on "
        "the positions of --games two-player greedy games",
    )
    ai.add_argument(
        "--think", type=float, default=3.0, help="with --ponder: seconds the person thinks (default: 3)"
    )
    ai.set_defaults(func=_runner("bazaarbot.bench.ai"))


def _teach(sub: argparse._SubParsersAction) -> None:
    teach = sub.add_parser(
        "teach",
        help="hint latency and review time per game",
        description="Play greedy games, ask a hint at each decision and review each game: "
        "hint latency (median, p95) and review time per game.",
    )
    least = "players at the table (default: the game's least, at least 2)"
    _played_games(teach, 3, "games to play and review (default: 3)", least)
    teach.set_defaults(func=_runner("bazaarbot.bench.teach"))


def _load(sub: argparse._SubParsersAction) -> None:
    load = sub.add_parser(
        "load",
        help="many live tables through the real hub and store",
        description="Live tables through the real hub and store on a temporary sqlite file: "
        "throughput, latency, memory per table, restore time.",
    )
    load.add_argument("game", nargs="?", help="the game every table plays (default: jaipur)")
    load.add_argument("--game", dest="load_game", metavar="GAME", help="the same as the positional game")
    load.add_argument("--tables", type=int, default=100, help="live tables (default: 100)")
    load.add_argument("--seconds", type=float, default=3.0, help="how long each phase runs (default: 3)")
    load.add_argument("--bots", action="store_true", help="AI seats at some tables, thinking meanwhile")
    load.add_argument(
        "--store",
        metavar="URL",
        help="a PostgreSQL store (postgresql://...), measured beside sqlite and store-free",
    )
    for variant in LOAD_VARIANTS:
        if variant.metavar:
            load.add_argument(f"--{variant.flag}", metavar=variant.metavar, help=variant.help)
        else:
            load.add_argument(f"--{variant.flag}", action="store_true", help=variant.help)
    versus = load.add_argument_group("--versus")
    versus.add_argument("--rate", type=float, default=100.0, help="paced commands per second (default: 100)")
    versus.add_argument("--rounds", type=int, default=2, help="turns each build takes (default: 2)")
    versus.add_argument(
        "--saturated-tables", type=int, default=1000, help="tables of the saturated phase (default: 1000)"
    )
    versus.add_argument(
        "--parts",
        action="store_true",
        help="time this build's parts in its event loop (bench.parts) and print where a paced command's "
        "CPU went (the timers cost a little: compare builds without them)",
    )
    versus.add_argument(
        "--together",
        action="store_true",
        help="pace both builds at once, twice a round, each build's load first once (paired figures; "
        "the saturated phases take turns)",
    )
    load.set_defaults(func=_run_load)


def _run_load(args: argparse.Namespace) -> int:
    """The variant whose flag is given, else the in-process load."""
    for variant in LOAD_VARIANTS:
        if getattr(args, variant.flag.replace("-", "_"), False):
            return _runner(variant.module)(args)
    return _runner("bazaarbot.bench.load")(args)


def add_parser(sub: argparse._SubParsersAction) -> None:
    """``bazaarbot bench``; alone it prints its help."""
    bench = sub.add_parser(
        "bench", help="print performance figures", description="Performance and strength figures."
    )
    which = bench.add_subparsers(dest="benchmark", title="benchmarks", metavar="{engine,ai,load,teach}")
    _engine(which)
    _ai(which)
    _load(which)
    _teach(which)
    bench.set_defaults(func=lambda args: _help(bench))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2
