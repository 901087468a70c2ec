"""The Yspahan GamePlugin: the contract methods, wired to the rules, parser and views."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from bazaarbot.i18n import N_, SOURCE_LANGUAGE, _
from bazaarbot.plugin import GamePlugin, MoveError, Option, Outcome, Result, options_text

from . import ai, breakdown, data, render
from .explain import explain, move_note
from .parse import format_action, looks_like_move, named_space, parse_command
from .rules import A_DRAW, A_EXTRA, A_PLAY, A_YELLOW, DEFAULT_OPTIONS, actor, advance, legal, setup, step
from .state import P_END, State
from .words import command_in

LINE_BUDGET = 280
#: steps that roll dice or show a card from a hand: never taken back
REVEALING = frozenset({A_YELLOW, A_DRAW, A_PLAY, A_EXTRA})

RULES_SUMMARY = """\
Yspahan (2-4 players, 3 weeks of 7 days). Each day the start player rolls 9 dice (8 with two players), \
buying up to 3 yellow ones for 1 gold each; the dice are sorted by value onto the tower: lowest on camels, \
highest on gold, the rest on sacks, barrels, chests, vases.
On your turn take one group: use its field (camels, gold, or cubes into that neighbourhood's souks), \
or move the supervisor by the dice value (1 gold per step of change), or draw a card. Then you may build once.
The supervisor sends cubes next to where he stops to the caravan (owners may pay a camel to keep them). \
Caravan cubes score on arrival (2/1/0 by row) and when it fills: cubes x highest row.
End of week: completed souks score their value; cubes leave the city; the caravan scores again. \
Buildings score 0,0,5,5,5,10. Most points after week 3 wins; ties share the win.
Two players: 8 dice; each day the start player acts, then the other, then the start player again. \
Building is an action of its own: give up a dice group and pay (build NAME with V). \
Yellow dice stay on the tower all day, for the start player only.
Four players, last day of week 3: the lowest score starts and acts first, the highest acts last.
Cards are played during your own turn: before rolling, before or after taking dice, while building, and \
when your own cube is about to leave (e.g. a card the caravanserai just gave you).
Any card can instead be discarded as an extra die for take camels, take gold or deliver. \
Both discount cards may go on one building (combine_discounts).
Road from the crossing X outwards, with the souks each space touches (W1, E1, N1 and S1 touch corner \
shops that lie on two spaces):
""" + "\n".join(render.road_map(SOURCE_LANGUAGE))

COMMAND_HELP = """\
roll | yellow N - start player buys N yellow dice (1 gold each) and rolls.
take camels | take gold | deliver sacks|barrels|chests|vases - use a field's dice for its own action.
move V DIR [then DIR] [+K|-K] - the dice showing V move the supervisor V+K steps (K gold each; the hammam \
changes up to 3 for free). DIR is west/east/north/south; 'then north' turns at the crossing. \
Also: move V to W5, move V -V (stay).
draw V - give up the dice showing V for one card (just 'draw' when no dice are left).
place SOUK [SPACE] - next cube: 'place sack5' uses an inner shop, 'place sack5 W7' the shop by road space W7.
stop - stop placing cubes (at a table with must_place_all=off, or to leave out the hoist's extra cube).
first SOUK - which of two cubes goes to the caravan first.  protect | let go - pay 1 camel to keep your cube.
build NAME - paddock, shop, hammam, caravanserai, bazaar, hoist (two players: build NAME with V).
play CARD - camels3, gold3, cube-to-caravan, cube-to-souk SOUK [SPACE], gold-for-points N, \
camels-for-points N, exchange N gold|camels (what you give), build-without-camels NAME, \
build-without-gold NAME, build-without-camels build-without-gold NAME (both at once).
extra CARD - discard a card as an extra die before take/deliver (+1 camel, gold or cube).
done - end your turn (skip building)."""


def pack(sentences: list[str], budget: int = LINE_BUDGET) -> list[str]:
    """Join short sentences into as few lines as fit the chat line budget."""
    lines: list[str] = []
    for s in sentences:
        if lines and len(lines[-1]) + 1 + len(s) <= budget:
            lines[-1] += " " + s
        else:
            lines.append(s)
    return lines


class Yspahan(GamePlugin):
    """Yspahan by Sebastien Pauchon: dice tower, souks, supervisor and caravan."""

    name = "yspahan"
    title = "Yspahan"
    min_players = 2
    max_players = 4
    rules_version = "yspahan-2"
    example_move = "take camels"
    options = (
        Option(
            "must_place_all",
            DEFAULT_OPTIONS["must_place_all"],
            N_("deliveries must place every cube that legally fits (off: 'stop' ends placing early)"),
        ),
        Option(
            "caravanserai_card",
            DEFAULT_OPTIONS["caravanserai_card"],
            N_("the caravanserai also draws a card for a cube sent by the cube-to-caravan card"),
        ),
        Option(
            "reshuffle",
            DEFAULT_OPTIONS["reshuffle"],
            N_("shuffle the discards into a new pile when it runs out"),
        ),
        Option(
            "zero_move_sends",
            DEFAULT_OPTIONS["zero_move_sends"],
            N_("a supervisor move of 0 still sends the cubes beside him to the caravan"),
        ),
        Option(
            "turn_at_crossing",
            DEFAULT_OPTIONS["turn_at_crossing"],
            N_("the supervisor may turn into a side arm at the crossing"),
        ),
        Option(
            "first_player",
            DEFAULT_OPTIONS["first_player"],
            N_("who starts the first day: random, or the first seat"),
            ("random", "first"),
        ),
        Option(
            "combine_discounts",
            DEFAULT_OPTIONS["combine_discounts"],
            N_("build-without-camels and build-without-gold may be played together on one building"),
        ),
        Option(
            "hoist_optional",
            DEFAULT_OPTIONS["hoist_optional"],
            N_(
                "the hoist's extra cube may be left out, as the original rules allow (off: placed if it fits)"
            ),
        ),
    )
    rules_summary = RULES_SUMMARY + "\nOptions (/new yspahan name=value):\n" + options_text(options)
    command_help = COMMAND_HELP

    # --- life cycle ------------------------------------------------------------------------
    def setup(self, players: list[str], rng: random.Random, options: dict[str, Any]) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError("Yspahan needs 2 to 4 players")
        st = setup(players, rng, options)
        advance(st, None)
        return st

    def to_act(self, state: State) -> list[int]:
        who = actor(state)
        return [] if who < 0 else [who]

    def legal_commands(self, state: State, seat: int) -> list[str]:
        if actor(state) != seat:
            return []
        return [format_action(state, a) for a in legal(state)]

    def parse(self, state: State, seat: int, text: str) -> tuple[int, ...]:
        return parse_command(state, seat, text)

    def apply(self, state: State, seat: int, move: tuple[int, ...]) -> Outcome:
        space = named_space(move)
        move = tuple(move)
        if state.phase == P_END:
            raise MoveError(_("The game is over."))
        if actor(state) != seat or move not in legal(state):
            raise MoveError(explain(state, seat, move))
        ev = Outcome()
        step(state, move, ev, space)
        advance(state, ev)
        if state.phase != P_END:
            ev.prompt = _("Now: {s}").format(s=render.status(state))
            ev.public.append(ev.prompt)
        ev.public = pack(ev.public)
        return ev

    def is_move(self, text: str) -> bool:
        return looks_like_move(text)

    def command_in(self, state: State, seat: int, command: str, lang: str) -> str:
        return command_in(command, lang)

    def command_note(self, state: State, seat: int, command: str) -> str | None:
        """A supervisor's move with a ``+K``/``-K``: how far he goes and what it costs."""
        return move_note(state, seat, command)

    def undoable(self, state: State, seat: int, move: tuple[int, ...]) -> bool:
        """A step that draws, rolls or shows no card and keeps the same player in the same turn."""
        move = tuple(move)
        if actor(state) != seat or move not in legal(state) or move[0] in REVEALING:
            return False
        trial = state.clone()
        step(trial, move, None)
        advance(trial, None)
        return (
            actor(trial) == seat
            and (trial.week, trial.day, trial.turn) == (state.week, state.day, state.turn)
            and trial.rng.getstate() == state.rng.getstate()
            and trial.hands == state.hands
            and trial.pile == state.pile
        )

    # --- views ----------------------------------------------------------------------------
    def board(self, state: State) -> str:
        return render.board(state)

    def private_view(self, state: State, seat: int) -> str | None:
        return render.private_view(state, seat)

    def public_data(self, state: State) -> dict[str, Any]:
        return data.public_data(state)

    def terms(self) -> dict[str, str]:
        return data.terms()

    def private_data(self, state: State, seat: int) -> dict[str, Any] | None:
        return data.private_data(state, seat)

    def brief_moves(self, state: State, seat: int) -> str:
        return render.brief(state, seat)

    def breakdown(self, state: State) -> list[dict[str, Any]] | None:
        return breakdown.breakdown(state) if self.result(state) is not None else None

    def result(self, state: State) -> Result | None:
        if state.phase != P_END:
            return None
        scores = {p: float(state.score[p]) for p in range(state.n)}
        ranking: list[list[int]] = []
        for value in sorted(set(state.score), reverse=True):
            ranking.append([p for p in range(state.n) if state.score[p] == value])
        # the scores are the whole result: the table's "Game over" line says them, once
        return Result(scores=scores, ranking=ranking, winners=list(ranking[0]))

    # --- persistence ---------------------------------------------------------------------
    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> State:
        return State.from_json(data)

    # --- for the AI ------------------------------------------------------------------------
    def clone(self, state: State) -> State:
        return state.clone()

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """Re-deal the draw pile and the other hands (sizes kept); own hand and discards stay."""
        st = state.clone(random.Random(rng.getrandbits(64)))
        pool = list(st.pile)
        for p in range(st.n):
            if p != seat:
                pool.extend(st.hands[p])
        pool.sort()  # the re-deal depends on what the seat knows, never on the hidden order
        rng.shuffle(pool)
        i = 0
        for p in range(st.n):
            if p != seat:
                k = len(st.hands[p])
                st.hands[p] = pool[i : i + k]
                i += k
        st.pile = pool[i:]
        return st

    def redealer(self, state: State, seat: int) -> Callable[[random.Random], State]:
        """``determinize`` with the unseen cards pooled and sorted once for the position, and
        ``Random.shuffle``'s draws taken inline (the same numbers, without a call per card)."""
        pool = list(state.pile)
        for p in range(state.n):
            if p != seat:
                pool.extend(state.hands[p])
        pool.sort()
        others = [(p, len(state.hands[p])) for p in range(state.n) if p != seat]
        # Random.shuffle swaps position i with one drawn below i + 1, from the last position down
        swaps = [(i, (i + 1).bit_length()) for i in reversed(range(1, len(pool)))]

        def redeal(rng: random.Random) -> State:
            st = state.clone(random.Random(rng.getrandbits(64)))
            cards = pool[:]
            bits = rng.getrandbits
            for i, k in swaps:
                j = bits(k)
                while j > i:
                    j = bits(k)
                cards[i], cards[j] = cards[j], cards[i]
            at = 0
            for p, k in others:
                st.hands[p] = cards[at : at + k]
                at += k
            st.pile = cards[at:]
            return st

        return redeal

    def rollout(self, state: State, rng: random.Random) -> None:
        """Uniformly random legal actions on the compact path until the game ends."""
        rnd = rng.random
        while state.phase != P_END:
            acts = legal(state)
            step(state, acts[int(rnd() * len(acts))], None)

    # the AI's fast path and evaluation (see ai.py)
    def ai_actions(self, state: State, seat: int) -> list[tuple[int, ...]]:
        return ai.actions(state, seat)

    def ai_play(self, state: State, seat: int, action: Any) -> None:
        ai.play(state, action)

    def rollout_action(self, state: State, seat: int, rng: random.Random) -> tuple[int, ...]:
        """Uniformly random, as the default, without asking whose turn it is (``seat`` is)."""
        acts = legal(state)
        return acts[int(rng.random() * len(acts))]

    def rollout_plies(self, state: State, rng: random.Random, plies: int) -> None:
        """The default's plies and draws in one loop over the rules (Yspahan has no horizon)."""
        ai.rollout_plies(state, rng, plies)

    def ai_command(self, state: State, seat: int, action: Any) -> str:
        return ai.command(state, action)

    def evaluate(self, state: State, seat: int) -> float:
        return ai.evaluate(state, seat)

    def evaluate_all(self, state: State, seats: int) -> list[float]:
        return ai.chances(state)

    def bench(self, seconds: float) -> list[tuple[str, float]]:
        """Random play at 2, 3 and 4 players on the compact path, plus the text path for comparison."""
        rng = random.Random(1)
        decisions = games = 0
        start = time.perf_counter()
        deadline = start + seconds * 0.75
        n = 2
        while time.perf_counter() < deadline:
            st = self.setup([f"p{i + 1}" for i in range(n)], random.Random(rng.random()), {})
            rnd = rng.random
            while st.phase != P_END:
                acts = legal(st)
                if len(acts) > 1:
                    decisions += 1
                step(st, acts[int(rnd() * len(acts))], None)
            games += 1
            n = 2 + games % 3
        elapsed = time.perf_counter() - start
        text_decisions = 0
        t0 = time.perf_counter()
        text_deadline = t0 + seconds * 0.25
        while time.perf_counter() < text_deadline:
            st = self.setup(["a", "b", "c"], random.Random(rng.random()), {})
            while st.phase != P_END and time.perf_counter() < text_deadline:
                seat = actor(st)
                commands = self.legal_commands(st, seat)
                command = commands[int(rng.random() * len(commands))]
                self.apply(st, seat, self.parse(st, seat, command))
                text_decisions += 1
        text_elapsed = time.perf_counter() - t0
        return [
            ("decisions/s", decisions / elapsed),
            ("games/s", games / elapsed),
            ("text decisions/s (legal_commands+parse+apply)", text_decisions / max(text_elapsed, 1e-9)),
        ]
