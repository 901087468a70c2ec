"""How the hub names Discord people and rooms: the IDs Discord vouches for, never a display name.

A person is ``<@ID>`` (the nick) with the account ``ID``, so seats, ratings and
admin rights follow the user ID whatever they call themselves; a typed mention
(``!kick @bob`` arrives as ``<@ID>``) names them the same way. A guild text
channel or thread is the room ``#ID``.
"""

from __future__ import annotations

import re

from bazaarbot.messages import User

_NICK = re.compile(r"^<@!?(\d{1,21})>$")
_ROOM = re.compile(r"^#(\d{1,21})$")
_LEGACY_MENTION = re.compile(r"<@!(\d{1,21})>")


def nick_of(user_id: int) -> str:
    return f"<@{user_id}>"


def room_of(channel_id: int) -> str:
    return f"#{channel_id}"


def person(user_id: int, *, is_op: bool = False) -> User:
    """A Discord user: the ID is both the nick's content and the account a seat is bound to."""
    return User(nick=nick_of(user_id), account=str(user_id), is_op=is_op)


def user_id_of(nick: str, key: str | None = None) -> int | None:
    """The user a hub line is meant for: from the identity key (``a:ID``) when given, else the nick."""
    if key is not None:
        account = key[2:] if key.startswith("a:") else ""
        return int(account) if account.isdigit() else None
    match = _NICK.match(nick)
    return int(match.group(1)) if match else None


def channel_id_of(room: str) -> int | None:
    match = _ROOM.match(room)
    return int(match.group(1)) if match else None


def typed(text: str) -> str:
    """A person's line as the hub reads it: an old-style nickname mention ``<@!ID>`` is ``<@ID>``."""
    return _LEGACY_MENTION.sub(r"<@\1>", text)
