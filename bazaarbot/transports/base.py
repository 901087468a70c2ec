"""What flows between a transport and the hub.

A transport (console, web, irc, a test double) turns network traffic into
``Incoming`` events for the hub and turns ``Say`` / ``Tell`` back into
network traffic. It owns everything about its network: line length,
splitting, pacing, colours, reconnects, identity. The hub knows nothing of
IRC or HTTP.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class User:
    """Somebody who spoke, as far as the transport can vouch for them.

    ``account`` is a services account (IRC SASL/account-tag) or a web session
    identity; when present it, not the nick, identifies the player. ``mask``
    is ``nick!user@host`` where the network has one. ``is_op`` is the
    transport vouching that the user is an operator of the channel the
    message came from; ``is_admin`` that the user proved an admin secret
    (a web admin token).
    """

    nick: str
    account: str | None = None
    mask: str | None = None
    is_op: bool = False
    is_admin: bool = False

    @property
    def key(self) -> str:
        """The strongest identity the transport has, which a seat is bound to.

        A services account when known; else the nick together with the
        ``user@host`` it came from (somebody else under the same nick is a
        stranger); a bare nick only where the transport vouches for it.
        """
        if self.account:
            return "a:" + self.account.lower()
        if self.mask:
            return "m:" + self.mask.lower()
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
    #: a bulk listing the player asked for (``/moves all``, ``/help``): a transport may page it, pack
    #: it, or drop what is left of it when the player asks again; game messages are never dropped
    listing: bool = False
    #: the identity (``User.key``) the line is meant for: a transport whose nicks can change hands
    #: delivers it only while the nick is held by that identity (a seat's hand never reaches a stranger)
    key: str | None = None
    #: every line is one command the player can type (``/moves all``): a transport short of lines
    #: (IRC) may put several on one line, separated by `` | ``; the console and the web keep one a line
    commands: bool = False


Outgoing = Say | Tell


@dataclass(frozen=True)
class SeatedPerson:
    """Somebody who sits at a table of a transport's network, as a transport needs to know them."""

    key: str
    nick: str
    account: str | None = None


class HubPort(Protocol):
    """What a transport may ask of the hub: feed it lines and presence events, read public facts.

    Transports depend on this small port, never on the hub's module, so the
    import graph has no circle (hub -> table -> transports.base).
    """

    @property
    def bot_nick(self) -> str:
        """The bot's own nick (lines from it are ignored; web frames name it)."""

    @property
    def database(self) -> sqlite3.Connection:
        """The bot's sqlite connection, for a transport's own small tables (web claims, history)."""

    def attach(self, transport: Transport) -> None:
        """Register the transport of one network."""

    async def handle(self, incoming: Incoming) -> None:
        """Process one line and send every answer before returning."""

    async def idle(self) -> None:
        """Wait until every answer the last lines set off has been sent."""

    async def user_renamed(self, network: str, old: User, new: User) -> None:
        """A nick change: seats bound to the old identity follow it."""

    async def user_left(
        self, network: str, channel: str | None, user: User, grace: float | None = None
    ) -> None:
        """A part, quit or closed tab: the leave path runs after the grace unless they come back."""

    async def user_returned(self, network: str, user: User) -> None:
        """Somebody who had left is back within the grace."""

    async def network_down(self, network: str) -> None:
        """The transport lost its network: that network's turn clocks stand still."""

    async def network_up(self, network: str) -> None:
        """The transport is (back) on its network: the clocks run again."""

    def seated(self, network: str, channel: str | None = None) -> list[SeatedPerson]:
        """Everybody seated at the network's tables (or one channel's), each once."""

    def public_board(self, network: str, channel: str) -> str | None:
        """The public board of the game running in a channel, else None."""

    def board_version(self, network: str, channel: str) -> object:
        """A value that changes whenever the channel's board may have changed (render only then)."""

    def private_view(self, network: str, channel: str, key: str) -> str | None:
        """The private view of the player ``key`` in the channel's running game, else None."""

    def table_view(self, network: str, channel: str, key: str | None) -> dict[str, object] | None:
        """The channel's table as JSON-able data: lobby, public data, whose turn, the result, the log.

        With a seated player's ``key`` it adds that seat's private data and legal commands;
        without one it holds public facts only.
        """

    def is_addressed(self, network: str, channel: str | None, user: User, text: str) -> bool:
        """Whether the hub takes the line as a table command or a move rather than chatter."""

    def game_assets(self, game: str) -> Path | None:
        """The folder holding a game's browser renderer (``table.js``, ``table.css``), if any."""

    def ratings_view(self, network: str, channel: str) -> dict[str, object]:
        """The ratings beside a channel's table: the best of its game and the seated players' ratings."""

    def snapshot(self) -> dict[str, object]:
        """Figures for a health check."""


class Transport(Protocol):
    """One network connection (or a console, or a web server) attached to the hub."""

    network: str

    async def start(self, hub: HubPort) -> None:
        """Connect and begin feeding ``hub.handle``; returns once running."""

    async def stop(self) -> None:
        """Disconnect cleanly."""

    async def send(self, message: Outgoing) -> None:
        """Deliver one outgoing message (queue it; never block the loop)."""


@runtime_checkable
class PagingTransport(Protocol):
    """A transport that pages long private answers (IRC): ``/more`` asks it for the next page."""

    def next_page(self, nick: str) -> bool:
        """Send ``nick`` the next page of their last long answer; False when nothing is left."""


@runtime_checkable
class PacedTransport(Protocol):
    """A transport whose lines wait in a paced queue (IRC): a turn clock starts when its prompt is out."""

    def backlog_seconds(self) -> float:
        """About how long the lines waiting now take to leave."""
