"""The protocols between a transport and the hub.

A transport (console, web, irc, a test double) turns network traffic into
``Incoming`` events for the hub and turns ``Say`` / ``Tell`` (``bazaarbot.messages``)
back into network traffic. It owns everything about its network: line length,
splitting, pacing, colours, reconnects, identity. The hub knows nothing of
IRC or HTTP.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bazaarbot.delivery import PacedTransport, PagingTransport, Transport
from bazaarbot.messages import Incoming, Readers, RoomViews, SeatedPerson, User, WantedParts
from bazaarbot.metrics import Metrics

T = TypeVar("T")

__all__ = ["HubPort", "PacedTransport", "PagingTransport", "Transport"]


class HubPort(Protocol):
    """What a transport may ask of the hub: feed it lines and presence events, read public facts.

    Transports depend on this small port, never on the hub's module, so the
    import graph has no circle.
    """

    @property
    def bot_nick(self) -> str:
        """The bot's own nick (lines from it are ignored; web frames name it)."""

    @property
    def metrics(self) -> Metrics:
        """The bot's figures: a transport registers its own gauges and counts what it sends."""

    def time_now(self) -> float:
        """The time on the clock the tables' turn clocks read (a view's ``clock.now``)."""

    @property
    def database(self) -> sqlite3.Connection:
        """The bot's sqlite connection, for a transport's own small tables (web claims, history)."""

    async def records(self, work: Callable[[], T]) -> T:
        """Run ``work`` on ``database`` where the event loop does not wait for the store (a server's)."""

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
        """Somebody joined a channel or opened the page: a pending leave ends; their paused games go on."""

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

    def game_id(self, network: str, channel: str) -> int | None:
        """The ID of the game running in a channel (a new one each game), else None."""

    def private_view(self, network: str, channel: str, key: str) -> str | None:
        """The private view of the player ``key`` in the channel's running game, else None."""

    def table_view(self, network: str, channel: str, key: str | None) -> dict[str, object] | None:
        """The channel's table as JSON-able data: lobby, public data, whose turn, the result, the log.

        With a seated player's ``key`` it adds that seat's private data and legal commands;
        without one it holds public facts only.
        """

    def room_views(self, network: str, channel: str, keys: Readers, wanted: WantedParts = None) -> RoomViews:
        """Each reader's view in parts, (language, public part, own part): the public part shared.

        ``wanted``: per reader, the long verbs whose commands their own part carries as well.
        """

    def view_version(self, network: str, channel: str, keys: Readers, wanted: WantedParts = None) -> Hashable:
        """What the room's views are built from: while it is equal, ``room_views`` would build them
        alike (the clock's ``now`` aside), so they need not be built again. None: no table."""

    def verb_commands(self, network: str, channel: str, key: str, verb: str | None) -> dict[str, Any] | None:
        """A seated reader's legal commands of one verb now (all without one): ``game_id``, ``moves``,
        ``commands`` and their ``said`` words; None without a seat in the running game."""

    def drawn_table(self, network: str, channel: str) -> bool:
        """Whether the channel's game has a browser renderer (else a page shows the text board)."""

    def page_language(self, network: str, channel: str | None, key: str | None) -> str | None:
        """The language a reader's page is drawn in: their /lang, else the room's; None: the browser's."""

    def public_line(self, text: str, lang: str) -> str:
        """A public line (a ``Say``'s text, built in its room's language) as a reader of ``lang``
        reads it: its sentences and its AI seats' names in ``lang``; a line that cannot be rendered
        again (what a person typed) as it is. A web room's tabs each read their own language."""

    def reader_languages(self, network: str, channel: str, languages: frozenset[str]) -> None:
        """The languages a channel's lines are read in now (a web room's tabs each read their own):
        the channel's table builds a game's plain lines in each of them too."""

    def client_language(self, network: str, key: str, tag: str | None) -> None:
        """The language a person's chat client shows (a Discord locale): their private lines' language
        until they choose with /lang; a language the bot does not speak leaves them the channel's."""

    def is_addressed(self, network: str, channel: str | None, user: User, text: str) -> bool:
        """Whether the hub takes the line as a table command or a move rather than chatter."""

    def game_titles(self) -> dict[str, str]:
        """Each installed game's name -> its title, the default game first (a page offers them
        before anybody sits down)."""

    def replay_view(self, network: str, game_id: int) -> dict[str, object] | None:
        """A finished game step by step (public facts only); None when the network has no such game."""

    def has_game(self, network: str, game_id: int) -> bool:
        """Whether the network has a game ``game_id`` (of an installed game): one record read, no
        replay (a replay page for no game is answered as not found)."""

    def recent_games(self, network: str, limit: int) -> list[dict[str, object]]:
        """The network's last ``limit`` finished games, the latest first: id, game, title, when it
        ended and each seat's nick, score and whether it won (an AI named in the current language)."""

    def game_assets(self, game: str) -> Path | None:
        """The folder holding a game's browser renderer (``table.js``, ``table.css``), if any."""

    async def ratings_view(self, network: str, channel: str) -> dict[str, object]:
        """The ratings beside a channel's table: the best of its game and the seated players' ratings."""

    def snapshot(self) -> dict[str, object]:
        """Figures for a health check."""

    def my_tables(self, network: str, key: str) -> list[dict[str, object]]:
        """The tables where ``key`` sits (``/tables``) as data, their move first, each with its line."""
