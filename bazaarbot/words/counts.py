"""Small pieces of wording shared by the core's sentences (counts read right for 0, 1 and 2)."""

from __future__ import annotations

from bazaarbot.i18n import _, ngettext
from bazaarbot.plugin import GamePlugin


def players_label(game: GamePlugin) -> str:
    """``2 players`` when the count is fixed, else ``2-4 players``."""
    if game.min_players == game.max_players:
        return ngettext("{n} player", "{n} players", game.min_players).format(n=game.min_players)
    return _("{lo}-{hi} players").format(lo=game.min_players, hi=game.max_players)


def number(value: float) -> str:
    """A score as people write it: ``12``, ``12.5``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
