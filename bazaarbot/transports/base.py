"""What flows between a transport and the hub.

A transport (console, web, irc, a test double) turns network traffic into
``Incoming`` events for the hub and turns ``Say`` / ``Tell`` back into
network traffic. It owns everything about its network: line length,
splitting, pacing, colours, reconnects, identity. The hub knows nothing of
IRC or HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bazaarbot.hub import Hub


@dataclass(frozen=True)
class User:
    """Somebody who spoke, as far as the transport can vouch for them.

    ``account`` is a services account (IRC SASL/account-tag) or a web session
    identity; when present it, not the nick, identifies the player. ``mask``
    is ``nick!user@host`` where the network has one. ``is_op`` is the
    transport vouching that the user is an operator of the channel the
    message came from.
    """

    nick: str
    account: str | None = None
    mask: str | None = None
    is_op: bool = False

    @property
    def key(self) -> str:
        """The stable identity a seat is bound to."""
        if self.account:
            return "a:" + self.account.lower()
        return "n:" + self.nick.lower()


@dataclass(frozen=True)
class Incoming:
    """One line a user sent: in ``channel``, or privately to the bot when channel is None."""

    network: str
    channel: str | None
    user: User
    text: str


@dataclass(frozen=True)
class Say:
    """A public line (or several, separated by newlines) for a channel."""

    network: str
    channel: str
    text: str
    #: the table asked for mIRC-style colour hints; transports may ignore it
    colors: bool = False


@dataclass(frozen=True)
class Tell:
    """A private line (or several) for one user only."""

    network: str
    nick: str
    text: str
    #: the user prefers NOTICE over PRIVMSG (IRC); other transports ignore it
    notice: bool = False


Outgoing = Say | Tell


class Transport(Protocol):
    """One network connection (or a console, or a web server) attached to the hub."""

    network: str

    async def start(self, hub: Hub) -> None:
        """Connect and begin feeding ``hub.handle``; returns once running."""

    async def stop(self) -> None:
        """Disconnect cleanly."""

    async def send(self, message: Outgoing) -> None:
        """Deliver one outgoing message (queue it; never block the loop)."""
