"""The optional quality gate for exchange tables: how many turns a lone player needs for each
five-of-a-kind, solved exactly as a small Markov decision problem (§9.6).

States are hands of at most ``MAX_HAND`` stones (3,003 of them). One turn is one
action: a draw (each colour 1/6, a joker 1/6 with the best colour chosen) or one
trade. A hand that would grow past ``MAX_HAND`` must give back stones of the
player's choice (as under the classic hand limit). The goal is to hold exactly
the combination. Gauss-Seidel value iteration over precomputed successor lists
solves all five colours in well under a second or two of pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from .colours import NCOL, Group, Row

MAX_HAND = 10
#: accept a table when the hardest five-of-a-kind needs at most this many turns on average ...
GATE_WORST = 9.0
#: ... and the easiest and hardest colour are at most this many turns apart
GATE_SPREAD = 3.0
#: value iteration stops when no value moved by more than this in a sweep
TOLERANCE = 1e-4
MAX_SWEEPS = 2000


@cache
def _hands() -> tuple[tuple[Group, ...], dict[Group, int]]:
    """Every hand of at most ``MAX_HAND`` stones, smallest first, and each hand's index.

    Worked out on the gate's first use, not when the game is loaded: every
    process that loads the games (a bot, an AI worker) would pay for it, and
    only table generation with the gate on needs it.
    """
    hands: tuple[Group, ...] = tuple(
        sorted((h for h in product(range(MAX_HAND + 1), repeat=NCOL) if sum(h) <= MAX_HAND), key=sum)  # type: ignore[misc]
    )
    return hands, {h: i for i, h in enumerate(hands)}


def _shrink(hand: Sequence[int]) -> list[int]:
    """Indices of the hands a too-big hand can be cut down to (player's choice), or the hand itself."""
    total = sum(hand)
    if total <= MAX_HAND:
        return [_hands()[1][tuple(hand)]]  # type: ignore[index]
    found: set[int] = set()
    for c in range(NCOL):
        if hand[c]:
            smaller = list(hand)
            smaller[c] -= 1
            found.update(_shrink(smaller))
    return sorted(found)


def _successors(rows: Sequence[Row]) -> tuple[list[list[list[int]]], list[list[int]]]:
    """For every hand: per drawn colour the choice of hands after it; and the hands one trade reaches."""
    draws: list[list[list[int]]] = []
    trades: list[list[int]] = []
    for hand in _hands()[0]:
        per_colour = []
        for c in range(NCOL):
            grown = list(hand)
            grown[c] += 1
            per_colour.append(_shrink(grown))
        draws.append(per_colour)
        reach: set[int] = set()
        for a, b in rows:
            for give, get in ((a, b), (b, a)):
                if all(hand[c] >= give[c] for c in range(NCOL)):
                    reach.update(_shrink([hand[c] - give[c] + get[c] for c in range(NCOL)]))
        trades.append(sorted(reach))
    return draws, trades


def _predecessors(
    draws: list[list[list[int]]], trades: list[list[int]]
) -> tuple[list[list[int]], list[list[int]]]:
    """For every hand, the hands that reach it by a draw and those that reach it by a trade."""
    n = len(draws)
    by_draw: list[list[int]] = [[] for _i in range(n)]
    by_trade: list[list[int]] = [[] for _i in range(n)]
    for s in range(n):
        for options in draws[s]:
            for i in options:
                by_draw[i].append(s)
        for i in trades[s]:
            by_trade[i].append(s)
    return by_draw, by_trade


def _sure_region(
    goal: int,
    draws: list[list[list[int]]],
    trades: list[list[int]],
    preds: tuple[list[list[int]], list[list[int]]],
) -> list[bool]:
    """Hands from which the goal can be reached with certainty (a lone player's game never gets stuck).

    Classic almost-sure reachability: keep only actions whose every outcome stays in the region, then
    keep only hands that can still reach the goal with those actions; repeat until nothing changes.
    """
    by_draw, by_trade = preds
    n = len(draws)
    region = [True] * n
    while True:
        draw_safe = [all(any(region[i] for i in options) for options in draws[s]) for s in range(n)]
        reach = [False] * n
        reach[goal] = True
        todo = [goal]
        while todo:
            i = todo.pop()
            for p in by_trade[i]:
                if region[p] and not reach[p]:
                    reach[p] = True
                    todo.append(p)
            for p in by_draw[i]:
                if region[p] and draw_safe[p] and not reach[p]:
                    reach[p] = True
                    todo.append(p)
        if reach == region:
            return region
        region = reach


def expected_turns(rows: Sequence[Row], targets: Sequence[Group]) -> list[float]:
    """Expected turns from an empty hand to hold exactly each target, playing optimally alone
    (infinity when the table cannot guarantee it)."""
    draws, trades = _successors(rows)
    preds = _predecessors(draws, trades)
    hands, index = _hands()
    n = len(hands)
    start = index[(0, 0, 0, 0, 0)]
    results = []
    inf = float("inf")
    for target in targets:
        goal = index[tuple(target)]  # type: ignore[index]
        region = _sure_region(goal, draws, trades, preds)
        if not region[start]:
            results.append(inf)
            continue
        value = [0.0 if region[s] else inf for s in range(n)]
        # bigger hands first: a draw feeds a hand one stone bigger
        order = [s for s in range(n - 1, -1, -1) if region[s] and s != goal]
        for _sweep in range(MAX_SWEEPS):
            moved = 0.0
            for s in order:
                total = 0.0
                best_any = inf
                for options in draws[s]:
                    best = min(value[i] for i in options) if len(options) > 1 else value[options[0]]
                    total += best
                    if best < best_any:
                        best_any = best
                v = (total + best_any) / 6.0
                for i in trades[s]:
                    if value[i] < v:
                        v = value[i]
                v += 1.0
                change = v - value[s]
                if change > moved:
                    moved = change
                elif -change > moved:
                    moved = -change
                value[s] = v
            if moved < TOLERANCE:
                break
        results.append(value[start])
    return results


def five_of_a_kind_turns(rows: Sequence[Row]) -> list[float]:
    """Expected turns for five blue, five green, five red, five white, five yellow."""
    targets = []
    for c in range(NCOL):
        t = [0] * NCOL
        t[c] = 5
        targets.append(tuple(t))
    return expected_turns(rows, targets)  # type: ignore[arg-type]


def passes_gate(rows: Sequence[Row]) -> bool:
    """Whether no five-of-a-kind is much too hard and the colours are roughly balanced."""
    turns = five_of_a_kind_turns(rows)
    return max(turns) <= GATE_WORST and max(turns) - min(turns) <= GATE_SPREAD
