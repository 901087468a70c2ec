"""The Bazaar plugin: the contract of bazaarbot.plugin wired to the rules, parser and views."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bazaarbot.i18n import N_, _, ngettext
from bazaarbot.plugin import GamePlugin, MoveError, Option, Outcome, Result, options_text

from . import breakdown, data, next_turn, render, rules
from . import colours as col
from . import parse as parsing
from .bench import bench_figures, play_policy_move
from .bench import policy_move as play_policy_choice
from .deck import ALL_COMBOS, DECK_SIZE, DeckCompletion, deck_problems, is_valuable
from .state import BUY, OVER, BazaarState
from .words import command_in

#: tries at re-drawing the hidden combinations in ``determinize`` before falling back to a reshuffle
DETERMINIZE_TRIES = 200


class BazaarGame(GamePlugin):
    """Sid Sackson's Bazaar as the BrettspielWelt chat game played it."""

    name = "bazaar"
    title = "Bazaar (Sid Sackson)"
    min_players = 1
    max_players = 6
    rules_version = "bazaar-2"
    example_move = "trade 3 back"
    options = (
        Option(
            "table",
            "generated",
            N_("exchange table: generated anew each game, or the fixed test table"),
            ("generated", "fixed"),
        ),
        Option(
            "quality_gate", False, N_("only accept generated tables where every five-of-a-kind is reachable")
        ),
        Option("hand_limit", False, N_("classic rule: at most 10 stones at the end of a turn")),
        Option("bank", False, N_("classic rule: a finite bank of 20 stones per colour")),
        Option(
            "auto_pass", True, N_("the turn passes by itself when nothing can be bought after the action")
        ),
        Option(
            "leavers",
            "ai",
            N_(
                "a player who leaves: an AI plays on for them (ai), or the seat is skipped and its stones "
                "leave the game (skip, the rules' §9.9)"
            ),
            ("ai", "skip"),
        ),
    )
    rules_summary = (
        "Collect stones and buy combinations of five for points. Each turn: draw a stone (1 in 6 is a joker, "
        "any colour) or make one trade from the exchange table, either direction; then you may buy the top "
        "combination of one of 4 fields with exactly those 5 stones (the turn ends); else pass. "
        "First move is a draw.\n"
        "Points by stones left after buying (0/1/2/3+): normal 5/3/2/1, valuable (4+ of one colour) 8/5/3/2. "
        "Once a field is sold out, later purchases score 8/5/3/2 and 12/8/5/3.\n"
        "The game ends when all 24 combinations are sold; most points wins, ties share the win.\n"
        "With bank=on, a player who can neither draw nor trade buys nothing and passes. Blocked round: "
        "when every player in turn has had to pass that way, a whole round, the game ends there.\n"
        "Options (/new bazaar name=value):\n" + options_text(options)
    )
    command_help = (
        "draw (zieh) - take a stone; a joker asks for a colour: joker red (or just: red)\n"
        "trade 3 (tausch 3) - give the left side of row 3, get the right; trade 3 back - the other way\n"
        "buy 2 (kauf 2) - buy the top of field 2 after your draw or trade; pass (weiter) - end your turn\n"
        "colours: blue/blau, green/gruen/gr, red/rot, white/weiss, yellow/gelb/ge (also b, r, w, y)\n"
        "discard red - give back a stone (only at a table with hand_limit=on)"
    )

    # --- life cycle ----------------------------------------------------------
    def setup(self, players: list[str], rng: random.Random, options: dict[str, Any]) -> BazaarState:
        values = {o.name: options.get(o.name, o.default) for o in self.options}
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError("Bazaar takes 1 to 6 players")
        return rules.new_game(
            players,
            rng,
            table=values["table"],
            quality_gate=bool(values["quality_gate"]),
            hand_limit=bool(values["hand_limit"]),
            bank=bool(values["bank"]),
            auto_pass=bool(values["auto_pass"]),
        )

    def to_act(self, state: BazaarState) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def legal_commands(self, state: BazaarState, seat: int) -> list[str]:
        return [command_text(m) for m in rules.legal_moves(state, seat)]

    def is_move(self, text: str) -> bool:
        return parsing.is_move(text)

    def command_in(self, state: BazaarState, seat: int, command: str, lang: str) -> str:
        return command_in(command, lang)

    def undoable(self, state: BazaarState, seat: int, move: tuple) -> bool:
        """A trade, a joker's colour or a stone given back, when the same player is still to act this turn.

        Draws roll the die and purchases turn up the next combination, so they are final.
        """
        if move[0] not in ("trade", "joker", "discard") or rules.refusal(state, seat, move) is not None:
            return False
        trial = state.clone()
        rules.apply_move(trial, move)
        _auto_passes(trial)
        return (
            trial.phase != OVER
            and trial.turn == seat
            and trial.turn_number == state.turn_number
            and trial.rng.getstate() == state.rng.getstate()
        )

    def parse(self, state: BazaarState, seat: int, text: str) -> tuple:
        return parsing.parse(state, seat, text)

    def apply(self, state: BazaarState, seat: int, move: tuple) -> Outcome:
        problem = rules.refusal(state, seat, move)
        if problem is not None:
            raise MoveError(problem)
        stuck_before = rules.stuck(state)
        empty_before = state.high_rates()
        produced = rules.apply_move(state, move)
        # what the move did and the turns it passed are one line: a draw that ends the turn reads at once
        said = [_describe(state, seat, move, produced, stuck_before, empty_before), *_auto_passes(state)]
        lines = [" ".join(line for line in said if line)]
        prompt = ""
        if state.phase == OVER:
            if state.blocked:
                lines.append(_("Nobody could draw or trade for a whole round: the game ends here."))
            else:
                lines.append(_("All 24 combinations are sold."))
        else:
            prompt = render.status(state)
            lines.append(prompt)
        return Outcome(public=[line for line in lines if line], prompt=prompt)

    # --- views --------------------------------------------------------------
    def board(self, state: BazaarState) -> str:
        return render.board(state)

    def private_view(self, state: BazaarState, seat: int) -> str | None:
        return None

    def public_data(self, state: BazaarState) -> dict[str, Any]:
        return data.public_data(state)

    def terms(self) -> dict[str, str]:
        return data.terms()

    def private_data(self, state: BazaarState, seat: int) -> dict[str, Any] | None:
        return None

    def brief_moves(self, state: BazaarState, seat: int) -> str:
        return render.brief(state, seat)

    def breakdown(self, state: BazaarState) -> list[dict[str, Any]] | None:
        return breakdown.breakdown(state) if self.result(state) is not None else None

    def result(self, state: BazaarState) -> Result | None:
        if state.phase != OVER:
            return None
        scores = {seat: float(state.scores[seat]) for seat in range(state.n)}
        ranking: list[list[int]] = []
        for value in sorted(set(state.scores), reverse=True):
            ranking.append([seat for seat in range(state.n) if state.scores[seat] == value])
        # the scores and the winners (several in a tie) are the whole result: the table's
        # "Game over" line says them, once
        return Result(scores=scores, ranking=ranking, winners=list(ranking[0]))

    def remove_seat(self, state: BazaarState, seat: int) -> Outcome | None:
        """§9.9: the leaver's seat is skipped from now on and their stones leave the game."""
        if state.phase == OVER or state.left[seat]:
            return None
        stones = sum(state.hands[seat])
        rules.remove_seat(state, seat)
        line = ngettext(
            "{player} leaves the game: the seat is skipped from now on, and its {n} stone leaves the game.",
            "{player} leaves the game: the seat is skipped from now on, and its {n} stones leave the game.",
            stones,
        ).format(player=state.players[seat], n=stones)
        public = [line]
        if state.phase != OVER:
            public.append(_("{player} to act.").format(player=state.players[state.turn]))
        return Outcome(public=public)

    # --- persistence --------------------------------------------------------
    def to_json(self, state: BazaarState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> BazaarState:
        return BazaarState.from_json(data)

    # --- for the AI -----------------------------------------------------------
    def clone(self, state: BazaarState) -> BazaarState:
        return state.clone()

    def determinize(self, state: BazaarState, seat: int, rng: random.Random) -> BazaarState:
        """Re-draw the face-down combinations from those nobody has seen, and re-seed future draws."""
        return self.redealer(state, seat)(rng)

    def redealer(self, state: BazaarState, seat: int) -> Callable[[random.Random], BazaarState]:
        """``determinize`` with what everybody has seen (bought and face-up combinations), the
        unseen pool and the deck check worked out once for the position."""
        seen = [c for p in state.purchases for (_f, c, _l, _v, _p) in p] + [f[-1] for f in state.fields if f]
        slots = [max(0, len(f) - 1) for f in state.fields]
        hidden_n = sum(slots)
        seen_set = set(seen)
        pool = [c for c in ALL_COMBOS if c not in seen_set] if hidden_n else []
        completes: Callable[[list[Any]], bool]
        if len(seen_set) == len(seen) and len(seen) + hidden_n == DECK_SIZE:
            completes = DeckCompletion(seen).accepts
        else:  # not a deck the rules deal (a hand-made test position): the plain check
            completes = lambda more: not deck_problems(seen + more)  # noqa: E731
        filled = [(f, n) for f, n in enumerate(slots) if n]

        def redeal(rng: random.Random) -> BazaarState:
            new = state.clone(random.Random(rng.getrandbits(64)))
            if not hidden_n:
                return new
            hidden = None
            for _i in range(DETERMINIZE_TRIES):
                candidate = rng.sample(pool, hidden_n)
                if completes(candidate):
                    hidden = candidate
                    break
            if hidden is None:  # constraints too tight to re-draw: reshuffle the actual hidden ones
                hidden = sorted(c for f in new.fields for c in f[:-1])
                rng.shuffle(hidden)
            at = 0
            for f, n in filled:
                new.fields[f] = [*hidden[at : at + n], new.fields[f][-1]]
                at += n
            return new

        return redeal

    def rollout(self, state: BazaarState, rng: random.Random) -> None:
        """Random play that always buys when it can, so the game ends."""
        while state.phase != OVER:
            play_policy_move(state, rng)

    # the AI's fast path, evaluation and rollout policy (see ai.py)
    def ai_actions(self, state: BazaarState, seat: int) -> list[tuple]:
        return rules.legal_moves(state, seat)

    def ai_play(self, state: BazaarState, seat: int, action: tuple) -> None:
        rules.apply_move(state, action)

    def ai_command(self, state: BazaarState, seat: int, action: tuple) -> str:
        return command_text(action)

    def hint_reason(self, state: BazaarState, seat: int, action: tuple) -> str | None:
        from .hints import hint_reason

        return hint_reason(self, state, seat, action)

    def evaluate(self, state: BazaarState, seat: int) -> float:
        from . import ai

        return ai.evaluate(state, seat)

    def evaluate_all(self, state: BazaarState, seats: int) -> list[float]:
        from . import ai

        return ai.chances(state)

    def rollout_action(self, state: BazaarState, seat: int, rng: random.Random) -> tuple:
        return play_policy_choice(state, rng)

    def rollout_plies(self, state: BazaarState, rng: random.Random, plies: int) -> None:
        """The default's plies and draws in one loop over the rules (Bazaar has no horizon)."""
        for _ply in range(plies):
            if state.phase == OVER:
                return
            play_policy_move(state, rng)

    def rollout_for(self, state: BazaarState, seat: int, rng: random.Random, plies: int) -> None:
        """From five seats on: to ``seat``'s next turn and through it, planned (see next_turn.py)."""
        if state.n >= next_turn.NEXT_TURN_SEATS:
            next_turn.rollout(state, seat, rng)
        else:
            self.rollout_plies(state, rng, plies)

    def bench(self, seconds: float) -> list[tuple[str, float]]:
        return bench_figures(self, seconds)


def _auto_passes(state: BazaarState) -> list[str]:
    """With ``auto_pass``, end every turn that has only 'pass' left, saying so; the lines for the channel."""
    lines: list[str] = []
    while state.auto_pass and state.phase != OVER and rules.must_pass(state):
        who = state.players[state.turn]
        if state.phase == BUY:
            lines.append(_("{who} can buy nothing, so the turn passes.").format(who=who))
        else:
            lines.append(_("{who} can neither draw nor trade and passes.").format(who=who))
        rules.apply_move(state, ("pass",))
    return lines


def command_text(move: tuple) -> str:
    """A move spelled exactly as a player types it."""
    kind = move[0]
    if kind == "joker":
        return f"joker {col.NAMES[move[1]]}"
    if kind == "trade":
        return f"trade {render.trade_word(move[1], move[2])}"
    if kind == "buy":
        return f"buy {move[1] + 1}"
    if kind == "discard":
        return "discard " + col.spelled(move[1])
    return kind


def _describe(
    s: BazaarState, seat: int, move: tuple, produced: Any, stuck_before: bool, empty_before: bool
) -> str:
    """One line saying what the move did."""
    who = s.players[seat]
    kind = move[0]
    if kind == "draw":
        if produced == rules.JOKER_FACE:
            return _("{who} draws a joker.").format(who=who)
        return _("{who} draws {colour}.").format(who=who, colour=col.name(produced))
    if kind == "joker":
        return _("{who} takes {colour} for the joker.").format(who=who, colour=col.name(move[1]))
    if kind == "trade":
        give, get = rules.trade_sides(s, move[1], move[2])
        return _("{who} trades row {row}: gives {give}, gets {get}.").format(
            who=who, row=move[1] + 1, give=render.group(give), get=render.group(get)
        )
    if kind == "buy":
        leftover, level, points = produced
        field = move[1]
        combo = s.purchases[seat][-1][1]
        kind_text = _("valuable") if is_valuable(combo) else _("normal")
        rate = _("higher prices") if empty_before else _("normal prices")
        kept = ngettext("keeping {n} stone", "keeping {n} stones", leftover).format(n=leftover)
        scored = ngettext("{n} point", "{n} points", points).format(n=points)
        line = _("{who} buys field {field} ({combo}) {kept}: {scored} ({kind}, {rate}).").format(
            who=who,
            field=field + 1,
            combo=render.group(combo),
            kept=kept,
            scored=scored,
            kind=kind_text,
            rate=rate,
        )
        stack = s.fields[field]
        if stack:
            line += " " + _("Field {field} now shows {combo} ({n} left).").format(
                field=field + 1, combo=render.combo_text(stack[-1]), n=len(stack)
            )
        else:
            line += " " + _("Field {field} is sold out.").format(field=field + 1)
            if not empty_before and s.phase != OVER:
                line += " " + _("From now on every purchase scores the higher prices.")
        return line
    if kind == "pass":
        if stuck_before:
            return _("{who} can neither draw nor trade and passes.").format(who=who)
        return _("{who} passes.").format(who=who)
    if kind == "discard":
        return _("{who} gives back {stones}.").format(who=who, stones=render.group(move[1]))
    return ""
