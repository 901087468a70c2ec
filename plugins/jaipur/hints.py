"""Why a Jaipur move is worth a look, for ``/hint``: only what the rules make certain right now.

A sale says the rupees its goods tokens score and the bonus token it takes;
taking the camels says how many. Nothing about what the deck may bring.
"""

from __future__ import annotations

from bazaarbot.i18n import _, ngettext

from .cards import CAMEL, PILE_SIZES, bonus_label, sale_rupees
from .rules import CAMELS, SELL, Action
from .state import JaipurState


def hint_reason(state: JaipurState, seat: int, action: Action) -> str | None:
    kind = action[0]
    if kind == SELL:
        good, n = action[1], action[2]
        start = state.taken[good]
        rupees = sale_rupees(good, start, n)
        reason = ngettext("scores {n} rupee", "scores {n} rupees", rupees).format(n=rupees)
        pile = 2 if n >= 5 else n - 3
        if n >= 3 and state.bonus[pile]:
            reason += _(" and takes a {kind} bonus token").format(kind=bonus_label(pile))
        if start < PILE_SIZES[good] <= start + n:
            reason += _(" and empties its goods pile")
        return reason
    if kind == CAMELS:
        camels = state.market[CAMEL]
        return ngettext("adds {n} camel to your herd", "adds {n} camels to your herd", camels).format(
            n=camels
        )
    return None
