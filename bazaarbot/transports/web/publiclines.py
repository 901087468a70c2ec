"""A room's public line in each language its tabs read, rendered once per language, not per tab.

The room's language is what IRC, Matrix and Discord channels read. On the web every tab gets its
own copy of every line, so each line can be in its reader's language: a German reader at an
English room reads the bot's lines (and its AI seats' names) in German. The hub renders a line
for a language (``HubPort.public_line``); the tabs that read one language share one encoded frame.
A line that cannot be rendered again (what a person typed) goes to every tab as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bazaarbot.commands.registry import REGISTRY
from bazaarbot.i18n import text_language
from bazaarbot.transports.web.conn import Conn

#: a tab -> the language it reads the room's lines in (None: the room's own)
TabLanguage = Callable[[Conn], str | None]


def by_language(tabs: Iterable[Conn], language_of: TabLanguage) -> dict[str | None, list[Conn]]:
    """The tabs grouped by the language each reads."""
    groups: dict[str | None, list[Conn]] = {}
    for tab in tabs:
        groups.setdefault(language_of(tab), []).append(tab)
    return groups


def renders_again(text: Any) -> bool:
    """Whether a line can be said in another language than the one it was built in."""
    return isinstance(text, str) and text_language(text) is not None


def line_for(record: dict[str, Any], lang: str | None, render: Callable[[str, str], str]) -> dict[str, Any]:
    """A kept public line (a history record) as a reader of ``lang`` reads it."""
    text = record.get("text")
    if lang is None or not renders_again(text):
        return record
    assert isinstance(text, str)
    return record | {"text": render(text, lang)}


def chooses_language(text: str) -> bool:
    """Whether a line is ``/lang`` under any of its names: its reader (or its room) may read anew."""
    first = text.split(" ", 1)[0].lstrip("/!")
    spec = REGISTRY.lookup(first) if first and text[:1] in "/!" else None
    return spec is not None and spec.name == "lang"
