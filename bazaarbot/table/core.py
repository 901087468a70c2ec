"""What every part of a table reads: where it is, who sits where, its settings, and how it speaks.

``TableCore`` is the table's record (the lobby's seats and host, the running game's seats, the
stored settings) and the helpers that turn text into lines for the channel or for one seat. The
parts of a table (``lobby``, ``game``, ``ai_seats``, ``presence``, ``clock``, ``views``) are each
given it; what one part asks of another goes through the interfaces of ``ports``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from bazaarbot.i18n import _, localized_text, ngettext
from bazaarbot.messages import Outgoing, Say, Tell
from bazaarbot.plugin import GamePlugin
from bazaarbot.store import SeatRow, Store
from bazaarbot.table.seats import Seat


class TableCore:
    """The record of one (network, channel) table and the lines it says."""

    def __init__(
        self,
        store: Store,
        games: dict[str, GamePlugin],
        table_id: int | None,
        network: str,
        channel: str,
        game: str,
        options: dict[str, Any] | None = None,
        host: str = "",
        seats: list[Seat] | None = None,
        colors: bool = False,
        base_seed: int | None = None,
        settings: dict[str, str] | None = None,
        default_turn_seconds: int | None = None,
        default_takeover_level: str | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.id = table_id
        self.network = network
        self.channel = channel
        self.game_name = game
        self.options: dict[str, Any] = dict(options or {})
        self.host = host
        self.seats: list[Seat] = sorted(seats or [], key=lambda s: s.number)
        self.colors = colors
        self.base_seed = base_seed
        #: seat index in the running game -> Seat (empty while no game runs)
        self.players: list[Seat] = []
        #: table settings kept in the store (clock, takeover level, ...), by name
        self.settings: dict[str, str] = dict(settings or {})
        self.default_turn_seconds = default_turn_seconds
        self.default_takeover_level = default_takeover_level
        #: one-time codes that move a seat bound to a host to its owner's new address
        self.codes = store.seat_codes
        #: wall-clock time (the hub injects a fake one in tests)
        self.wall_clock: Callable[[], float] = time.time
        #: called when the game moved or changed hands (the table tells the hub, which looks for AI decisions)
        self.changed: Callable[[], None] = lambda: None
        #: told the id of every game that ends with a result; answers lines for the channel (the ratings)
        self.after_game: Callable[[int], list[str]] | None = None
        #: whether a person (by key) may be sent a reminder now (the hub limits them per person)
        self.may_remind: Callable[[str, float], bool] = lambda key, gap: True
        #: the language a person (by key) reads private lines in (the hub sets it; None: the channel's)
        self.language_of: Callable[[str], str | None] = lambda key: None
        #: whether the bot serves its web chat, a page a player may open to come back (the hub sets it)
        self.page_open: Callable[[], bool] = lambda: True
        #: the language of this table's channel (the hub sets it; None: the bot's default)
        self.channel_language: Callable[[], str | None] = lambda: None
        #: the languages the channel's lines are read in besides its own (a web room's tabs each read
        #: their own; the hub sets it): a game's plain lines are built in each of them too
        self.reader_languages: Callable[[], frozenset[str]] = frozenset

    @property
    def plugin(self) -> GamePlugin:
        return self.games[self.game_name]

    def notify(self) -> None:
        """Tell whoever watches this table that its game moved or changed hands."""
        self.changed()

    def say(
        self, text: str, mentions: tuple[str, ...] = (), about: str | None = None, ai_turn: bool = False
    ) -> Say:
        """A channel line; ``mentions``: the nicks it is meant to alert (see ``Say.mentions``);
        ``about``: the nick of the seat it is about (see ``Say.about``); ``ai_turn``: it tells of an
        AI's turn (see ``Say.ai_turn``)."""
        return Say(
            self.network,
            self.channel,
            text,
            colors=self.colors,
            players=self.seat_names(),
            mentions=mentions,
            about=about,
            ai_turn=ai_turn,
        )

    def seat_names(self) -> tuple[str, ...]:
        """The players' names in seat order (the game's, else the lobby's): each is shown in its seat's
        colour where colours are on."""
        return tuple(seat.nick for seat in (self.players or self.seats))

    def people_nicks(self, seats: Iterable[int] | None = None) -> tuple[str, ...]:
        """The nicks of the game's seats played by a person (all, or those of ``seats``), for a mention."""
        indexes = range(len(self.players)) if seats is None else seats
        return tuple(self.players[i].nick for i in indexes if self.players[i].has_person)

    def table_full(self, nick: str) -> list[Outgoing]:
        """The answer to ``nick`` asking for a seat when every seat of the game is taken."""
        plugin = self.plugin
        full = ngettext(
            "The table is full ({hi} player for {game}).",
            "The table is full ({hi} players for {game}).",
            plugin.max_players,
        )
        return [self.tell(nick, full.format(hi=plugin.max_players, game=plugin.title))]

    def tell(
        self,
        nick: str,
        text: str,
        listing: bool = False,
        key: str | None = None,
        commands: bool = False,
        hand: bool = False,
        ping: bool = False,
        urgent: bool = False,
    ) -> Tell:
        """A private line in its reader's language; with ``key`` only for that identity.

        ``hand``: the line is the reader's private view of this table's game.
        """
        lang = self.language_of(key) if key else None
        return Tell(
            self.network,
            nick,
            localized_text(text, lang),
            listing=listing,
            key=key,
            commands=commands,
            hand_of=self.channel if hand else None,
            ping=ping,
            urgent=urgent,
            players=self.seat_names(),
        )

    def tell_seat(self, index: int, text: str, hand: bool = False, ping: bool = False) -> list[Outgoing]:
        """A private line for the person who plays game seat ``index``; nothing while an AI plays it.

        ``hand``: the line is that seat's private view.
        """
        seat = self.players[index]
        return [] if seat.ai is not None else [self.tell(seat.nick, text, key=seat.key, hand=hand, ping=ping)]

    def seat_of(self, key: str) -> Seat | None:
        for seat in self.seats:  # a loop, not next() over a generator: every view and line asks
            if seat.key == key:
                return seat
        return None

    def game_seat_of(self, key: str) -> int | None:
        for index, seat in enumerate(self.players):
            if seat.key == key:
                return index
        return None

    def host_nick(self) -> str:
        seat = self.seat_of(self.host)
        return seat.nick if seat else _("nobody yet")

    def ensure_saved(self) -> int:
        """The table's row id, creating the row on the first change (a look is no change)."""
        if self.id is None:
            self.id = self.store.ensure_table(self.network, self.channel, self.game_name)
        return self.id

    @property
    def settings_key(self) -> str:
        """The store key of this table's settings (a channel name, never a person's key)."""
        return self.channel.lower()

    def save_setting(self, name: str, value: str) -> None:
        """Keep one table setting in memory and on disk."""
        if value:
            self.settings[name] = value
        else:
            self.settings.pop(name, None)
        self.store.set_pref(self.network, self.settings_key, name, value)

    def save_lobby(self) -> None:
        self.store.save_lobby(
            self.ensure_saved(),
            self.game_name,
            self.options,
            self.host,
            [SeatRow(s.number, s.key, s.nick) for s in self.seats],
            self.colors,
        )
