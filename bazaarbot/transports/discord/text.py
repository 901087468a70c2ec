"""The bot's lines as Discord shows them: people by display name, channels as links, 2,000 characters.

The hub names a Discord person ``<@ID>`` and a room ``#ID`` (``ids.py``). In a
message, the person the line alerts stays a mention, so Discord notifies them
(``allowed_mentions`` lets nobody else be pinged); everybody else is written
by their server display name, escaped so that no name can format or ping.
Inside a code block (boards, hands) a mention would show raw, so every person
is a plain name there. A room becomes ``<#ID>``, which clients show as the
channel's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from discord.utils import escape_markdown, escape_mentions

#: the most characters Discord takes in one message
MESSAGE_LIMIT = 2000
#: a code block's fences and newlines
FENCE = "```"
_PERSON = re.compile(r"<@!?(\d{1,21})>")
_ROOM = re.compile(r"(?<![<\w])#(\d{5,21})\b")

NameOf = Callable[[int], str]


def safe_name(name: str) -> str:
    """A display name that can neither format a message nor ping anybody (``@everyone``)."""
    return escape_markdown(escape_mentions(name)) or "?"


def in_message(
    text: str, name_of: NameOf, pinged: Collection[int] = (), room_of: NameOf | None = None
) -> str:
    """``text`` for a message: the ``pinged`` people as mentions, the others by name, rooms as links."""

    def person(match: re.Match[str]) -> str:
        user_id = int(match.group(1))
        return f"<@{user_id}>" if user_id in pinged else safe_name(name_of(user_id))

    return _ROOM.sub(lambda m: f"<#{m.group(1)}>", _PERSON.sub(person, text))


def in_block(text: str, name_of: NameOf, room_of: NameOf | None = None) -> str:
    """``text`` for a code block: people and rooms by plain name, nothing that could close the block
    or ping (a name such as ``@everyone``)."""
    plain = _PERSON.sub(lambda m: escape_mentions(name_of(int(m.group(1)))).replace("`", "'"), text)
    if room_of is not None:
        plain = _ROOM.sub(lambda m: "#" + room_of(int(m.group(1))).replace("`", "'"), plain)
    return plain.replace(FENCE, "'''")


def block(text: str) -> str:
    """A code block showing ``text`` as it is (columns kept)."""
    return f"{FENCE}\n{text}\n{FENCE}"


def people_in(text: str) -> set[int]:
    """The IDs of the people a hub line names."""
    return {int(found) for found in _PERSON.findall(text)}


def pieces(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, cut at line ends (a longer line at spaces,
    a word longer than a message where it must be)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit + 1)
            cut = cut if cut > 0 else limit
            if current:
                out.append(current)
                current = ""
            out.append(line[:cut])
            line = line[cut:].lstrip(" ")
        joined = f"{current}\n{line}" if current else line
        if current and len(joined) > limit:
            out.append(current)
            current = line
        else:
            current = joined
    if current.strip():
        out.append(current)
    return out


def block_pieces(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` as code blocks of at most ``limit`` characters each, cut at line ends."""
    room = limit - len(block(""))
    return [block(part) for part in pieces(text, room)]
