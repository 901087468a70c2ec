"""``review``: every decision of a finished game judged by the search, run in a worker process.

For each step with a real choice the search looks at the position as the
deciding seat saw it (the same information rules as the AI), and gives the
best move it found and the played move's own win chance. What the review
keeps per decision is small (two commands, two chances), so a stored review
stays a few kilobytes. Each player's line in the graph is the chance after
each of their decisions; a decision that was forced adds no point.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bazaarbot.ai.choose import game_named
from bazaarbot.ai.ismcts import SearchBudget
from bazaarbot.ai.seed import ai_seed
from bazaarbot.plugin import GamePlugin
from bazaarbot.table.steps import SKIP_RECORD, replay

from .analysis import action_of, judge

#: how many decisions per person the review names
WORST_DECISIONS = 3

#: a loss of win chance below this is noise of the search, not a mistake
MEANINGFUL_LOSS = 0.01

#: share of a review's CPU budget its searches are given; the rest is for replaying the game,
#: reading the typed moves and each search's set-up and extra playouts of the move played
SEARCH_SHARE = 0.8


def review(
    game_name: str | GamePlugin,
    record: dict[str, Any],
    budget: SearchBudget,
    total_seconds: float = 120.0,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, Any]:
    """The review of the game in ``record`` (the shape ``Store.game_record`` gives).

    ``budget`` bounds each decision; ``total_seconds`` (CPU time) bounds the whole
    review, spread over the decisions: each may spend at most an even share of what
    is left, so a long game gets smaller searches rather than a missing end. Past the
    total (a search's set-up alone can overrun a tiny share) the remaining decisions
    are left out (``complete`` false).
    """
    game = game_name if isinstance(game_name, GamePlugin) else game_named(game_name)
    players = record["players"]
    nicks = [str(p["nick"]) for p in players]
    started = clock()
    steps, final = replay(game, int(record["seed"]), nicks, dict(record["options"]), record["moves"])
    choices = []
    for index, step in enumerate(steps):
        if step.text == SKIP_RECORD:
            continue
        state = game.from_json(step.before)
        if len(game.ai_actions(state, step.seat)) >= 2:
            choices.append((index, step, state))
    searches = total_seconds * SEARCH_SHARE
    decisions: list[dict[str, Any]] = []
    complete = True
    for done, (index, step, state) in enumerate(choices):
        left = searches - (clock() - started)
        if left <= 0:
            complete = False
            break
        share = replace(budget, time_cap=min(budget.time_cap, left / (len(choices) - done)))
        played = action_of(game, state, step.seat, step.text)
        seed = ai_seed(int(record["seed"]), step.n, step.seat) ^ 0x7E4C
        ranked, mine = judge(game, state, step.seat, share, seed, played, clock)
        best = ranked[0]
        played_chance = mine.chance if mine is not None else best.chance
        decisions.append(
            {
                "step": index,
                "n": step.n,
                "seat": step.seat,
                "author": step.author,
                "played": mine.command if mine is not None else step.text,
                "chance": played_chance,
                "best": best.command,
                "best_chance": best.chance,
                "lost": max(0.0, best.chance - played_chance) if best.action != played else 0.0,
            }
        )
    result = game.result(final)
    return {
        "game_id": record.get("id"),
        "game": game.name,
        "players": nicks,
        "keys": [str(p.get("key", "")) for p in players],
        "steps": len(steps),
        "decisions": decisions,
        "winners": list(result.winners) if result else [],
        "complete": complete,
        "seconds": round(clock() - started, 3),
        "iterations": budget.iterations,
    }


def worst(review_data: dict[str, Any], seat: int, limit: int = WORST_DECISIONS) -> list[dict[str, Any]]:
    """The ``limit`` decisions ``seat``'s person made that lost the most win chance (an AI's left out)."""
    mine = [
        d
        for d in review_data["decisions"]
        if d["seat"] == seat
        and d["lost"] > MEANINGFUL_LOSS
        and not str(d.get("author", "")).startswith("ai:")
    ]
    mine.sort(key=lambda d: (-d["lost"], d["n"]))
    return mine[:limit]


def chance_lines(review_data: dict[str, Any]) -> list[list[tuple[int, float]]]:
    """Per seat, (step, estimated win chance after the decision there) in order: the graph's lines."""
    lines: list[list[tuple[int, float]]] = [[] for _ in review_data["players"]]
    for decision in review_data["decisions"]:
        lines[decision["seat"]].append((decision["step"], decision["chance"]))
    return lines
