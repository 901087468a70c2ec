"""The rules of the chat-game variant (§9): setup, what is legal, and what each move does.

Moves are plain tuples so that rollouts stay fast:
("draw",), ("joker", colour), ("trade", row, back), ("buy", field), ("pass",), ("discard", counts).
``refusal`` explains in a player's terms why a move is not legal now (or returns None);
the ``do_*`` functions assume the move is legal and change the state in place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bazaarbot.i18n import _, in_each_language, ngettext

from . import colours as col
from .colours import NCOL
from .deck import COMBO_SIZE, N_FIELDS, deal, generate_deck, is_valuable
from .exchange import FIXED_TABLE, Group, generate_table
from .state import ACTION, BUY, DISCARD, JOKER, OVER, BazaarState
from .words import said, w

#: seat that moves first: seat 1 (index 0), then seat order
START_SEAT = 0
#: the classic hand limit (option ``hand_limit``): most stones kept at the end of a turn
HAND_LIMIT = 10
#: the classic finite bank (option ``bank``): stones per colour
BANK_PER_COLOUR = 20
#: faces of the colour die: the five colours, then the joker
DIE_FACES = NCOL + 1
JOKER_FACE = NCOL
#: points by level (0 normal, 1 valuable or higher rates, 2 both) and leftover stones (0, 1, 2, 3+)
POINTS: tuple[tuple[int, ...], ...] = ((5, 3, 2, 1), (8, 5, 3, 2), (12, 8, 5, 3))
#: every purchase made; the game ends when the last one is bought
TOTAL_PURCHASES = 24


def new_game(
    players: Sequence[str],
    rng: random.Random,
    table: str = "generated",
    quality_gate: bool = False,
    hand_limit: bool = False,
    bank: bool = False,
    auto_pass: bool = True,
) -> BazaarState:
    """A fresh table, a fresh deck, empty hands; seat 1 starts."""
    s = BazaarState()
    n = len(players)
    s.players = list(players)
    s.rng = rng
    s.table_kind = table
    s.quality_gate = quality_gate
    s.hand_limit = HAND_LIMIT if hand_limit else 0
    s.bank = [BANK_PER_COLOUR] * NCOL if bank else None
    s.auto_pass = auto_pass
    s.rows = FIXED_TABLE if table == "fixed" else generate_table(rng, quality_gate)
    s.fields = deal(generate_deck(rng))
    s.hands = [[0] * NCOL for _i in range(n)]
    s.scores = [0] * n
    s.purchases = [[] for _i in range(n)]
    s.drawn = [0] * n
    s.received = [0] * n
    s.given = [0] * n
    s.spent = [0] * n
    s.returned = [0] * n
    s.has_acted = [False] * n
    s.left = [False] * n
    s.turn = START_SEAT % n
    s.phase = ACTION
    return s


def points_for(valuable: bool, high_rates: bool, leftover: int) -> tuple[int, int]:
    """(level, points) of a purchase: valuable and higher rates each raise the level by one."""
    level = int(valuable) + int(high_rates)
    return level, POINTS[level][min(leftover, 3)]


# --- what is possible ----------------------------------------------------------


def can_draw(s: BazaarState) -> bool:
    return s.bank is None or any(s.bank)


def trade_sides(s: BazaarState, row: int, back: bool) -> tuple[Group, Group]:
    """(given, received) for row index ``row``: forward gives the left side, back gives the right."""
    left, right = s.rows[row]
    return (right, left) if back else (left, right)


def can_trade(s: BazaarState, seat: int, row: int, back: bool) -> bool:
    give, get = trade_sides(s, row, back)
    hand = s.hands[seat]
    bank = s.bank
    for c in range(NCOL):  # noqa: SIM110 - a plain loop is faster here (rollouts)
        if hand[c] < give[c] or (bank is not None and bank[c] < get[c]):
            return False
    return True


def possible_trades(s: BazaarState, seat: int) -> list[tuple[int, bool]]:
    """Every (row, back) the seat could make now, ignoring whose turn it is.

    ``can_trade`` for every row and direction, spelled out for the five colours: the search
    asks this at nearly every step of its playouts.
    """
    if not s.has_acted[seat]:
        return []
    h0, h1, h2, h3, h4 = s.hands[seat]
    bank = s.bank
    found = []
    for r, (left, right) in enumerate(s.rows):
        for back, give, get in ((False, left, right), (True, right, left)):
            if h0 < give[0] or h1 < give[1] or h2 < give[2] or h3 < give[3] or h4 < give[4]:
                continue
            if bank is not None:
                b0, b1, b2, b3, b4 = bank
                if b0 < get[0] or b1 < get[1] or b2 < get[2] or b3 < get[3] or b4 < get[4]:
                    continue
            found.append((r, back))
    return found


def stuck(s: BazaarState) -> bool:
    """The player to act can neither draw nor trade (only with a finite, empty bank)."""
    return s.phase == ACTION and not can_draw(s) and not possible_trades(s, s.turn)


def buyable_fields(s: BazaarState, seat: int) -> list[int]:
    """Fields whose top combination the seat holds (ignoring the phase).

    Spelled out for the five colours, as in ``possible_trades``: the search's playouts ask this
    at every step.
    """
    h0, h1, h2, h3, h4 = s.hands[seat]
    found = []
    for f, field in enumerate(s.fields):
        if field:
            c0, c1, c2, c3, c4 = field[-1]
            if h0 >= c0 and h1 >= c1 and h2 >= c2 and h3 >= c3 and h4 >= c4:
                found.append(f)
    return found


def may_buy_now(s: BazaarState) -> bool:
    """The player to act has drawn or traded this turn and not bought yet.

    A player who could do neither (an empty bank) buys nothing: the seed allows
    a purchase only after a draw or a trade.
    """
    return s.phase == BUY


def must_pass(s: BazaarState) -> bool:
    """The turn can only end now: stuck, or acted with nothing to buy (what ``auto_pass`` plays)."""
    if s.phase == ACTION:
        return stuck(s)
    return s.phase == BUY and not buyable_fields(s, s.turn)


def joker_colours(s: BazaarState) -> list[int]:
    if s.bank is None:
        return list(range(NCOL))
    return [c for c in range(NCOL) if s.bank[c]]


def excess(s: BazaarState, seat: int) -> int:
    """Stones above the hand limit (0 without the option)."""
    if not s.hand_limit:
        return 0
    return max(0, sum(s.hands[seat]) - s.hand_limit)


def _short(wanted: Sequence[int], hand: Sequence[int]) -> tuple[int, int, int] | None:
    """(colour, wanted, held) for the first colour the hand lacks, or None when it has everything."""
    for c in range(NCOL):
        if hand[c] < wanted[c]:
            return c, wanted[c], hand[c]
    return None


def _need(wanted: Sequence[int], hand: Sequence[int]) -> str | None:
    """ "you need 2 green and hold 1 green" for the first missing colour."""
    short = _short(wanted, hand)
    if short is None:
        return None
    c, need, have = short
    return _("you need {need} {colour} and hold {have} {colour}").format(
        need=need, have=have, colour=col.name(c)
    )


def _trade_options(s: BazaarState, seat: int) -> str:
    """What this seat could do instead of an impossible trade."""
    possible = possible_trades(s, seat)

    def choices() -> str:
        trades = [f"'{said(f'trade {r + 1}' + (' back' if b else ''))}'" for r, b in possible]
        return ", ".join(([_("'draw'")] if can_draw(s) else []) + trades)

    if not possible and not can_draw(s):
        return ""
    return _("you can: {choices}").format(choices=in_each_language(choices))


def _phase_hint(s: BazaarState) -> str:
    """What the player to act may do now, for refusals."""
    seat = s.turn
    if s.phase == JOKER:
        return _("choose the joker's colour first, e.g. 'joker red'")
    if s.phase == DISCARD:
        return ngettext(
            "give back {n} stone first, e.g. 'discard {colour}'",
            "give back {n} stones first, e.g. 'discard {colour}'",
            excess(s, seat),
        ).format(n=excess(s, seat), colour=w(col.NAMES[next(c for c in range(NCOL) if s.hands[seat][c])]))
    if stuck(s):
        return _("you can neither draw nor trade, so you may only 'pass'")
    if s.phase == BUY:
        fields = buyable_fields(s, seat)
        if fields:
            return _("you may 'buy {field}' or 'pass'").format(field=fields[0] + 1)
        return _("you may only 'pass' now")
    if not s.has_acted[seat]:
        return _("your first move is always 'draw'")
    return _("'draw' or 'trade <row>' first")


def refusal(s: BazaarState, seat: int, move: tuple) -> str | None:
    """Why ``move`` is not legal for ``seat`` now, with what would work; None when it is legal."""
    if s.phase == OVER:
        return _("The game is over.")
    if seat != s.turn:
        return _("It is {player}'s turn, not yours.").format(player=s.players[s.turn])
    kind = move[0]
    phase = s.phase
    if kind == "draw":
        if phase != ACTION:
            if phase == BUY:
                return _("You have already drawn or traded this turn (one action per turn): {hint}.").format(
                    hint=_phase_hint(s)
                )
            return _("Not now: {hint}.").format(hint=_phase_hint(s))
        if not can_draw(s):
            return _("The bank is empty, nothing to draw: {hint}.").format(hint=_phase_hint(s))
        return None
    if kind == "joker":
        if phase != JOKER:
            return _("You have no joker to place: {hint}.").format(hint=_phase_hint(s))
        colour = move[1]
        if s.bank is not None and not s.bank[colour]:
            left = in_each_language(lambda: ", ".join(w(col.NAMES[c]) for c in joker_colours(s)))
            return _("The bank has no {colour} left; choose one of: {left}.").format(
                colour=col.name(colour), left=left
            )
        return None
    if kind == "trade":
        row, back = move[1], move[2]
        if not 0 <= row < len(s.rows):
            return _("There is no row {row}; the rows are 1 to {n}.").format(row=row + 1, n=len(s.rows))
        if phase != ACTION:
            if phase == BUY:
                return _("Only one action per turn, and you have had yours: {hint}.").format(
                    hint=_phase_hint(s)
                )
            return _("Not now: {hint}.").format(hint=_phase_hint(s))
        if not s.has_acted[seat]:
            return _("Your first move must be a draw: type 'draw'.")
        give, get = trade_sides(s, row, back)
        short = _short(give, s.hands[seat])
        if short is not None:
            c, need, have = short
            return _(
                "You need {need} {colour} to give for row {row}; you hold {have} {colour} "
                "(row {row} gives {give} for {get}); {options}."
            ).format(
                need=need,
                colour=col.name(c),
                row=row + 1,
                give=col.stones(give),
                get=col.stones(get),
                have=have,
                options=_trade_options(s, seat),
            )
        if s.bank is not None:
            for c in range(NCOL):
                if s.bank[c] < get[c]:
                    return _("The bank holds only {have} {colour}, row {row} needs {need}.").format(
                        have=s.bank[c], colour=col.name(c), row=row + 1, need=get[c]
                    )
        return None
    if kind == "buy":
        field = move[1]
        if not 0 <= field < N_FIELDS:
            return _("There is no field {field}; the fields are 1 to 4.").format(field=field + 1)
        if not may_buy_now(s):
            if stuck(s):
                return _(
                    "A purchase needs a draw or a trade first, and the bank leaves you neither: type pass."
                )
            if phase == ACTION:
                return _("A purchase needs a draw or trade first this turn: {hint}.").format(
                    hint=_phase_hint(s)
                )
            return _("Not now: {hint}.").format(hint=_phase_hint(s))
        if not s.fields[field]:
            return _("Field {field} is sold out.").format(field=field + 1)
        combo = s.fields[field][-1]
        missing = _need(combo, s.hands[seat])
        if missing is not None:
            others = [f"'{w('buy')} {f + 1}'" for f in buyable_fields(s, seat)]
            tail = (
                _(" You could {buys}, or pass.").format(buys=" / ".join(others))
                if others
                else _(" Type pass.")
            )
            return _("Field {field} needs {combo}: {missing}.{tail}").format(
                field=field + 1, combo=col.stones(combo), missing=missing, tail=tail
            )
        return None
    if kind == "pass":
        if phase == BUY or stuck(s):
            return None
        if phase == ACTION:
            return _("You must draw or trade before passing: {hint}.").format(hint=_phase_hint(s))
        return _("Not now: {hint}.").format(hint=_phase_hint(s))
    if kind == "discard":
        if phase != DISCARD:
            return _(
                "There is nothing to give back now (only above {limit} stones at the end of a turn)."
            ).format(limit=s.hand_limit or HAND_LIMIT)
        counts = move[1]
        missing = _need(counts, s.hands[seat])
        if missing is not None:
            return _("You cannot give back what you do not have: {missing}.").format(missing=missing)
        if sum(counts) > excess(s, seat):
            return ngettext(
                "You only have to give back {n} stone.",
                "You only have to give back {n} stones.",
                excess(s, seat),
            ).format(n=excess(s, seat))
        return None
    return _("Unknown move.")


def legal_moves(s: BazaarState, seat: int) -> list[tuple]:
    """Every legal move of ``seat`` now (discards are listed one stone at a time)."""
    if s.phase == OVER or seat != s.turn:
        return []
    phase = s.phase
    if phase == JOKER:
        return [("joker", c) for c in joker_colours(s)]
    if phase == DISCARD:
        return [("discard", _unit(c)) for c in range(NCOL) if s.hands[seat][c]]
    if phase == ACTION:
        trades = possible_trades(s, seat)
        moves: list[tuple] = [("draw",)] if can_draw(s) else []
        if not moves and not trades:  # stuck: neither a draw nor a trade
            return [("pass",)]
        moves.extend(("trade", r, back) for r, back in trades)
        return moves
    return [("buy", f) for f in buyable_fields(s, seat)] + [("pass",)]


def _unit(colour: int) -> Group:
    t = [0] * NCOL
    t[colour] = 1
    return (t[0], t[1], t[2], t[3], t[4])


# --- what moves do ---------------------------------------------------------------


def _take(s: BazaarState, seat: int, colour: int) -> None:
    s.hands[seat][colour] += 1
    s.drawn[seat] += 1
    if s.bank is not None:
        s.bank[colour] -= 1


def do_draw(s: BazaarState) -> int:
    """Roll the colour die for the player to act: a colour (stone taken) or JOKER_FACE."""
    seat = s.turn
    s.has_acted[seat] = True
    s.stuck_passes = 0
    rng = s.rng
    bank = s.bank
    while True:
        face = int(rng.random() * DIE_FACES)
        if face == JOKER_FACE:
            s.phase = JOKER
            return face
        if bank is None or bank[face]:
            _take(s, seat, face)
            s.phase = BUY
            return face


def do_joker(s: BazaarState, colour: int) -> None:
    _take(s, s.turn, colour)
    s.phase = BUY


def do_trade(s: BazaarState, row: int, back: bool) -> None:
    seat = s.turn
    give, get = trade_sides(s, row, back)
    hand = s.hands[seat]
    bank = s.bank
    for c in range(NCOL):
        hand[c] += get[c] - give[c]
        if bank is not None:
            bank[c] += give[c] - get[c]
    s.given[seat] += sum(give)
    s.received[seat] += sum(get)
    s.stuck_passes = 0
    s.phase = BUY


def do_buy(s: BazaarState, field: int) -> tuple[int, int, int]:
    """Buy the top of ``field``: (leftover, level, points). Ends the turn (or the game)."""
    seat = s.turn
    high = s.high_rates()  # decided before this purchase empties anything
    combo = s.fields[field].pop()
    hand = s.hands[seat]
    bank = s.bank
    for c in range(NCOL):
        hand[c] -= combo[c]
        if bank is not None:
            bank[c] += combo[c]
    s.spent[seat] += COMBO_SIZE
    leftover = sum(hand)
    level, pts = points_for(is_valuable(combo), high, leftover)
    s.scores[seat] += pts
    s.purchases[seat].append((field, combo, leftover, level, pts))
    s.stuck_passes = 0
    if s.purchase_count() >= TOTAL_PURCHASES:
        s.phase = OVER
    else:
        end_turn(s)
    return leftover, level, pts


def do_pass(s: BazaarState) -> None:
    if s.phase == ACTION:  # could neither draw nor trade
        s.stuck_passes += 1
        if s.stuck_passes >= s.n - sum(s.left):
            s.blocked = True
            s.phase = OVER
            return
    end_turn(s)


def do_discard(s: BazaarState, counts: Sequence[int]) -> None:
    seat = s.turn
    hand = s.hands[seat]
    for c in range(NCOL):
        hand[c] -= counts[c]
        if s.bank is not None:
            s.bank[c] += counts[c]
    s.returned[seat] += sum(counts)
    if not excess(s, seat):
        _next_player(s)


def end_turn(s: BazaarState) -> None:
    """The turn is over: give back stones above the hand limit first, then the next seat moves."""
    if excess(s, s.turn):
        s.phase = DISCARD
    else:
        _next_player(s)


def _next_player(s: BazaarState) -> None:
    """The next seat still in the game moves (seats whose player left are skipped, §9.9)."""
    for _step in range(s.n):
        s.turn = (s.turn + 1) % s.n
        if s.turn == START_SEAT % s.n:
            s.turn_number += 1
        if not s.left[s.turn]:
            break
    s.phase = ACTION


def remove_seat(s: BazaarState, seat: int) -> None:
    """§9.9 ``leavers=skip``: the seat is skipped from then on and its stones leave the game.

    With a finite bank the stones go back to it. When the leaver was to act,
    the turn passes on at once; with nobody left the game is over.
    """
    hand = s.hands[seat]
    if s.bank is not None:
        for c in range(NCOL):
            s.bank[c] += hand[c]
    s.returned[seat] += sum(hand)
    s.hands[seat] = [0] * NCOL
    s.left[seat] = True
    if all(s.left):
        s.phase = OVER
    elif s.turn == seat and s.phase != OVER:
        _next_player(s)


def apply_move(s: BazaarState, move: tuple) -> object:
    """Play a legal move for the player to act; returns what the move produced (drawn face, points)."""
    kind = move[0]
    if kind == "draw":
        return do_draw(s)
    if kind == "joker":
        do_joker(s, move[1])
        return None
    if kind == "trade":
        do_trade(s, move[1], move[2])
        return None
    if kind == "buy":
        return do_buy(s, move[1])
    if kind == "pass":
        do_pass(s)
        return None
    if kind == "discard":
        do_discard(s, move[1])
        return None
    raise ValueError(kind)
