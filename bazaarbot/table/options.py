"""The table option ``hints``: off unless the host says ``hints=on`` with ``/new`` (before ``/start``)."""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import N_, _
from bazaarbot.plugin import Option

HINTS = Option("hints", False, N_("/hint may be asked for during the game (such a game is not rated)"))

#: options every game takes at a table, besides the game's own
TABLE_OPTIONS: tuple[Option, ...] = (HINTS,)


def hints_on(options: dict[str, Any]) -> bool:
    return bool(options.get(HINTS.name, False))


def option_typed(option: Option, value: Any) -> str:
    """``hints=on``: an option as the host types it with ``/new`` (a yes-or-no one as on or off)."""
    if isinstance(value, bool):
        value = "on" if value else "off"
    return f"{option.name}={value}"


def option_said(option: Option, value: Any) -> str:
    """An option the host chose, as a sentence: ``Hints are on for this table.``"""
    if option.name == HINTS.name:
        return _("Hints are on for this table.") if value else _("Hints are off for this table.")
    what = _(option.help)
    if isinstance(value, bool):
        return (_("On at this table: {what}.") if value else _("Off at this table: {what}.")).format(
            what=what
        )
    return _("At this table: {what} - {value}.").format(what=what, value=value)
