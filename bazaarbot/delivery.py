"""What the core needs of a network: start, stop, send, and three optional capabilities.

The protocols live in the core so that the hub and the commands can hold and
ask transports without importing the transports package; ``transports/base.py``
re-exports them beside ``HubPort``, the other direction.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bazaarbot.messages import Outgoing, User


class Transport(Protocol):
    """One network connection (or a console, or a web server) attached to the hub.

    A transport that reaches several hub networks (a sharded Discord bot, one
    network per shard) names them in an attribute ``networks`` as well.
    """

    network: str

    async def start(self, hub: Any) -> None:
        """Connect and begin feeding ``hub.handle`` (the ``HubPort``); returns once running."""

    async def stop(self) -> None:
        """Disconnect cleanly."""

    async def send(self, message: Outgoing) -> None:
        """Deliver one outgoing message (queue it; never block the loop)."""


@runtime_checkable
class PagingTransport(Protocol):
    """A transport that pages long private answers (IRC): ``/more`` asks it for the next page."""

    def next_page(self, nick: str, key: str | None = None) -> bool:
        """Send ``nick`` the next page of the long answer made for ``key``; False when nothing is left."""


@runtime_checkable
class RedrawingTransport(Protocol):
    """A transport that draws tables as views (the web): told when one changed outside a line."""

    def views_changed(self, channel: str) -> None:
        """The channel's view changed (its game log was read): draw it again for whoever shows it."""


@runtime_checkable
class PacedTransport(Protocol):
    """A transport whose lines wait in a paced queue (IRC): a turn clock starts when its prompt is out."""

    def backlog_seconds(self) -> float:
        """About how long the lines waiting now take to leave."""


@runtime_checkable
class PresenceTransport(Protocol):
    """A transport that knows who is in a channel now (IRC, Matrix, the web): a table's opening is
    announced only to those of its ``/notify`` list who are there."""

    def present(self, channel: str) -> list[User]:
        """The people in ``channel`` now, as the hub knows them (identity, nick); never the bot."""
