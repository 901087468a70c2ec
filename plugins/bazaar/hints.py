"""Why a Bazaar move is worth a look, for ``/hint``: the points a purchase scores right now."""

from __future__ import annotations

from bazaarbot.i18n import ngettext
from bazaarbot.plugin import GamePlugin

from .state import BazaarState


def hint_reason(game: GamePlugin, state: BazaarState, seat: int, action: tuple) -> str | None:
    if action[0] != "buy":
        return None
    after = game.clone(state)
    before = after.scores[seat]
    game.ai_play(after, seat, action)
    points = after.scores[seat] - before
    return ngettext("scores {n} point", "scores {n} points", points).format(n=points)
