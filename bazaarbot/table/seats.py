"""A place at a table and the person who speaks: the identities seats are bound to."""

from __future__ import annotations

from dataclasses import dataclass

from bazaarbot.transports.base import User


@dataclass
class Seat:
    """A place at the table: the identity it is bound to and the nick shown."""

    number: int
    key: str
    nick: str


@dataclass(frozen=True)
class Actor:
    """Who sent a line, and whether they hold admin rights for this table."""

    user: User
    is_admin: bool
