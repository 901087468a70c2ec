"""A test-only game whose turn has two steps, for the core's /undo path.

Each turn a player first ``pick``s 1, 2 or 3 (a step that reveals nothing and
may be taken back), then either ``add``s the pick or ``roll``s a die (chance:
never undoable). Whoever's total reaches the target wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bazaarbot.plugin import GamePlugin, MoveError, Outcome, Result


@dataclass
class StepState:
    players: list[str]
    target: int = 12
    totals: list[int] = field(default_factory=list)
    turn: int = 0
    picked: int | None = None
    winner: int | None = None
    rng_state: Any = None


class StepGame(GamePlugin):
    name = "step"
    title = "Step"
    min_players = 2
    max_players = 2
    rules_version = "step-1"
    rules_summary = "pick 1-3, then add it or roll a die."

    def setup(self, players: list[str], rng: random.Random, options: dict[str, Any]) -> StepState:
        return StepState(list(players), totals=[0] * len(players), rng_state=rng.getstate())

    def to_act(self, state: StepState) -> list[int]:
        return [] if state.winner is not None else [state.turn]

    def legal_commands(self, state: StepState, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.picked is None:
            return [f"pick {n}" for n in (1, 2, 3)]
        return ["add", "roll"]

    def is_move(self, text: str) -> bool:
        return text.split(" ", 1)[0].lower() in ("pick", "add", "roll")

    def parse(self, state: StepState, seat: int, text: str) -> tuple[str, int]:
        words = text.lower().split()
        if words[:1] == ["pick"] and len(words) == 2 and words[1] in ("1", "2", "3"):
            return ("pick", int(words[1]))
        if words in (["add"], ["roll"]):
            return (words[0], 0)
        raise MoveError("Say pick 1, pick 2, pick 3, add or roll.")

    def undoable(self, state: StepState, seat: int, move: Any) -> bool:
        return move[0] == "pick"

    def apply(self, state: StepState, seat: int, move: tuple[str, int]) -> Outcome:
        verb, n = move
        if seat != state.turn or state.winner is not None:
            raise MoveError("It is not your turn.")
        if (verb == "pick") != (state.picked is None):
            raise MoveError("Pick first, then add or roll.")
        if verb == "pick":
            state.picked = n
            return Outcome(public=[f"{state.players[seat]} picks {n}."])
        gain = state.picked or 0
        if verb == "roll":
            rng = random.Random()
            rng.setstate(state.rng_state)
            gain = rng.randint(1, 6)
            state.rng_state = rng.getstate()
        state.totals[seat] += gain
        state.picked = None
        if state.totals[seat] >= state.target:
            state.winner = seat
        else:
            state.turn = 1 - state.turn
        return Outcome(public=[f"{state.players[seat]} gains {gain}: {state.totals[seat]}."])

    def board(self, state: StepState) -> str:
        return f"Totals {state.totals}; picked {state.picked}; turn {state.players[state.turn]}"

    def result(self, state: StepState) -> Result | None:
        if state.winner is None:
            return None
        other = 1 - state.winner
        return Result({state.winner: 1.0, other: 0.0}, [[state.winner], [other]], [state.winner])

    def determinize(self, state: StepState, seat: int, rng: random.Random) -> StepState:
        return self.from_json(self.to_json(state))

    def to_json(self, state: StepState) -> dict[str, Any]:
        data = dict(state.__dict__)
        version, internal, gauss = state.rng_state
        data["rng_state"] = [version, list(internal), gauss]
        return data

    def from_json(self, data: dict[str, Any]) -> StepState:
        version, internal, gauss = data["rng_state"]
        return StepState(
            **{
                **data,
                "players": list(data["players"]),
                "totals": list(data["totals"]),
                "rng_state": (version, tuple(internal), gauss),
            }
        )


GAME = StepGame()
