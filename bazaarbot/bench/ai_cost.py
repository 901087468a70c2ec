"""``bazaarbot bench ai <game> --cost``: what an AI level costs per decision and per turn, by table size.

The table is the one people meet: seat 1 is a stand-in for the person (the
greedy policy, which costs next to nothing) and every other seat is the AI
level, playing as the bot does (a later decision in a turn may be read from
the turn's first search). A turn is a run of one AI seat's commands until
another seat acts; its cost is the CPU seconds of this process for all of them
(one core's worth), so other work on a shared machine slows the figures' wall
clock but not them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bazaarbot.ai.choose import choose_action, game_named
from bazaarbot.ai.levels import Level
from bazaarbot.ai.prepared import PreparedAnswers, position_key
from bazaarbot.ai.seed import ai_seed
from bazaarbot.ai.turn import choose_turn

#: the seat the person sits in (a greedy stand-in)
PERSON = 0


@dataclass
class Cost:
    """CPU seconds of every AI move, of those with a real choice, and of every AI turn."""

    moves: list[float] = field(default_factory=list)
    decisions: list[float] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    #: AI commands read from the tree of the seat's previous search in the turn (no search of their own)
    followed: int = 0

    def lines(self, label: str) -> list[str]:
        def figures(values: list[float]) -> str:
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0
            return f"median {statistics.median(values):.3f}, p95 {p95:.3f}, max {max(values):.3f}"

        return [
            f"{statistics.mean(self.turns):.3f} s CPU/AI turn ({label}; over {len(self.turns)} turns: "
            f"{figures(self.turns)})",
            f"{statistics.mean(self.moves):.3f} s CPU/AI move ({label}; over {len(self.moves)} moves, "
            f"{self.followed} of them read from the turn's tree)",
            f"{statistics.mean(self.decisions):.3f} s CPU/decision ({label}; over {len(self.decisions)} "
            f"decisions with a choice: {figures(self.decisions)})",
        ]


def measure(
    game_name: str,
    level: str | Level,
    players: int,
    games: int,
    seed: int,
    levels: dict[str, Level] | None = None,
) -> Cost:
    """Play ``games`` games as the bot plays them (the person greedy, the rest ``level``) and time the AIs.

    Every move is a command played as the table plays it (forced steps follow by themselves);
    an AI's command is ``choose_turn``'s, or one its previous search in the turn prepared, with the
    position's JSON both ways (the bot sends it to a worker), all timed.
    """
    game = game_named(game_name)
    defaults = {o.name: o.default for o in game.options}
    if isinstance(level, Level):
        levels = {**(levels or {}), level.name: level}
        level = level.name
    cost = Cost()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        state = game.setup([f"p{i + 1}" for i in range(players)], random.Random(game_seed), defaults)
        prepared = PreparedAnswers()
        move = 0
        turn_seat, turn_cpu = -1, 0.0
        while game.result(state) is None:
            actor = game.to_act(state)[0]
            if actor != turn_seat:
                if turn_seat not in (-1, PERSON):
                    cost.turns.append(turn_cpu)
                turn_seat, turn_cpu = actor, 0.0
            seed_now = ai_seed(game_seed, move, actor)
            if actor == PERSON:
                action = choose_action(game, state, actor, "greedy", random.Random(seed_now), levels)
                command = game.ai_command(state, actor, action)
            else:
                started = time.process_time()
                choices = len(game.ai_actions(state, actor))
                state_json = game.to_json(state)
                command = prepared.take(position_key(state_json, actor, level))
                if command is None:
                    answer = choose_turn(game, state_json, actor, level, seed_now, levels)
                    command = answer.command
                    prepared.add(answer.follow_ups)
                else:
                    cost.followed += 1
                spent = time.process_time() - started
                turn_cpu += spent
                cost.moves.append(spent)
                if choices > 1:
                    cost.decisions.append(spent)
            game.apply(state, actor, game.parse(state, actor, command))
            move += 1
        if turn_seat not in (-1, PERSON):
            cost.turns.append(turn_cpu)
    return cost


def run(
    game_name: str,
    level: str,
    sizes: list[int],
    games: int,
    seed: int,
    levels: dict[str, Level] | None = None,
    say: Callable[[str], None] = print,
) -> dict[int, Cost]:
    """The cost lines for each table size in ``sizes``."""
    costs = {}
    for players in sizes:
        costs[players] = measure(game_name, level, players, games, seed, levels)
        label = f"{game_name}, {players} players, {level}, {games} games"
        for line in costs[players].lines(label):
            say(line)
    return costs


def main(args: argparse.Namespace, levels: dict[str, Level], sizes: list[int]) -> int:
    """``bench ai <game> --cost [--players N]``: every table size unless one is named."""
    run(args.game, args.level, sizes, args.games, args.seed, levels, lambda line: print(line, flush=True))
    return 0
