"""The Jaipur plugin: the contract of ``bazaarbot.plugin`` on top of the compact engine."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from bazaarbot.i18n import _, current_language
from bazaarbot.plugin import GamePlugin, MoveError, Option, Outcome, Result

from . import ai, breakdown, data, hints, random_play, render, rules
from . import parse as parsing
from . import state as st
from .bench import run as bench_run
from .cards import CAMEL, GOODS_TOKENS, bonus_label, name
from .rules import CAMELS, EXCHANGE, SELL, TAKE, Action
from .state import JaipurState
from .words import command_in


class JaipurGame(GamePlugin):
    """Jaipur for two: trade goods, sell for tokens, first to two Seals of Excellence."""

    name: ClassVar[str] = "jaipur"
    title: ClassVar[str] = "Jaipur"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    rules_version: ClassVar[str] = "jaipur-1"
    example_move: ClassVar[str] = "take 2 spice"
    options: ClassVar[tuple[Option, ...]] = ()
    rules_summary: ClassVar[str] = (
        "Jaipur (2 players): on your turn take ONE good from the market, take ALL its camels, "
        "exchange 2+ goods for as many of your cards/camels, or sell cards of one good type.\n"
        "Hand limit 7 goods (camels don't count). Diamonds, gold and silver sell two at a time at least. "
        "Goods tokens fall in value; selling 3, 4 or 5+ cards earns a hidden bonus token.\n"
        "A round ends when three goods-token piles are empty or the deck cannot refill the market. "
        "The bigger herd gets the camel token (5). Most rupees wins a seal (ties: more bonus tokens, "
        "then more goods tokens); first to 2 seals wins. The round's loser starts the next."
    )
    command_help: ClassVar[str] = (
        "take diamond -- take one good (the market refills from the deck)\n"
        "take camels -- take every camel in the market (or just: camels)\n"
        "take 2 spice give 2 camels / take spice leather give cloth camel -- exchange\n"
        "take 2 spice -- exchange paid with camels when you have enough\n"
        "exchange 2 camels for 2 spice -- the same, as the English says: give the first, get the second\n"
        "sell 3 cloth -- sell cards of one type; sell cloth sells all your cloth\n"
        "Goods: diamond gold silver cloth spice leather (also Diamanten/diamantes, Gold/oro, "
        "Silber/plata, Tuch/tela, Gewuerze/especias, Leder/cuero, Kamele/camellos)"
    )

    # --- life cycle -------------------------------------------------------
    def setup(self, players: list[str], rng: random.Random, options: dict[str, Any]) -> JaipurState:
        """Deal round 1; the starting player is drawn by lot from ``rng``."""
        if len(players) != 2:
            raise ValueError("Jaipur is a game for exactly two players")
        return st.new_match(players, rng)

    def to_act(self, state: JaipurState) -> list[int]:
        return [] if state.over else [state.turn]

    def legal_commands(self, state: JaipurState, seat: int) -> list[str]:
        if state.over or seat != state.turn:
            return []
        return [render.format_action(a) for a in rules.legal_actions(state)]

    def is_move(self, text: str) -> bool:
        return parsing.is_move(text)

    def command_in(self, state: JaipurState, seat: int, command: str, lang: str) -> str:
        return command_in(command, lang)

    def parse(self, state: JaipurState, seat: int, text: str) -> Action:
        return parsing.parse(state, seat, text)

    def apply(self, state: JaipurState, seat: int, move: Any) -> Outcome:
        """Check, play, and describe a move; score and redeal when it ends the round."""
        if not isinstance(move, tuple) or not move or move[0] not in (TAKE, CAMELS, EXCHANGE, SELL):
            raise MoveError(_("That is not a Jaipur move."))
        action: Action = move
        rules.check_action(state, seat, action)
        player = state.players[seat]
        top = state.deck[-5:]
        deck_before = len(state.deck)
        camels = state.market[CAMEL]
        taken_before = state.taken[:]
        bonus_before = [len(pile) for pile in state.bonus_won[seat]]
        reason = rules.apply_action(state, action)
        drawn = top[::-1][: deck_before - len(state.deck)]
        tokens: list[int] = []
        bonus: int | None = None
        private: dict[int, list[str]] = {}
        if action[0] == SELL:
            good = action[1]
            tokens = list(GOODS_TOKENS[good][taken_before[good] : state.taken[good]])
            for i in range(3):
                if len(state.bonus_won[seat][i]) > bonus_before[i]:
                    bonus = i
                    value = state.bonus_won[seat][i][-1]
                    private[seat] = [
                        _("Your {label} bonus token for the {good} is worth {value}.").format(
                            label=bonus_label(i), good=name(good, 2), value=value
                        )
                    ]
        public = [render.action_line(player, action, drawn, tokens, bonus, camels)]
        prompt = ""
        if reason:
            summary = rules.finish_round(state, reason)
            public += render.round_end_lines(state, summary)
        else:
            # the market after the move belongs to the next player's prompt: said once, with the line
            # of whoever reads it (an AI's move line carries it to the person next)
            prompt = render.market_line(state) + " " + render.turn_line(state)
            public.append(prompt)
        return Outcome(public=public, private=private, prompt=prompt)

    # --- views --------------------------------------------------------------
    def board(self, state: JaipurState) -> str:
        return render.board(state)

    def brief_board(self, state: JaipurState) -> str:
        """The market and whose turn, the line every move ends with."""
        return render.market_line(state) + " " + render.turn_line(state)

    def private_view(self, state: JaipurState, seat: int) -> str | None:
        return render.private_view(state, seat)

    def public_data(self, state: JaipurState) -> dict[str, Any]:
        return data.public_data(state)

    def terms(self) -> dict[str, str]:
        return data.terms()

    def private_data(self, state: JaipurState, seat: int) -> dict[str, Any] | None:
        return data.private_data(state, seat)

    def breakdown(self, state: JaipurState) -> list[dict[str, Any]] | None:
        return breakdown.breakdown(state) if self.result(state) is not None else None

    def result(self, state: JaipurState) -> Result | None:
        """None until a player holds 2 seals; then seals per seat and the rounds in the detail."""
        if not state.over:
            return None
        winner = 0 if state.seals[0] > state.seals[1] else 1
        return Result(
            scores={0: state.seals[0], 1: state.seals[1]},
            ranking=[[winner], [1 - winner]],
            winners=[winner],
            detail=render.match_detail(state),
        )

    def brief_moves(self, state: JaipurState, seat: int) -> str:
        """``take: diamond, spice | take camels | exchange: 12 ways, e.g. ... | sell: ...``."""
        if state.over or seat != state.turn:
            return _("(no moves)")
        actions = rules.legal_actions(state)
        takes = [name(a[1]) for a in actions if a[0] == TAKE]
        parts = []
        if takes:
            parts.append(_("take one: {goods}").format(goods=", ".join(takes)))
        if any(a[0] == CAMELS for a in actions):
            parts.append(_("take camels ({n})").format(n=state.market[CAMEL]))
        exchanges = [a for a in actions if a[0] == EXCHANGE]
        if exchanges:
            parts.append(
                _("exchange: {n} ways, e.g. '{example}'").format(
                    n=len(exchanges),
                    example=command_in(render.format_action(exchanges[0]), current_language()),
                )
            )
        sells: dict[int, list[int]] = {}
        for a in actions:
            if a[0] == SELL:
                sells.setdefault(a[1], []).append(a[2])
        if sells:
            shown = [
                f"{ns[0]}-{ns[-1]} {name(g, 2)}" if len(ns) > 1 else f"{ns[0]} {name(g, ns[0])}"
                for g, ns in sells.items()
            ]
            parts.append(_("sell: {goods}").format(goods=", ".join(shown)))
        return " | ".join(parts) + _(" (all: /moves all)")

    # --- persistence --------------------------------------------------------
    def to_json(self, state: JaipurState) -> dict[str, Any]:
        return st.to_json(state)

    def from_json(self, data: dict[str, Any]) -> JaipurState:
        return st.from_json(data)

    # --- for the AI -----------------------------------------------------------
    def clone(self, state: JaipurState) -> JaipurState:
        return st.clone(state)

    def determinize(self, state: JaipurState, seat: int, rng: random.Random) -> JaipurState:
        """Re-deal what ``seat`` cannot see: the opponent's hand, deck order, hidden bonus values.

        Goods the seat saw the opponent take from the market (and not seen leave
        since) stay in the opponent's hand; only the rest of it is re-dealt.
        """
        # the future (next rounds' deals) draws from the searcher's generator: unknown to everybody
        new = st.clone(state, rng)
        if new.over:
            return new
        other = 1 - seat
        hand = new.hands[other]
        known = new.known[other]
        # cards seen going into the opponent's hand stay there; the rest is re-dealt
        size = sum(hand) - sum(known)
        # sorted first, so the re-deal depends on what the seat knows, never on the hidden order
        pool = sorted(new.deck + [g for g in range(6) for _ in range(hand[g] - known[g])])
        st.shuffle(pool, rng)
        new_hand = known[:]
        deck: list[int] = []
        for card in pool:
            if size and card < 6:
                new_hand[card] += 1
                size -= 1
            else:
                deck.append(card)
        new.hands[other] = new_hand
        new.deck = deck
        for i in range(3):
            won = new.bonus_won[other][i]
            unknown = sorted(new.bonus[i] + won)
            st.shuffle(unknown, rng)
            new.bonus_won[other][i] = unknown[: len(won)]
            new.bonus[i] = unknown[len(won) :]
        return new

    def rollout(self, state: JaipurState, rng: random.Random) -> None:
        """Random legal actions through the fast internal path until the match ends."""
        random_play.rollout(state, rng)

    # the AI's fast path and game knowledge (see ai.py)
    def ai_actions(self, state: JaipurState, seat: int) -> list[Action]:
        return ai.actions(state, seat)

    def ai_play(self, state: JaipurState, seat: int, action: Action) -> None:
        ai.play(state, action)

    def ai_command(self, state: JaipurState, seat: int, action: Action) -> str:
        return ai.command(action)

    def evaluate(self, state: JaipurState, seat: int) -> float:
        return ai.evaluate(state, seat)

    def horizon(self, state: JaipurState) -> int:
        return ai.horizon(state)

    def priors(self, state: JaipurState, seat: int, actions: list[Action]) -> list[float]:
        return ai.priors(state, seat, actions)

    def rollout_action(self, state: JaipurState, seat: int, rng: random.Random) -> Action:
        return ai.rollout_action(state, rng)

    def hint_reason(self, state: JaipurState, seat: int, action: Action) -> str | None:
        return hints.hint_reason(state, seat, action)

    def bench(self, seconds: float) -> list[tuple[str, float]]:
        return bench_run(self, seconds)
