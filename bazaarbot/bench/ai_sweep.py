"""``bazaarbot bench ai <game> --sweep 0.7,1.0,1.4``: each exploration constant's regret on fixed positions.

Paired matches tell two searches apart only over hundreds of matches, far too
dear to try several constants. This asks each one instead what it would play
at the same positions, and judges the pick by a deep search's estimate:

- the positions are every fourth decision with at least three actions in
  ``--games`` two-player greedy games from ``--seed`` on (``played_game``, as
  ``--review`` and ``bench teach`` play them: real positions, at no search's cost);
- the reference is two searches of ``REFERENCE_ITERATIONS`` at the level's
  own constant, their counts summed; an action's worth is its mean reward;
- each constant, and the previous search, picks ``SEEDS_PER_POSITION`` times
  per position with the level's budget. Its regret is the reference's best
  worth less the worth of its pick, averaged over the picks. The line also
  gives how often the pick was the reference's best.

All constants are judged by one reference on one set of positions, so their
differences are paired: a lower regret is a search that picks better moves.
Work runs in one process per core.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from bazaarbot.ai.choose import game_named, resolve_level
from bazaarbot.ai.ismcts import Search
from bazaarbot.ai.levels import Level
from bazaarbot.ai.seed import ai_seed

from .previous import PREVIOUS, previous_action
from .teach import played_game

#: the reference's iterations per search (two searches): eight times ``hard``'s budget each
REFERENCE_ITERATIONS = 12_000
#: picks per position and constant: the searches differ by seed, so one pick would be noisy
SEEDS_PER_POSITION = 4
#: the fewest actions a position needs to be asked about: with two, most searches agree
LEAST_ACTIONS = 3
#: one such decision in this many is asked about, so a game's positions are spread over it
EVERY = 4


@dataclass(frozen=True)
class Sweep:
    """What one sweep asks: the game, the level judged, its positions' games and the reference's size."""

    game_name: str
    level: str
    games: int
    seed: int
    levels: dict[str, Level] | None = None
    reference_iterations: int = REFERENCE_ITERATIONS
    seeds_per_position: int = SEEDS_PER_POSITION


@dataclass(frozen=True)
class Regret:
    """One searcher's figures: its mean regret and how often it picked the reference's best."""

    regret: float
    agreement: float
    picks: int


def positions(sweep: Sweep) -> list[tuple[dict[str, Any], int]]:
    """(position as JSON, seat to decide) pairs from two-player greedy games (``played_game``)."""
    found = []
    for index in range(sweep.games):
        _record, choices = played_game(sweep.game_name, 2, sweep.seed * 1_000_003 + index)
        wide = [(data, seat) for data, seat in choices if len(_actions(sweep, data, seat)) >= LEAST_ACTIONS]
        found.extend(wide[index % EVERY :: EVERY])
    return found


def _actions(sweep: Sweep, data: dict[str, Any], seat: int) -> list[Any]:
    game = game_named(sweep.game_name)
    return game.ai_actions(game.from_json(data), seat)


def _budget(sweep: Sweep) -> Any:
    level = resolve_level(sweep.level, sweep.levels)
    assert isinstance(level, Level), "a sweep judges a search level"
    return level.budget()


def reference_worths(sweep: Sweep, position: tuple[dict[str, Any], int]) -> dict[Any, float]:
    """Each legal action's mean reward over two deep searches from the position."""
    game = game_named(sweep.game_name)
    data, seat = position
    budget = replace(_budget(sweep), iterations=sweep.reference_iterations, time_cap=float("inf"))
    won: dict[Any, float] = {}
    visits: dict[Any, int] = {}
    for seed in (1, 2):
        children = Search(game, game.from_json(data), seat, budget, random.Random(seed)).run()
        for action, child in children.items():
            won[action] = won.get(action, 0.0) + child.value
            visits[action] = visits.get(action, 0) + child.visits
    return {a: won[a] / visits[a] for a in _actions(sweep, data, seat) if visits.get(a)}


def pick(sweep: Sweep, position: tuple[dict[str, Any], int], searcher: float | str, seed: int) -> Any:
    """The action ``searcher`` (a constant for the level's search, or ``previous``) plays at the position."""
    game = game_named(sweep.game_name)
    data, seat = position
    state = game.from_json(data)
    rng = random.Random(seed)
    if searcher == PREVIOUS:
        return previous_action(game, state, seat, rng, sweep.levels)
    budget = replace(_budget(sweep), exploration=float(searcher))
    return Search(game, state, seat, budget, rng).best_action()


def regret_of(picks: Iterable[tuple[dict[Any, float], Any]]) -> Regret:
    """The mean regret and agreement of picks, each with the reference's worths at its position.

    A pick the reference never tried is worth its worst tried action."""
    total = agreed = 0.0
    count = 0
    for worths, action in picks:
        best = max(worths, key=worths.__getitem__)
        total += worths[best] - worths.get(action, min(worths.values()))
        agreed += action == best
        count += 1
    return Regret(total / count if count else 0.0, agreed / count if count else 0.0, count)


def _reference_task(args: tuple[Sweep, tuple[dict[str, Any], int]]) -> dict[Any, float]:
    return reference_worths(*args)


def _pick_task(args: tuple[Sweep, tuple[dict[str, Any], int], float | str, int]) -> Any:
    return pick(*args)


def run(
    sweep: Sweep,
    searchers: list[float | str],
    say: Callable[[str], None] = print,
    workers: int | None = None,
) -> dict[float | str, Regret]:
    """Judge each searcher on the sweep's positions; one line per searcher, in the order given."""
    found = positions(sweep)
    say(
        f"{len(found)} positions from {sweep.games} games of {sweep.game_name}; "
        f"reference 2 x {sweep.reference_iterations} iterations"
    )
    workers = workers or os.cpu_count() or 1
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    mapped: Callable[..., Iterable[Any]] = pool.map if pool is not None else map  # type: ignore[assignment]
    try:
        worths = list(mapped(_reference_task, [(sweep, p) for p in found]))
        judged = {}
        for searcher in searchers:
            tasks = [
                (sweep, position, searcher, ai_seed(sweep.seed, index, k))
                for index, position in enumerate(found)
                for k in range(sweep.seeds_per_position)
            ]
            picks = list(mapped(_pick_task, tasks))
            per = sweep.seeds_per_position
            figures = regret_of((worths[i // per], action) for i, action in enumerate(picks))
            judged[searcher] = figures
            name = searcher if searcher == PREVIOUS else f"exploration {float(searcher):g}"
            say(
                f"{name}: regret {figures.regret:.4f}, agrees with the reference "
                f"{100 * figures.agreement:.1f}% ({figures.picks} picks)"
            )
    finally:
        if pool is not None:
            pool.shutdown()
    return judged


def searchers_named(text: str) -> list[float | str]:
    """``--sweep``'s list: the previous search first, then each constant given (comma-separated)."""
    constants = [float(part) for part in text.split(",") if part.strip()]
    if any(c < 0 for c in constants):
        raise ValueError("an exploration constant is 0 or more")
    return [PREVIOUS, *constants]


def main(args: argparse.Namespace, levels: dict[str, Level], sizes: list[int]) -> int:
    """``bench ai <game> --sweep C,C,...``: two-player positions only."""
    try:
        searchers = searchers_named(args.sweep)
    except ValueError as error:
        print(f"--sweep takes exploration constants, such as 0.7,1.0,1.4: {error}", file=sys.stderr)
        return 2
    level = levels.get(args.level)
    if level is None or level.iterations == 0:
        print(f"--sweep judges a search level, not {args.level!r}", file=sys.stderr)
        return 2
    sweep = Sweep(args.game, args.level, args.games, args.seed, levels)
    run(sweep, searchers, lambda line: print(line, flush=True))
    return 0
