"""The state every part of a table shares, and the small helpers they all use.

A table is composed of parts, each in its own module: the lobby and seats
(``lobby.py``), the running game (``game.py``) and the views (``views.py``).
They share the fields declared here.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any

from bazaarbot.i18n import _, language, localized_text, ngettext
from bazaarbot.messages import Outgoing, Say, Tell
from bazaarbot.plugin import GamePlugin, Result
from bazaarbot.store import SeatRow, Store
from bazaarbot.table.gamelog import PlayedMove
from bazaarbot.table.seats import Seat


class TableBase(ABC):
    """The fields of one (network, channel) table and the helpers every part needs."""

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
        self.state: Any = None
        self.game_id: int | None = None
        self.moves_made = 0
        #: per game seat, its private view as last built and what it was built from (``view_of``)
        self._seat_views: dict[int, tuple[tuple[object, ...], str | None]] = {}
        #: per game seat, its legal commands as last listed and the step of the game they are for
        self._seat_commands: dict[int, tuple[tuple[object, ...], list[str]]] = {}
        #: the last move ``play`` recorded, as the game log shows it (``gamelog.PlayedMove``)
        self.last_played: PlayedMove | None = None
        #: the game that ended here last: (game id, status, moves made), for its log
        self.ended_game: tuple[int, str, int] | None = None
        #: the AI turn being played (``aiturn.OpenAiTurn``): its lines are said together when it ends
        self.ai_turn: Any = None
        #: the last step that may still be taken back with /undo (see ``RunningGame.undo``)
        self.undo_point: Any = None
        #: the running game's seed (the AI's random numbers derive from it)
        self.game_seed = 0
        #: the running game's options, as it was set up with them
        self.game_options: dict[str, Any] = {}
        #: table settings kept in the store (clock, takeover level, ...), by name
        self.settings: dict[str, str] = dict(settings or {})
        self.default_turn_seconds = default_turn_seconds
        self.default_takeover_level = default_takeover_level
        #: the turn clock of the awaited decision (``clock.TurnClock``), made when first needed
        self.turn_clock: Any = None
        #: game seat -> decisions in a row the clock ran out on
        self.timeouts: dict[int, int] = {}
        #: the game seats that made a step of the running game (its person, or the AI for them)
        self.moved: set[int] = set()
        #: seated person's key -> when they asked to /reset (an agreement of everybody seated)
        self.reset_requests: dict[str, float] = {}
        #: wall-clock time (the hub injects a fake one in tests)
        self.wall_clock: Callable[[], float] = time.time
        #: called when the game moved or changed hands (the hub looks for AI decisions then)
        self.on_change: Callable[[Any], None] | None = None
        #: seat index in the running game -> Seat
        self.players: list[Seat] = []
        #: told the id of every game that ends with a result; answers lines for the channel (the ratings)
        self.after_game: Callable[[int], list[str]] | None = None
        #: why a stored game cannot go on under the installed rules (the table waits for /reset)
        self.paused: str | None = None
        #: since when the running game waits for a player to come back (none present); None while it runs
        idle = self.settings.get("idle_since")
        self.idle_since: float | None = float(idle) if idle else None
        #: keys of players who disconnected from a correspondence game and keep their seat meanwhile
        self.offline: set[str] = set(json.loads(self.settings.get("offline") or "[]"))
        #: whether a person (by key) may be sent a reminder now (the hub limits them per person)
        self.may_remind: Callable[[str, float], bool] = lambda key, gap: True
        #: one-time codes that move a seat bound to a host to its owner's new address
        self.codes = store.seat_codes
        #: the language a person (by key) reads private lines in (the hub sets it; None: the channel's)
        self.language_of: Callable[[str], str | None] = lambda key: None
        #: whether the bot serves its web chat, a page a player may open to come back (the hub sets it)
        self.page_open: Callable[[], bool] = lambda: True
        #: the language of this table's channel (the hub sets it; None: the bot's default)
        self.channel_language: Callable[[], str | None] = lambda: None

    @property
    def plugin(self) -> GamePlugin:
        return self.games[self.game_name]

    @property
    def running(self) -> bool:
        return self.state is not None

    def say(self, text: str, mentions: tuple[str, ...] = (), about: str | None = None) -> Say:
        """A channel line; ``mentions``: the nicks it is meant to alert (see ``Say.mentions``);
        ``about``: the nick of the seat it is about (see ``Say.about``)."""
        return Say(
            self.network,
            self.channel,
            text,
            colors=self.colors,
            players=self.seat_names(),
            mentions=mentions,
            about=about,
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

    def view_of(self, index: int) -> str | None:
        """Game seat ``index``'s private view, built in its owner's language.

        A move compares every seat's view before and after it, so the view is kept with what it
        was built from: the state (replaced on a reload or an undo, changed in place only by a
        recorded step, which counts in ``moves_made``), the players' names in it and the language.
        The next move's "before" is then this one's "after", built once.
        """
        seat = self.players[index]
        lang = self.language_of(seat.key) if seat.ai is None else None
        names = getattr(self.state, "players", None)
        built_from = (id(self.state), self.game_id, self.moves_made, lang, tuple(names or ()))
        kept = self._seat_views.get(index)
        if kept is not None and kept[0] == built_from:
            return kept[1]
        with language(lang):
            view = self.plugin.private_view(self.state, index)
        self._seat_views[index] = (built_from, view)
        return view

    def legal_now(self, index: int) -> list[str]:
        """Game seat ``index``'s legal commands (as the rules spell them; none while the game waits
        for another seat), listed once per step of the game: a view, the page's ``moves`` request
        and ``/moves`` share them. Not to be changed."""
        built_from = (id(self.state), self.game_id, self.moves_made)
        kept = self._seat_commands.get(index)
        if kept is not None and kept[0] == built_from:
            return kept[1]
        acts = index in self.plugin.to_act(self.state)
        legal = self.plugin.legal_commands(self.state, index) if acts else []
        self._seat_commands[index] = (built_from, legal)
        return legal

    def notify(self) -> None:
        """Tell whoever watches this table that its game moved or changed hands."""
        if self.on_change is not None:
            self.on_change(self)

    def tell_seat(self, index: int, text: str, hand: bool = False, ping: bool = False) -> list[Outgoing]:
        """A private line for the person who plays game seat ``index``; nothing while an AI plays it.

        ``hand``: the line is that seat's private view.
        """
        seat = self.players[index]
        return [] if seat.ai is not None else [self.tell(seat.nick, text, key=seat.key, hand=hand, ping=ping)]

    def seat_of(self, key: str) -> Seat | None:
        return next((s for s in self.seats if s.key == key), None)

    def game_seat_of(self, key: str) -> int | None:
        return next((i for i, s in enumerate(self.players) if s.key == key), None)

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

    def set_offline(self, key: str, offline: bool) -> None:
        """Mark a player of a correspondence game offline (or back), in memory and on disk."""
        if (key in self.offline) == offline:
            return
        if offline:
            self.offline.add(key)
        else:
            self.offline.discard(key)
        self.save_setting("offline", json.dumps(sorted(self.offline)) if self.offline else "")

    def clear_presence(self) -> None:
        """A game ended or starts: nobody is offline and nothing is paused for lack of players."""
        if self.offline:
            self.offline = set()
            self.save_setting("offline", "")
        if self.idle_since is not None or self.settings.get("idle_warned"):
            self.idle_since = None
            self.save_setting("idle_since", "")
            self.save_setting("idle_warned", "")

    def save_lobby(self) -> None:
        self.store.save_lobby(
            self.ensure_saved(),
            self.game_name,
            self.options,
            self.host,
            [SeatRow(s.number, s.key, s.nick) for s in self.seats],
            self.colors,
        )

    @abstractmethod
    def check_presence(self, now: float | None = None) -> list[Outgoing]:
        """Pause the game while no player is present, go on when one is (the presence part implements it)."""

    @abstractmethod
    def _end_game(self, status: str, note: str, result: Result | None = None) -> list[Outgoing]:
        """End the running game (the game part implements it)."""

    @abstractmethod
    def play(self, seat: int, author: str, text: str, answer_to: str) -> list[Outgoing]:
        """Play one command for a game seat (the game part implements it)."""

    @abstractmethod
    def skip_seat(self, index: int) -> list[Outgoing] | None:
        """Take a game seat out of the game (the game part implements it)."""
