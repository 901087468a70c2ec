"""A place at a table and the person who speaks: the identities seats are bound to."""

from __future__ import annotations

from dataclasses import dataclass

from bazaarbot.i18n import _
from bazaarbot.messages import User
from bazaarbot.table.ai_names import ai_name

#: the user-key prefix of an ``/addbot`` seat; no transport makes such keys
AI_KEY_PREFIX = "ai:"


#: the ``ai`` mark of a seat that left under ``leavers=skip``: nobody plays it any more
SKIPPED = "skipped"


def ai_key(level: str, number: int) -> str:
    """The identity of an ``/addbot`` seat: unique per table and seat, never a person's key."""
    return f"{AI_KEY_PREFIX}{level}:{number}"


def ai_author(level: str) -> str:
    """The author written to the move log for an AI's command (and the AI level's rating identity)."""
    return f"{AI_KEY_PREFIX}{level}"


@dataclass
class Seat:
    """A place at the table: the identity it is bound to, the nick shown, and who plays it now.

    ``ai`` is the level of the AI that plays the seat, or None while its person
    does. A seat added with ``/addbot`` has an AI key of its own; a person's
    seat that an AI took over keeps the person's key (so they can come back),
    until somebody else sits in.
    """

    number: int
    key: str
    nick: str
    ai: str | None = None
    #: the person stopped answering (timed out three times); any word at the table brings them back
    away: bool = False
    #: whose seat it was before somebody sat in for them: their ``/claim`` code takes it back
    #: until the game ends
    owner: str | None = None

    @property
    def is_bot(self) -> bool:
        """Added as an AI (``/addbot``), not a person's seat."""
        return self.key.startswith(AI_KEY_PREFIX)

    @property
    def bot_level(self) -> str | None:
        """The level an ``/addbot`` seat plays at (its key says it); None for a person's seat."""
        return self.key.split(":")[1] if self.is_bot else None

    @property
    def has_person(self) -> bool:
        """A person plays this seat right now."""
        return self.ai is None

    @property
    def label(self) -> str:
        """The name shown for the seat: an AI is always marked as one."""
        if self.is_bot:
            return ai_name(self.nick)
        if self.ai is None:
            return self.nick
        if self.ai == SKIPPED:
            return _("{nick} (left)").format(nick=self.nick)
        return _("{nick} (AI)").format(nick=self.nick)

    def record(self) -> dict[str, object]:
        """The seat as the store keeps it with a game."""
        data: dict[str, object] = {"key": self.key, "nick": self.nick}
        if self.ai is not None:
            data["ai"] = self.ai
        if self.away:
            data["away"] = True
        if self.owner is not None:
            data["owner"] = self.owner
        return data


@dataclass(frozen=True)
class Actor:
    """Who sent a line, and whether they hold admin rights for this table."""

    user: User
    is_admin: bool
