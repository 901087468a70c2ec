"""Player-facing text: canonical commands, the public board, private views, event lines.

Everything here that goes to the channel is computed from public information
only (market, deck size, token piles, hand sizes, herds, goods tokens, bonus
token counts, seals); hand contents and bonus values appear only in the
private view and, once a round is over, in its public summary.
"""

from __future__ import annotations

import functools
from typing import Any

from bazaarbot.i18n import _, joined_text, ngettext, per_language

from .cards import (
    CAMEL,
    GOODS_TOKENS,
    bonus_label,
    camels_text,
    cards_text,
    command_counted,
    command_name,
    counted,
    describe_counts,
    name,
)
from .rules import CAMELS, EXCHANGE, SELL, TAKE, Action
from .state import JaipurState

# --- commands -------------------------------------------------------------------


def _spell(counts: tuple[int, ...] | list[int]) -> str:
    """Cards in a command: ``2 spice leather``, ``cloth camel``."""
    return " ".join(command_counted(t, c) for t, c in enumerate(counts) if c)


@functools.lru_cache(maxsize=8192)
def format_action(action: Action) -> str:
    """The one canonical way to type an action (what ``/moves all`` lists); the same few thousand
    actions come up again and again, so each is spelled once."""
    kind = action[0]
    if kind == TAKE:
        return f"take {command_name(action[1])}"
    if kind == CAMELS:
        return "take camels"
    if kind == SELL:
        return f"sell {action[2]} {command_name(action[1], action[2])}"
    return f"take {_spell(action[1])} give {_spell(action[2])}"


# --- public views ---------------------------------------------------------------


def tokens_left(state: JaipurState) -> str:
    """Remaining goods-token values per pile (public: the piles are laid out face up)."""
    parts = []
    for g in range(6):
        left = GOODS_TOKENS[g][state.taken[g] :]
        parts.append(f"{name(g)} " + (" ".join(map(str, left)) if left else _("none")))
    return "; ".join(parts)


def bonus_counts(state: JaipurState, seat: int) -> str:
    """How many bonus tokens of each size a seat holds (never their values)."""
    won = state.bonus_won[seat]
    parts = [f"{len(won[i])}x {bonus_label(i)}" for i in range(3) if won[i]]
    return ", ".join(parts) if parts else _("none")


def rupees_text(n: int) -> str:
    """``1 rupee`` / ``5 rupees``."""
    return ngettext("{n} rupee", "{n} rupees", n).format(n=n)


def player_line(state: JaipurState, seat: int) -> str:
    """One seat's public standing."""
    return _(
        "{player}: {cards} in hand, {herd}, goods tokens {points} ({count}), "
        "bonus tokens: {bonus}, seals {seals}."
    ).format(
        player=state.players[seat],
        cards=cards_text(sum(state.hands[seat])),
        herd=camels_text(state.herds[seat]),
        points=rupees_text(state.goods_points[seat]),
        count=ngettext("{n} token", "{n} tokens", state.goods_count[seat]).format(n=state.goods_count[seat]),
        bonus=bonus_counts(state, seat),
        seals=state.seals[seat],
    )


def market_line(state: JaipurState) -> str:
    """The market and the deck size."""
    return _("Market: {market}. Deck: {deck}.").format(
        market=describe_counts(state.market), deck=cards_text(len(state.deck))
    )


def turn_line(state: JaipurState) -> str:
    """Whose turn it is and what they decide, in one short line."""
    if state.over:
        return _("The match is over.")
    seat = state.turn
    return _("{player} to play: take, exchange or sell ({cards}, {herd}).").format(
        player=state.players[seat],
        cards=cards_text(sum(state.hands[seat])),
        herd=camels_text(state.herds[seat]),
    )


def board(state: JaipurState) -> str:
    """The public board in a few lines."""
    piles = ", ".join(f"{bonus_label(i)} {len(state.bonus[i])}" for i in range(3))
    lines = [
        _("Jaipur, round {n}. Seals: {seals}.").format(n=state.round_no, seals=seals_text(state)),
        market_line(state) + " " + _("Bonus tokens left: {piles}.").format(piles=piles),
        _("Goods tokens left: {tokens}.").format(tokens=tokens_left(state)),
        player_line(state, 0),
        player_line(state, 1),
        turn_line(state),
    ]
    if state.over:
        lines[1:3] = [_("Last round: {summary}").format(summary=round_result_text(state, state.rounds[-1]))]
    return "\n".join(lines)


def seals_text(state: JaipurState) -> str:
    """``alice 1, bob 0``."""
    return ", ".join(f"{state.players[s]} {state.seals[s]}" for s in (0, 1))


# --- private view ---------------------------------------------------------------


def private_view(state: JaipurState, seat: int) -> str:
    """A seat's hand (goods sorted, with counts), herd and own bonus token values."""
    won = state.bonus_won[seat]
    return _private_view(
        tuple(state.hands[seat]), state.herds[seat], state.goods_points[seat], tuple(map(tuple, won))
    )


@per_language
def _private_view(hand: tuple[int, ...], herd: int, points: int, won: tuple[tuple[int, ...], ...]) -> str:
    """``private_view`` of these holdings, made once per language and holdings: after every move the
    table builds each seat's view to see whose changed, and most seats' holdings did not."""
    values = [f"{bonus_label(i)} {v}" for i in range(3) for v in won[i]]
    total = sum(sum(pile) for pile in won)
    bonus = (
        _("{values} ({total})").format(values=", ".join(values), total=rupees_text(total))
        if values
        else _("none")
    )
    return _(
        "Your hand ({n}/7): {hand}. Herd: {herd}. Goods tokens: {points}. Your bonus tokens: {bonus}."
    ).format(
        n=sum(hand),
        hand=describe_counts(hand, _("empty")),
        herd=camels_text(herd),
        points=rupees_text(points),
        bonus=bonus,
    )


# --- events ---------------------------------------------------------------------


def action_line(
    player: str, action: Action, drawn: list[int], tokens: list[int], bonus: int | None, camels: int = 0
) -> str:
    """What a seat did, in public terms (a bonus token is named by size, never value)."""
    kind = action[0]
    if kind == TAKE:
        line = _("{player} takes {good} from the market").format(player=player, good=name(action[1]))
    elif kind == CAMELS:
        line = _("{player} takes {camels}").format(player=player, camels=counted(CAMEL, camels))
    elif kind == EXCHANGE:
        return _("{player} takes {take} and gives {give}.").format(
            player=player, take=describe_counts(action[1]), give=describe_counts(action[2])
        )
    else:
        good, n = action[1], action[2]
        if tokens:
            earned = " + ".join(map(str, tokens))
            if len(tokens) > 1:
                earned += f" = {sum(tokens)}"
            paid = ngettext("for {earned} rupee", "for {earned} rupees", sum(tokens)).format(earned=earned)
            if len(tokens) < n:
                paid += _(" (the pile had only {k} left)").format(k=len(tokens))
        else:
            paid = _("for no goods token (the pile is empty)")
        line = _("{player} sells {cards} {paid}").format(player=player, cards=counted(good, n), paid=paid)
        if bonus is not None:
            line += _(" and a {label} bonus token").format(label=bonus_label(bonus))
        elif n >= 3:
            line += _(" (that bonus pile is empty: no bonus)")
        return line + "."
    if drawn:
        line += _("; the market gets {cards}").format(cards=describe_counts(_count(drawn)))
    return line + "."


def _count(cards: list[int]) -> list[int]:
    counts = [0] * 7
    for card in cards:
        counts[card] += 1
    return counts


def decided_by_text(key: str) -> str:
    """The translated name of what decided a round (the summary stores a fixed key)."""
    if key == "bonus tokens":
        return _("bonus tokens")
    if key == "goods tokens":
        return _("goods tokens")
    if key == "rupees":
        return _("rupees")
    return _("nothing (drawn)")


class RoundSummary:
    """A finished round's summary (it never changes), hashable by what it holds: a key of the texts kept."""

    __slots__ = ("data", "_key")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._key = repr(data)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundSummary) and other._key == self._key


def round_result_text(state: JaipurState, summary: dict[str, Any]) -> str:
    """The revealed scores of a finished round and how it was decided.

    Every view after a round shows it, so it is built once per language and player names.
    """
    return _round_result(tuple(state.players), RoundSummary(summary))


@per_language
def _round_result(players: tuple[str, ...], round_summary: RoundSummary) -> str:
    summary = round_summary.data
    parts = []
    for seat in (0, 1):
        values = [v for pile in summary["bonus"][seat] for v in pile]
        text = _("{player} goods {goods}").format(player=players[seat], goods=summary["goods_points"][seat])
        text += (
            _(" + bonus {values}").format(values="+".join(map(str, values))) if values else _(" + no bonus")
        )
        if summary["camel_token"] == seat:
            text += _(" + camel token 5")
        text += _(" = {total}").format(total=summary["totals"][seat])
        parts.append(text)
    line = "; ".join(parts) + ". "
    winner = summary["winner"]
    if winner is None:
        line += _("Drawn round: equal rupees, bonus tokens and goods tokens; no seal.")
    elif summary["decided_by"] == "rupees":
        line += _("{player} wins round {n} (more rupees).").format(player=players[winner], n=summary["round"])
    else:
        key = "bonus_count" if summary["decided_by"] == "bonus tokens" else "goods_count"
        line += _("Tied on rupees; {player} wins round {n} on more {what} ({a} to {b}).").format(
            player=players[winner],
            n=summary["round"],
            what=decided_by_text(summary["decided_by"]),
            a=summary[key][winner],
            b=summary[key][1 - winner],
        )
    return line


def round_end_lines(state: JaipurState, summary: dict[str, Any]) -> list[str]:
    """Announce a finished round: why it ended, every bonus value, camel token, totals, what's next."""
    players = state.players
    why = (
        _("three goods piles are empty")
        if summary["reason"] == "piles"
        else _("the deck cannot refill the market")
    )
    herds = summary["herds"]
    if summary["camel_token"] is None:
        camel = _("Herds {a}-{b}: nobody gets the camel token.").format(a=herds[0], b=herds[1])
    else:
        camel = _("Herds {a}-{b}: {player} gets the camel token (5).").format(
            a=herds[0], b=herds[1], player=players[summary["camel_token"]]
        )
    lines = [
        _("Round {n} is over: {why}. {camel}").format(n=summary["round"], why=why, camel=camel),
        round_result_text(state, summary) + " " + _("Seals: {seals}.").format(seals=seals_text(state)),
    ]
    if state.over:
        winner = summary["winner"]
        lines.append(_("{player} wins the match with 2 seals.").format(player=players[winner]))
        return lines
    if summary["winner"] is None:
        why_start = _("the drawn round was started by {player}").format(player=players[1 - state.starter])
    else:
        why_start = _("lost round {n}").format(n=summary["round"])
    lines.append(
        _("Round {n} is dealt automatically; {player} starts ({why}).").format(
            n=state.round_no, player=players[state.starter], why=why_start
        )
    )
    lines.append(market_line(state) + " " + turn_line(state))
    return lines


def match_detail(state: JaipurState) -> str:
    """Every round of the match in one line, for the final result."""
    players = state.players
    parts = []
    for summary in state.rounds:
        totals = summary["totals"]
        winner = summary["winner"]
        who = _("won by {player}").format(player=players[winner]) if winner is not None else _("drawn")
        how = (
            ""
            if summary["decided_by"] in ("rupees", "drawn")
            else _(" on {what}").format(what=decided_by_text(summary["decided_by"]))
        )
        parts.append(
            _("Round {n}: {a} {ta}-{tb} {b}, {who}{how}").format(
                n=summary["round"], a=players[0], ta=totals[0], tb=totals[1], b=players[1], who=who, how=how
            )
        )
    return joined_text(parts, "; ") + "."  # each round said again in its reader's language
