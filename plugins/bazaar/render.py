"""Plain-text views: short lines that read well in a proportional font (IRC, phones)."""

from __future__ import annotations

from collections.abc import Sequence

from bazaarbot.i18n import _, ngettext

from . import colours as col
from .deck import PER_FIELD, is_valuable
from .exchange import Row
from .rules import TOTAL_PURCHASES, buyable_fields, can_draw, excess, joker_colours, possible_trades, stuck
from .state import BUY, DISCARD, JOKER, OVER, BazaarState
from .words import said, w

#: keep every line of the board below this many characters (IRC allows about 400 bytes)
MAX_LINE = 250
#: the players' line is longer: six players and their stones still fit one IRC line
PLAYERS_LINE = 360


def group(counts: Sequence[int]) -> str:
    """Stones as "2 red+1 yellow"."""
    return col.stones(counts, "+")


def row_text(index: int, row: Row) -> str:
    left, right = row
    return f"{index + 1}) {group(left)} = {group(right)}"


def combo_text(combo: Sequence[int]) -> str:
    text = group(combo)
    return text + " " + _("VALUABLE") if is_valuable(combo) else text


def trade_word(row: int, back: bool) -> str:
    return f"{row + 1} back" if back else f"{row + 1}"


def rates(s: BazaarState) -> str:
    if s.high_rates():
        return _("higher prices (a field is sold out): normal 8/5/3/2, valuable 12/8/5/3")
    return _("normal prices (all fields stocked): normal 5/3/2/1, valuable 8/5/3/2")


def status(s: BazaarState) -> str:
    """Whose turn it is and what they may do now, in one line."""
    if s.phase == OVER:
        return _("The game is over.")
    seat = s.turn
    who = s.players[seat]
    if s.phase == JOKER:
        choices = "/".join(w(col.NAMES[c]) for c in joker_colours(s))
        return _("{who} drew a joker: choose its colour first (joker {choices}).").format(
            who=who, choices=choices
        )
    if s.phase == DISCARD:
        return _("{who} holds {held}, the limit is {limit}: give back {n} (discard <colour>).").format(
            who=who, held=stone_count(sum(s.hands[seat])), limit=s.hand_limit, n=excess(s, seat)
        )
    if stuck(s):
        return _("{who} cannot draw or trade (the bank is empty), so buys nothing: type pass.").format(
            who=who
        )
    if s.phase == BUY:
        fields = buyable_fields(s, seat)
        if fields:
            options = " / ".join(f"{w('buy')} {f + 1}" for f in fields)
            return _("{who}: {options}, or pass.").format(who=who, options=options)
        return _("{who}: nothing to buy, type pass.").format(who=who)
    if not s.has_acted[seat]:
        return _("{who} to move: draw (a first move is always a draw).").format(who=who)
    trades = possible_trades(s, seat)
    if not trades:
        return _("{who} to move: draw (no trade possible with these stones).").format(who=who)
    shown = ", ".join(said(trade_word(r, b)) for r, b in trades)
    if not can_draw(s):
        return _("{who} to move: trade {shown} (the bank is empty, no draw).").format(who=who, shown=shown)
    return _("{who} to move: draw, or trade {shown}.").format(who=who, shown=shown)


def _pack(head: str, parts: list[str], sep: str = " | ", width: int = MAX_LINE) -> list[str]:
    """``head`` and the parts joined by ``sep``, in as few lines under ``width`` as possible."""
    lines: list[str] = []
    current = head + " " + parts[0] if parts else head
    for part in parts[1:]:
        if len(current) + len(sep) + len(part) > width:
            lines.append(current)
            current = part
        else:
            current += sep + part
    lines.append(current)
    return lines


def player_text(s: BazaarState, seat: int) -> str:
    hand = s.hands[seat]
    held = sum(hand)
    marker = ">" if seat == s.turn and s.phase != OVER else ""
    return _("{marker}{name} {points}, {n} bought, {held}: {stones}").format(
        marker=marker,
        name=s.players[seat],
        points=ngettext("{n} point", "{n} points", s.scores[seat]).format(n=s.scores[seat]),
        n=len(s.purchases[seat]),
        held=stone_count(held),
        stones=col.stones(hand, ", "),
    )


def stone_count(n: int) -> str:
    """'1 stone', '3 stones'."""
    return ngettext("{n} stone", "{n} stones", n).format(n=n)


def board(s: BazaarState) -> str:
    """The whole (public) state."""
    lines = [
        _("Bazaar: {done} of {total} combinations sold; {rates}.").format(
            done=s.purchase_count(), total=TOTAL_PURCHASES, rates=rates(s)
        )
    ]
    rules = []
    if s.hand_limit:
        rules.append(_("hand limit {n}").format(n=s.hand_limit))
    if s.bank is not None:
        rules.append(_("bank: {stones}").format(stones=col.stones(s.bank, ", ")))
    if rules:  # on the first line: a board is six lines at most
        lines[0] += " " + _("Classic rules: {rules}.").format(rules="; ".join(rules))
    half = (len(s.rows) + 1) // 2
    head = _("Exchange ('trade N' gives the left side, 'trade N back' the right):")
    lines.append(head + " " + "; ".join(row_text(i, s.rows[i]) for i in range(half)))
    lines.append(_("Exchange:") + " " + "; ".join(row_text(i, s.rows[i]) for i in range(half, len(s.rows))))
    fields = []
    for f, stack in enumerate(s.fields):
        if stack:
            fields.append(
                _("{f}) {combo} ({n} of {per} left)").format(
                    f=f + 1, combo=combo_text(stack[-1]), n=len(stack), per=PER_FIELD
                )
            )
        else:
            fields.append(_("{f}) sold out").format(f=f + 1))
    # what is for sale beside its prices, on the first line (a board is six lines at most)
    lines[0] += " " + _("Fields:") + " " + " | ".join(fields)
    # the players on one line as long as one chat line holds them (a board is six lines at most)
    lines.extend(_pack(_("Players:"), [player_text(s, seat) for seat in range(s.n)], width=PLAYERS_LINE))
    lines.append(_("Now: {status}").format(status=status(s)))
    return "\n".join(lines)


def brief(s: BazaarState, seat: int) -> str:
    """The /moves line: what this seat may type now."""
    if s.phase == OVER:
        return _("The game is over.")
    if seat != s.turn:
        return _("Not your turn; {status}").format(status=status(s))
    if s.phase == JOKER:
        return w("joker") + " " + " | ".join(w(col.NAMES[c]) for c in joker_colours(s))
    if s.phase == DISCARD:
        held = [w(col.NAMES[c]) for c in range(5) if s.hands[seat][c]]
        return _("discard <colour> ({n} to give back): {colours}").format(  # a bare count: no noun
            n=excess(s, seat), colours=" | ".join(held)
        )
    if stuck(s):
        return w("pass")
    if s.phase == BUY:
        return " | ".join([f"{w('buy')} {f + 1}" for f in buyable_fields(s, seat)] + [w("pass")])
    parts = [w("draw")] if can_draw(s) else []
    trades = possible_trades(s, seat)
    if trades:
        parts.append(w("trade") + " " + ", ".join(said(trade_word(r, b)) for r, b in trades))
    return " | ".join(parts)
