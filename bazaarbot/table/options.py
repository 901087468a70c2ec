"""The table option ``hints``: off unless the host says ``hints=on`` with ``/new`` (before ``/start``)."""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import N_
from bazaarbot.plugin import Option

HINTS = Option("hints", False, N_("/hint may be asked for during the game (such a game is not rated)"))

#: options every game takes at a table, besides the game's own
TABLE_OPTIONS: tuple[Option, ...] = (HINTS,)


def hints_on(options: dict[str, Any]) -> bool:
    return bool(options.get(HINTS.name, False))
