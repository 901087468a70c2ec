"""Commands named in a sentence, shown the way each reader can type them.

A sentence that names one of the bot's commands writes it ``/name`` in its
English source and in its translations (``/more``, ``/claim <code>``,
``/{name}``). When the sentence is built (``i18n.Msg.build``), the slash of
every such name of a declared command becomes ``MARK``; what is filled in
later (a nick, what a user typed) is never marked, and the IRC client commands
a sentence may name (``/mode``, ``/accept``) are not the bot's, so they keep
their slash. Each transport renders the mark once, at its edge, with the
character its users type: ``/`` on the web and the console, ``!`` on IRC (or the
network's configured prefix), where a leading ``/`` is the client's own and
never reaches the bot.
"""

from __future__ import annotations

import re
from typing import Any

#: stands where a command's prefix goes (ASCII SUB: user text can never carry it, ``sanitize`` strips it)
MARK = "\x1a"

#: what a command's prefix is where nothing else is said (the console, the web, logs)
SLASH = "/"

_names: set[str] = set()
_pattern: re.Pattern[str] | None = None

#: a command's slash stands at the start, after a space or an opening bracket or quote
_BEFORE = r"(?<![^\s(\[\"'„“‘«¿¡])"


def declare(*names: str) -> None:
    """Names (and aliases) of declared commands: a ``/name`` of one of them in a sentence is marked."""
    global _pattern
    _names.update(name.lower() for name in names if name)
    _pattern = None


def _compiled() -> re.Pattern[str]:
    global _pattern
    if _pattern is None:
        words = "|".join(re.escape(n) for n in sorted(_names, key=len, reverse=True))
        name = rf"(?:{words})(?![\w-])" if words else r"(?!)"
        _pattern = re.compile(rf"{_BEFORE}/(?={name}|\{{)", re.IGNORECASE)
    return _pattern


def mark(template: str) -> str:
    """A sentence's template with each bot command it names marked (idempotent)."""
    if "/" not in template:
        return template
    return _compiled().sub(MARK, template)


def command(name: str) -> str:
    """A command's name as a sentence built outside the catalogue names it (``/join`` on the console)."""
    return MARK + name


def render(text: str, prefix: str = SLASH) -> str:
    """``text`` with every marked command shown with ``prefix`` (the transport's command character)."""
    return text.replace(MARK, prefix) if MARK in text else text


def render_all(value: Any, prefix: str = SLASH) -> Any:
    """``render`` over the strings of JSON-like data (a web frame's fields)."""
    if isinstance(value, str):
        return render(value, prefix)
    if isinstance(value, dict):
        return {key: render_all(item, prefix) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [render_all(item, prefix) for item in value]
    return value
