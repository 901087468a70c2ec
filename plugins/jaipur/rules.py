"""The rules of Jaipur on the compact state: legality, effects, round end, scoring.

Actions are small tuples so the AI can generate and play millions of them:

* ``(TAKE, good)`` — take one good from the market (rules §4)
* ``(CAMELS,)`` — take every camel in the market (§5)
* ``(EXCHANGE, take, give)`` — ``take`` is 6 goods counts, ``give`` 7 counts
  (goods then camels) (§6)
* ``(SELL, good, n)`` — sell n cards of one good (§7)

``apply_action`` assumes a legal action (the fast path); ``check_action``
explains in the player's terms why an action is not legal.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from bazaarbot.i18n import _, ngettext
from bazaarbot.plugin import MoveError

from .cards import (
    CAMEL,
    CAMEL_TOKEN_VALUE,
    GOODS_PREFIX,
    HAND_LIMIT,
    MARKET_SIZE,
    MIN_SALE,
    PILE_SIZES,
    camels_text,
    counted,
    describe_counts,
    name,
)
from .state import JaipurState, deal_round

TAKE, CAMELS, EXCHANGE, SELL = range(4)

Action = tuple[Any, ...]

# --- policies for what the rulebook leaves open (rules reference §7, §8, §9.3) ---

#: §7: selling a type whose goods-token pile is already empty is allowed (bonus only).
SELL_FROM_EMPTY_PILE_ALLOWED = True
#: §8: a deck emptied exactly by a refill does not end the round; only a refill that
#: cannot be completed does.
DECK_EMPTIED_EXACTLY_ENDS_ROUND = False
#: §9.3: a round still tied after both tie-breaks is drawn: no seal, and the next
#: round is started by the player who did not start the drawn round.
TIED_ROUND_POLICY = "drawn-round-other-player-starts"
#: seals needed to win the match
SEALS_TO_WIN = 2

#: round-end reasons returned by ``apply_action``
GOES_ON, PILES_EMPTY, DECK_SHORT, DECK_EMPTY = range(4)
#: how many empty goods piles end a round
EMPTY_PILES_TO_END = 3


def hand_size(state: JaipurState, seat: int) -> int:
    """Goods cards in hand; camels never count toward the limit of 7."""
    return sum(state.hands[seat])


# --- legality -----------------------------------------------------------------


# --- memo bounds, from measurement: in random play an _exchanges entry holds about 2.4 KB of
# action tuples (up to ~6 KB for rich hands); with 65,536 entries the cache reached ~157 MB while
# its hit rate in random play stayed under 5%. With these bounds the three caches hold about
# 14 MB in play (10 MB exchanges, 4 MB multisets) and under 32 MB in the worst case, at a cost
# of a few percent of engine speed.
SUB_MULTISETS_CACHE = 4096
EXACT_MULTISETS_CACHE = 8192
EXCHANGES_CACHE = 4096


@lru_cache(maxsize=SUB_MULTISETS_CACHE)
def sub_multisets(bounds: tuple[int, ...], low: int, high: int) -> tuple[tuple[int, ...], ...]:
    """Every count vector under ``bounds`` whose total lies in [low, high]."""
    return tuple(combo for combo in product(*(range(b + 1) for b in bounds)) if low <= sum(combo) <= high)


@lru_cache(maxsize=EXACT_MULTISETS_CACHE)
def exact_multisets(bounds: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every count vector under ``bounds`` with total exactly ``k``."""
    return sub_multisets(bounds, k, k)


@lru_cache(maxsize=EXCHANGES_CACHE)
def _exchanges(market_goods: tuple[int, ...], hand: tuple[int, ...], camel_room: int) -> tuple[Action, ...]:
    """Every legal exchange for this market, hand and room for camels given (memoised)."""
    actions: list[Action] = []
    for take in sub_multisets(market_goods, 2, MARKET_SIZE):
        bounds = (*[0 if took else held for took, held in zip(take, hand, strict=True)], camel_room)
        k = sum(take)
        if sum(bounds) < k:
            continue
        actions += [(EXCHANGE, take, give) for give in exact_multisets(bounds, k)]
    return tuple(actions)


_TAKE_ACTIONS = tuple((TAKE, g) for g in range(6))
_SELL_ACTIONS = tuple(tuple((SELL, g, n) for n in range(8)) for g in range(6))


def legal_actions(state: JaipurState) -> list[Action]:
    """Every legal action of the seat to act, in canonical order: take one, camels, exchanges, sales."""
    if state.over:
        return []
    seat = state.turn
    hand = state.hands[seat]
    market = state.market
    size = sum(hand)
    actions: list[Action] = []
    if size < HAND_LIMIT:
        actions += [_TAKE_ACTIONS[g] for g in range(6) if market[g]]
    if market[CAMEL]:
        actions.append((CAMELS,))
    market_goods = tuple(market[:6])
    if sum(market_goods) >= 2:
        camel_room = min(state.herds[seat], HAND_LIMIT - size)
        actions += _exchanges(market_goods, tuple(hand), camel_room)
    for g in range(6):
        if hand[g] >= MIN_SALE[g]:
            actions += _SELL_ACTIONS[g][MIN_SALE[g] : hand[g] + 1]
    return actions


def check_turn(state: JaipurState, seat: int) -> None:
    """Raise MoveError unless ``seat`` is the one to act."""
    if state.over:
        raise MoveError(_("The match is over."))
    if seat != state.turn:
        raise MoveError(_("It is {name}'s turn, not yours.").format(name=state.players[state.turn]))


def check_action(state: JaipurState, seat: int, action: Action) -> None:
    """Raise MoveError, in the player's terms, unless ``action`` is legal for ``seat`` now."""
    check_turn(state, seat)
    kind = action[0]
    hand = state.hands[seat]
    market = state.market
    size = sum(hand)
    if kind == TAKE:
        good = action[1]
        if good == CAMEL:
            raise MoveError(
                _("Camels are never taken one by one: 'take camels' takes all of them ({camels}).").format(
                    camels=camels_text(market[CAMEL])
                )
            )
        if not market[good]:
            raise MoveError(
                _("There is no {good} in the market (market: {market}).").format(
                    good=name(good), market=describe_counts(market)
                )
            )
        if size >= HAND_LIMIT:
            raise MoveError(
                _(
                    "You hold {n} cards, the limit: sell or exchange first "
                    "(an exchange giving back goods keeps you at {n})."
                ).format(n=size)
            )
    elif kind == CAMELS:
        if not market[CAMEL]:
            raise MoveError(_("There are no camels in the market."))
    elif kind == EXCHANGE:
        _check_exchange(state, seat, action[1], action[2])
    elif kind == SELL:
        good, n = action[1], action[2]
        if good == CAMEL:
            raise MoveError(
                _("Camels cannot be sold; the bigger herd scores the camel token (5) at the round's end.")
            )
        if n < 1:
            raise MoveError(_("Sell at least one card."))
        held = hand[good]
        if held == 0:
            raise MoveError(_("You hold no {good}.").format(good=name(good)))
        if held < MIN_SALE[good]:
            raise MoveError(
                _("You hold only 1 {good}: {goods} must be sold two or more at a time.").format(
                    good=name(good), goods=name(good, 2)
                )
            )
        if n > held:
            raise MoveError(
                ngettext(
                    "You hold only {held} {good}: 'sell {held} {good}' is the most you can sell.",
                    "You hold only {held} {good}: 'sell {held} {good}' is the most you can sell.",
                    held,
                ).format(held=held, good=name(good, held))
            )
        if n < MIN_SALE[good]:
            raise MoveError(
                _("{goods} must be sold two or more at a time: 'sell 2 {goods_lower}'.").format(
                    goods=name(good, 2).capitalize(), goods_lower=name(good, 2)
                )
            )
        if not SELL_FROM_EMPTY_PILE_ALLOWED and state.taken[good] >= PILE_SIZES[good]:
            raise MoveError(_("The {good} tokens are all gone.").format(good=name(good)))
    else:
        raise MoveError(_("That is not a Jaipur move."))


def _check_exchange(state: JaipurState, seat: int, take: tuple[int, ...], give: tuple[int, ...]) -> None:
    """The §6 conditions, each with its own explanation."""
    hand = state.hands[seat]
    market = state.market
    k = sum(take)
    if len(take) > CAMEL and take[CAMEL]:
        raise MoveError(
            _("Camels cannot be taken in an exchange; 'take camels' takes all of them, as a turn of its own.")
        )
    if k < 2:
        raise MoveError(
            _(
                "An exchange takes at least 2 goods and gives back as many; "
                "to take a single good just type 'take {good}'."
            ).format(good=name(next((g for g in range(6) if take[g]), 0)))
        )
    if sum(give) != k:
        raise MoveError(
            _("You take {k} cards, so give back exactly {k} (you named {given}).").format(
                k=k, given=sum(give)
            )
        )
    for g in range(6):
        if take[g] > market[g]:
            if not market[g]:
                raise MoveError(
                    _("There is no {good} in the market (market: {market}).").format(
                        good=name(g), market=describe_counts(market)
                    )
                )
            raise MoveError(
                _("The market holds only {have}, not {want} (market: {market}).").format(
                    have=counted(g, market[g]), want=counted(g, take[g]), market=describe_counts(market)
                )
            )
    for g in range(6):
        if take[g] and give[g]:
            raise MoveError(_("You cannot give back {good} while taking {good}.").format(good=name(g, 2)))
    for g in range(6):
        if give[g] > hand[g]:
            if not hand[g]:
                raise MoveError(_("You hold no {good}.").format(good=name(g)))
            raise MoveError(
                _("You hold only {have}, not {want}.").format(
                    have=counted(g, hand[g]), want=counted(g, give[g])
                )
            )
    if give[CAMEL] > state.herds[seat]:
        raise MoveError(
            _("Your herd has {have}, not {want}.").format(
                have=camels_text(state.herds[seat]), want=give[CAMEL]
            )
        )
    size = sum(hand)
    if size + give[CAMEL] > HAND_LIMIT:
        room = HAND_LIMIT - size
        raise MoveError(
            _(
                "You hold {n} cards: giving {c} camels would leave you {after} (limit 7); "
                "give at most {room} and the rest as goods."
            ).format(n=size, c=give[CAMEL], after=size + give[CAMEL], room=camels_text(room))
        )


# --- effects ------------------------------------------------------------------


def sell_goods(state: JaipurState, seat: int, good: int, n: int) -> bool:
    """``seat`` sells ``n`` of ``good``: tokens, bonus, discard; True when enough piles are empty to end."""
    state.hands[seat][good] -= n
    known = state.known[seat]
    if known[good]:
        known[good] = known[good] - n if known[good] > n else 0
    state.discard[good] += n
    before = state.taken[good]
    after = before + n
    if after >= PILE_SIZES[good]:
        after = PILE_SIZES[good]
        if before < after:
            state.empty_piles += 1
    if after > before:
        prefix = GOODS_PREFIX[good]
        state.goods_points[seat] += prefix[after] - prefix[before]
        state.goods_count[seat] += after - before
        state.taken[good] = after
    if n >= 3:
        index = 2 if n >= 5 else n - 3
        pile = state.bonus[index]
        if pile:
            state.bonus_won[seat][index].append(pile.pop())
    return state.empty_piles >= EMPTY_PILES_TO_END


def exchange_goods(state: JaipurState, seat: int, take: tuple[int, ...], give: tuple[int, ...]) -> None:
    """``seat`` takes the goods ``take`` from the market and puts back ``give`` (camels last)."""
    market = state.market
    hand = state.hands[seat]
    known = state.known[seat]
    for g in range(6):
        t = take[g]
        if t:
            market[g] -= t
            hand[g] += t
            known[g] += t
        t = give[g]
        if t:
            market[g] += t
            hand[g] -= t
            if known[g]:
                known[g] = known[g] - t if known[g] > t else 0
    if give[CAMEL]:
        market[CAMEL] += give[CAMEL]
        state.herds[seat] -= give[CAMEL]


def apply_action(state: JaipurState, action: Action) -> int:
    """Play a legal action in place; return GOES_ON or why the round ended.

    The turn passes only while the round goes on; ``finish_round`` handles the rest.
    """
    seat = state.turn
    kind = action[0]
    market = state.market
    if kind == SELL:
        if sell_goods(state, seat, action[1], action[2]):
            return PILES_EMPTY
        state.turn = 1 - seat
        return GOES_ON
    if kind == TAKE:
        good = action[1]
        market[good] -= 1
        state.hands[seat][good] += 1
        state.known[seat][good] += 1
        missing = 1
    elif kind == CAMELS:
        missing = market[CAMEL]
        market[CAMEL] = 0
        state.herds[seat] += missing
    else:
        exchange_goods(state, seat, action[1], action[2])
        state.turn = 1 - seat
        return GOES_ON
    deck = state.deck
    while missing and deck:
        market[deck.pop()] += 1
        missing -= 1
    if missing:
        return DECK_SHORT
    if DECK_EMPTIED_EXACTLY_ENDS_ROUND and not deck:
        return DECK_EMPTY
    state.turn = 1 - seat
    return GOES_ON


def finish_round(state: JaipurState, reason: int) -> dict[str, Any]:
    """Score the round (§9), award the seal, then deal the next round or end the match.

    Returns the public summary of the round (also appended to ``state.rounds``).
    """
    herds = state.herds
    camel_token = 0 if herds[0] > herds[1] else 1 if herds[1] > herds[0] else None
    bonus_values = [[list(pile) for pile in won] for won in state.bonus_won]
    bonus_sum = [sum(sum(pile) for pile in won) for won in state.bonus_won]
    bonus_count = [sum(len(pile) for pile in won) for won in state.bonus_won]
    totals = [
        state.goods_points[s] + bonus_sum[s] + (CAMEL_TOKEN_VALUE if camel_token == s else 0) for s in (0, 1)
    ]
    winner: int | None = None
    decided_by = "drawn"
    for key, label in (
        (totals, "rupees"),
        (bonus_count, "bonus tokens"),
        (state.goods_count, "goods tokens"),
    ):
        if key[0] != key[1]:
            winner = 0 if key[0] > key[1] else 1
            decided_by = label
            break
    if winner is not None:
        state.seals[winner] += 1
    summary: dict[str, Any] = {
        "round": state.round_no,
        "reason": "piles" if reason == PILES_EMPTY else "deck",
        "starter": state.starter,
        "goods_points": list(state.goods_points),
        "goods_count": list(state.goods_count),
        "bonus": bonus_values,
        "bonus_sum": bonus_sum,
        "bonus_count": bonus_count,
        "herds": list(herds),
        "camel_token": camel_token,
        "totals": totals,
        "winner": winner,
        "decided_by": decided_by,
        "seals": list(state.seals),
    }
    state.rounds.append(summary)
    if winner is not None and state.seals[winner] >= SEALS_TO_WIN:
        state.over = True
        state.turn = -1
        return summary
    next_starter = 1 - winner if winner is not None else next_starter_after_draw(state.starter)
    deal_round(state, next_starter)
    return summary


def next_starter_after_draw(starter: int) -> int:
    """Who starts after a drawn round, following ``TIED_ROUND_POLICY``."""
    if TIED_ROUND_POLICY == "drawn-round-other-player-starts":
        return 1 - starter
    raise ValueError(f"unknown tied-round policy {TIED_ROUND_POLICY!r}")


def play(state: JaipurState, action: Action) -> dict[str, Any] | None:
    """Apply a legal action and, if it ended the round, score it; returns the round summary."""
    reason = apply_action(state, action)
    if reason:
        return finish_round(state, reason)
    return None
