"""Typed text to actions, with aliases and answers that say what would work.

Accepted forms (words in English, German or Spanish, singular or plural):

* ``take diamond`` — one good; ``take camels`` (or just ``camels``) — all camels
* ``take 2 spice give 2 camels``, ``take spice leather give cloth camel`` — exchange
* ``take 2 spice`` — exchange paid with camels when the herd and hand limit allow
* ``exchange 2 camels for 2 spice`` (also swap, trade, tausche ... gegen, cambiar ... por) — give the
  first, get the second, as the English says
* ``sell 3 cloth``; ``sell cloth`` — every cloth in hand
"""

from __future__ import annotations

import re

from bazaarbot.i18n import _, current_language
from bazaarbot.plugin import MoveError

from .cards import CAMEL, CARD_ALIASES, HAND_LIMIT, camels_text, cards_text, describe_counts, name
from .render import format_action
from .rules import CAMELS, EXCHANGE, SELL, TAKE, Action, check_action, check_turn, legal_actions
from .state import JaipurState
from .words import command_in


def _words(text: str) -> frozenset[str]:
    """A set of words written as one string, easy to extend."""
    return frozenset(text.split())


TAKE_VERBS = _words(
    "take t get buy nimm nehme nehmen kaufe tomar toma tomo coger coge cojo exchange swap trade "
    "tausch tausche tauschen cambiar cambia cambio intercambiar"
)
SELL_VERBS = _words("sell s verkauf verkaufe verkaufen vender vende vendo")
#: a bare ``camels`` is the same as ``take camels``
CAMEL_VERBS = _words("camels camel kamele kamel camellos camello")
VERBS = TAKE_VERBS | SELL_VERBS | CAMEL_VERBS
GIVE_WORDS = _words("give for gib gebe geben gegen für fuer dar doy da por")
#: verbs that, with a "for" word, read as in English: "exchange A for B" gives A and gets B
SWAP_VERBS = _words("exchange swap trade tausch tausche tauschen cambiar cambia cambio intercambiar")
FOR_WORDS = _words("for gegen für fuer por")
FILLER = _words("and und y the of from market vom markt del mercado")
ALL_WORDS = _words("all alle alles todo todos todas toda")
NUMBER_WORDS = {
    word: value
    for value, words in enumerate(
        (
            "",
            "a an one ein eine einen uno una un",
            "two zwei dos",
            "three drei tres",
            "four vier cuatro",
            "five fünf fuenf cinco",
            "six sechs seis",
            "seven sieben siete",
        )
    )
    for word in words.split()
}
GOODS_HINT = "diamond, gold, silver, cloth, spice, leather, camels"
_SPLIT = re.compile(r"[\s,;+&]+")
_COUNT = re.compile(r"^([0-9]{1,3})x?$|^x([0-9]{1,3})$")


def first_word(text: str) -> str:
    """The lowercased first word, ignoring a leading ``!`` or punctuation after it."""
    words = text.strip().lower().split(None, 1)
    return words[0].strip(".!?:") if words else ""


#: the words a German or Spanish command may hold after its verb (cards, counts, linking words)
ARGUMENT_WORDS = frozenset(CARD_ALIASES) | GIVE_WORDS | FILLER | ALL_WORDS | frozenset(NUMBER_WORDS)
#: the English verbs: a line starting with any other verb must hold only game words to be a move
ENGLISH_VERBS = _words("take t get buy exchange swap trade sell s camels camel")


def is_move(text: str) -> bool:
    """Only lines whose first word is a Jaipur verb count as move attempts.

    A German or Spanish verb counts only when every word after it is a game word
    too, so ``toma eso`` or ``nimm dir Zeit`` stays chatter.
    """
    verb = first_word(text)
    if verb not in VERBS:
        return False
    if verb in ENGLISH_VERBS:
        return True
    rest = [w.strip(".!?:") for w in _SPLIT.split(text.strip().lower())[1:]]
    return all(not w or w in ARGUMENT_WORDS or _COUNT.match(w) for w in rest)


def parse(state: JaipurState, seat: int, text: str) -> Action:
    """Turn a typed command into an action, or explain what is wrong and what would work."""
    words = [w.strip(".!?:") for w in _SPLIT.split(text.strip().lower()) if w.strip(".!?:")]
    if not words or words[0] not in VERBS:
        raise MoveError(_("Jaipur moves start with 'take' or 'sell', e.g. 'take spice' or 'sell 3 cloth'."))
    check_turn(state, seat)
    verb, rest = words[0], words[1:]
    if verb in CAMEL_VERBS:
        rest = words
        verb = "take"
    if verb in SWAP_VERBS and any(w in FOR_WORDS for w in rest):
        return _parse_swap(state, seat, verb, rest)
    action = _parse_sell(state, seat, rest) if verb in SELL_VERBS else _parse_take(state, seat, rest)
    check_action(state, seat, action)
    return action


def _parse_swap(state: JaipurState, seat: int, verb: str, words: list[str]) -> Action:
    """``exchange A for B``: give A, get B, as the English says; refused with both readings if not legal."""
    split = next(i for i, w in enumerate(words) if w in FOR_WORDS)
    give_words, take_words = words[:split], words[split + 1 :]
    give_items, take_items = _items(give_words), _items(take_words)
    if not give_items or not take_items:
        raise MoveError(
            _("Say what you give and what you get, e.g. '{verb} 2 camels for 2 spice'.").format(verb=verb)
        )
    give, take = _counts(give_items), _counts(take_items)
    action: Action = (EXCHANGE, tuple(take[:CAMEL]), tuple(give))
    try:
        if take[CAMEL]:
            raise MoveError(_("Camels cannot be taken in an exchange."))
        check_action(state, seat, action)
    except MoveError as error:
        first, second = describe_counts(give), describe_counts(take)
        reading = _("'{verb} {a} for {b}' gives {a} and gets {b}: {why}").format(
            verb=verb, a=first, b=second, why=error.message
        )
        try:
            if give[CAMEL]:
                raise MoveError(_("Camels cannot be taken in an exchange."))
            check_action(state, seat, (EXCHANGE, tuple(give[:CAMEL]), tuple(take)))
        except MoveError:
            other = _("Read the other way (take {a}, give {b}) it is not possible either.")
        else:
            other = _("To take {a} and give {b}, type 'take {a} give {b}'.")
        raise MoveError(reading + " " + other.format(a=first, b=second)) from None
    return action


def _items(words: list[str], allow_all: bool = False) -> list[tuple[int | None, int]]:
    """``2 spice leather`` -> [(2, SPICE), (None, LEATHER)]; a count of -1 means 'all'."""
    items: list[tuple[int | None, int]] = []
    count: int | None = None
    for word in words:
        if word in FILLER and count is None:
            continue
        match = _COUNT.match(word)
        if match or word in NUMBER_WORDS or (allow_all and word in ALL_WORDS):
            if count is not None:
                raise MoveError(_("Put a good after each number, e.g. '2 spice'."))
            if match:
                count = int(match.group(1) or match.group(2))
            elif word in NUMBER_WORDS:
                count = NUMBER_WORDS[word]
            else:
                count = -1
            continue
        card = CARD_ALIASES.get(word)
        if card is None:
            raise MoveError(
                _("I don't know the good '{word}'. Cards: {hint}.").format(word=word, hint=GOODS_HINT)
            )
        items.append((count, card))
        count = None
    if count is not None:
        raise MoveError(_("A number needs a good after it, e.g. '2 spice'."))
    return items


def _counts(items: list[tuple[int | None, int]]) -> list[int]:
    """Add up named cards per type (7 entries, camels last)."""
    counts = [0] * 7
    for count, card in items:
        counts[card] += 1 if count is None else count
    return counts


def _parse_sell(state: JaipurState, seat: int, words: list[str]) -> Action:
    """``sell 3 cloth``; ``sell cloth`` sells every cloth in hand."""
    items = _items(words, allow_all=True)
    if not items:
        raise MoveError(_("Sell what? e.g. 'sell 3 cloth', or 'sell cloth' for all your cloth."))
    types = {card for _count, card in items}
    if len(types) > 1:
        raise MoveError(_("One goods type per sale: sell them in separate turns."))
    card = items[0][1]
    if card == CAMEL:
        return (SELL, CAMEL, 0)
    held = state.hands[seat][card]
    if len(items) == 1 and items[0][0] in (None, -1):
        if not held:
            raise MoveError(_("You hold no {good}.").format(good=name(card)))
        return (SELL, card, held)
    if any(count == -1 for count, _card in items):
        return (SELL, card, held)
    total = sum(1 if count is None else count for count, _card in items)
    if total < 1:
        raise MoveError(_("Sell at least one card."))
    return (SELL, card, total)


def _parse_take(state: JaipurState, seat: int, words: list[str]) -> Action:
    """``take <goods> [give <cards>]`` or ``take camels``."""
    split = next((i for i, w in enumerate(words) if w in GIVE_WORDS), None)
    take_words = words if split is None else words[:split]
    give_words = [] if split is None else words[split + 1 :]
    take_items = _items(take_words)
    if not take_items:
        raise MoveError(_("Take what? e.g. 'take spice', 'take camels' or 'take 2 spice give 2 camels'."))
    take = _counts(take_items)
    if take[CAMEL]:
        if sum(take[:CAMEL]) or split is not None:
            raise MoveError(
                _(
                    "Camels cannot be taken in an exchange; 'take camels' takes all of them, "
                    "as a turn of its own."
                )
            )
        in_market = state.market[CAMEL]
        named = [count for count, _card in take_items if count is not None]
        if in_market and named and sum(named) != in_market:
            raise MoveError(
                _("Camels are taken all at once: 'take camels' takes all {n} in the market.").format(
                    n=in_market
                )
            )
        return (CAMELS,)
    k = sum(take)
    if split is not None:
        give_items = _items(give_words)
        if not give_items:
            raise MoveError(_("Give what? e.g. 'take 2 spice give 2 camels'."))
        return (EXCHANGE, tuple(take[:CAMEL]), tuple(_counts(give_items)))
    if k == 1:
        return (TAKE, take.index(1))
    return _exchange_for_camels(state, seat, tuple(take[:CAMEL]))


def _exchange_for_camels(state: JaipurState, seat: int, take: tuple[int, ...]) -> Action:
    """``take 2 spice`` without ``give``: pay with camels if possible, else list what works."""
    k = sum(take)
    give = (0, 0, 0, 0, 0, 0, k)
    if state.herds[seat] >= k and sum(state.hands[seat]) + k <= HAND_LIMIT:
        return (EXCHANGE, take, give)
    for g in range(6):
        if take[g] > state.market[g] and seat == state.turn:
            # let the general check explain what the market lacks
            return (EXCHANGE, take, give)
    ways = (
        [a for a in legal_actions(state) if a[0] == EXCHANGE and a[1] == take] if seat == state.turn else []
    )
    if not ways:
        raise MoveError(
            _(
                "To take {k} goods you must give back {k} cards (camels, or goods of other types), "
                "and you do not have them: you hold {hand} and {herd}."
            ).format(k=k, hand=cards_text(sum(state.hands[seat])), herd=camels_text(state.herds[seat]))
        )
    shown = "; ".join(command_in(format_action(a), current_language()) for a in ways[:5])
    more = _(" (+{n} more, see /moves all)").format(n=len(ways) - 5) if len(ways) > 5 else ""
    reason = (
        _("your herd has only {herd}").format(herd=camels_text(state.herds[seat]))
        if state.herds[seat] < k
        else _("{k} camels would take your hand over 7").format(k=k)
    )
    raise MoveError(
        _("Say what you give back ({reason}): {ways}{more}.").format(reason=reason, ways=shown, more=more)
    )
