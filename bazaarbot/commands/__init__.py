"""Table and bot commands: declared once next to their handlers (``registry``), parsed from text.

Importing this package imports every handler module, so the registry is complete.

May import: ``config``, ``delivery``, ``i18n``, ``messages``, ``people``, ``plugin``, ``ratings``,
``store``, ``table``, ``teach``, ``text``, ``words``; the hub reaches handlers as ``CommandHost``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from bazaarbot.commands import clock, info, lang, lobby, mygames, prefs, ratings, teach  # noqa: F401  (each module declares its commands)
from bazaarbot.commands.context import CommandHost, Context
from bazaarbot.commands.parse import Command, addressed_text, command_body, parse_command, sanitize
from bazaarbot.commands.registry import REGISTRY, CommandSpec, Where, Who, command


class _Usages(Mapping[str, str]):
    """Every command's name and its one-line help, read live from the registry."""

    def __getitem__(self, name: str) -> str:
        return REGISTRY.specs[name].usage()

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY.specs)

    def __len__(self) -> int:
        return len(REGISTRY.specs)


#: command name -> its ``/help`` line
COMMANDS: Mapping[str, str] = _Usages()


def nearest_command(word: str) -> str | None:
    """The declared command closest to a mistyped one (None when nothing is close)."""
    return REGISTRY.nearest(word)


__all__ = [
    "COMMANDS",
    "REGISTRY",
    "Command",
    "CommandHost",
    "CommandSpec",
    "Context",
    "Where",
    "Who",
    "addressed_text",
    "command",
    "command_body",
    "nearest_command",
    "parse_command",
    "sanitize",
]
