"""A small test-only game for the core's own tests: race to 10.

Players take turns adding 1, 2 or 3 to a shared total; whoever reaches 10
wins. Each player also holds a secret number (their "hand") so the core's
private-view and leak paths have something to carry.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bazaarbot.plugin import GamePlugin, MoveError, Option, Outcome, Result


@dataclass
class CountState:
    players: list[str]
    target: int
    total: int = 0
    turn: int = 0
    secrets: list[int] = field(default_factory=list)
    winner: int | None = None


class CountGame(GamePlugin):
    name = "count"
    title = "Count"
    min_players = 2
    max_players = 3
    rules_version = "count-1"
    options = (Option("target", 10, "the total that wins"),)
    rules_summary = "Take turns: add 1, 2 or 3. Whoever reaches the target wins."
    command_help = "add 1 | add 2 | add 3"

    def setup(self, players: list[str], rng: random.Random, options: dict[str, Any]) -> CountState:
        secrets = [rng.randrange(1000, 10000) for _ in players]
        return CountState(list(players), int(options.get("target", 10)), secrets=secrets)

    def to_act(self, state: CountState) -> list[int]:
        return [] if state.winner is not None else [state.turn]

    def legal_commands(self, state: CountState, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return [f"add {n}" for n in (1, 2, 3)]

    def is_move(self, text: str) -> bool:
        return text.split(" ", 1)[0].lower() == "add"

    def parse(self, state: CountState, seat: int, text: str) -> int:
        words = text.lower().split()
        if len(words) != 2 or words[0] != "add" or words[1] not in ("1", "2", "3"):
            raise MoveError("Say add 1, add 2 or add 3.")
        return int(words[1])

    def apply(self, state: CountState, seat: int, move: int) -> Outcome:
        if state.winner is not None or seat != state.turn:
            raise MoveError("It is not your turn.")
        state.total += move
        public = [f"{state.players[seat]} adds {move}: total {state.total}."]
        if state.total >= state.target:
            state.winner = seat
        else:
            state.turn = (state.turn + 1) % len(state.players)
            state.secrets[seat] += 1
            public.append(f"{state.players[state.turn]} to act.")
        return Outcome(public=public)

    def board(self, state: CountState) -> str:
        return f"Total {state.total} of {state.target}.\nTurn: {state.players[state.turn]}"

    def private_view(self, state: CountState, seat: int) -> str | None:
        return f"Your secret: {state.secrets[seat]}"

    def result(self, state: CountState) -> Result | None:
        if state.winner is None:
            return None
        scores = {i: (1.0 if i == state.winner else 0.0) for i in range(len(state.players))}
        others = [i for i in range(len(state.players)) if i != state.winner]
        return Result(scores, [[state.winner], others], [state.winner])

    def determinize(self, state: CountState, seat: int, rng: random.Random) -> CountState:
        """Other seats' secrets are unknown to ``seat``: draw them anew."""
        copy = self.from_json(self.to_json(state))
        copy.secrets = [s if i == seat else rng.randrange(1000, 10000) for i, s in enumerate(copy.secrets)]
        return copy

    def to_json(self, state: CountState) -> dict[str, Any]:
        return dict(state.__dict__)

    def from_json(self, data: dict[str, Any]) -> CountState:
        return CountState(**{**data, "players": list(data["players"]), "secrets": list(data["secrets"])})


GAME = CountGame()
