"""What transports read of the tables (the read half of ``HubPort``): boards, views, who is seated.

The hub holds one ``TransportViews`` and answers its transports' reads
through it, so a transport talks to one object; nothing here changes a table.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bazaarbot.config import BotSettings
from bazaarbot.delivery import RedrawingTransport, Transport
from bazaarbot.hub.languages import LanguageChoices
from bazaarbot.hub.services import HandlerServices
from bazaarbot.i18n import current_language, default_language, language, localized_text, text_language
from bazaarbot.i18n.catalogue import catalogue_generation
from bazaarbot.i18n.page_language import page_language
from bazaarbot.messages import Readers, RoomViews, SeatedPerson, WantedParts
from bazaarbot.metrics import Metrics
from bazaarbot.people.mygames import as_data, entries
from bazaarbot.pipeline.commit import Commit
from bazaarbot.plugin import GamePlugin
from bazaarbot.ratings import Ratings
from bazaarbot.registry import web_folder
from bazaarbot.store import GameRow, Store
from bazaarbot.table import Table
from bazaarbot.table.ai_names import ai_name, with_ai_names
from bazaarbot.table.gamelog import GameLogs, Replay
from bazaarbot.table.seats import Seat
from bazaarbot.tableview.table import public_view, verb_commands, your_view
from bazaarbot.teach.replay import replay_view

log = logging.getLogger(__name__)

#: the people whose ``/tables`` lists are kept made at most (a list is shared, never changed)
TABLES_KEPT = 10_000


def _seat_facts(seat: Seat) -> tuple[object, ...]:
    """What a view shows of a seat (a seat changes in place: its facts are copied out)."""
    return (seat.number, seat.key, seat.nick, seat.ai, seat.away, seat.owner)


@dataclass
class TransportViews:
    """Read-only views of the hub's tables for transports (the web page, the IRC transport)."""

    store: Store
    games: dict[str, GamePlugin]
    settings: BotSettings
    tables: dict[tuple[str, str], Table]
    transports: dict[str, Transport]
    ratings: Ratings
    commit: Commit
    metrics: Metrics
    languages: LanguageChoices
    services: HandlerServices
    default_game: Callable[[], str]
    wall_clock: Callable[[], float]
    #: background work the hub waits for and cancels (None: everything is read at once)
    spawn: Callable[[Coroutine[Any, Any, None]], Any] | None = None

    def __post_init__(self) -> None:
        self.started = time.time()
        #: per (network, person), the ``/tables`` list last made and what it was made from
        self._tables_made: dict[tuple[str, str], tuple[object, list[dict[str, object]]]] = {}

    def my_tables(self, network: str, key: str) -> list[dict[str, object]]:
        """``/tables`` as data, for the web page: where it is your move first.

        Every view a tab is sent asks for it, and it rarely changes: its lines are written again
        only when the tables as the person sees them, their language or the catalogues changed.
        """
        lang = self.languages.person_language(network, key)
        found = entries(self.services.tables_of_person(network, key), key, self.wall_clock())
        made_from = (lang, default_language(), catalogue_generation(), tuple(found))
        kept = self._tables_made.get((network, key))
        if kept is not None and kept[0] == made_from:
            return kept[1]
        with language(lang):
            data = as_data(found)
        if len(self._tables_made) >= TABLES_KEPT:
            self._tables_made.clear()  # people come and go: the lists of the ones here now are made again
        self._tables_made[(network, key)] = (made_from, data)
        return data

    def seated(self, network: str, channel: str | None = None) -> list[SeatedPerson]:
        """Everybody seated at the network's tables (or one channel's), each identity once."""
        found: dict[str, SeatedPerson] = {}
        for (net, chan), table in self.tables.items():
            if net != network or (channel is not None and chan != channel.lower()):
                continue
            for seat in [*table.seats, *table.players]:
                account = seat.key[2:] if seat.key.startswith("a:") else None
                found.setdefault(seat.key, SeatedPerson(seat.key, seat.nick, account))
        return list(found.values())

    def private_view(self, network: str, channel: str, key: str) -> str | None:
        table = self.tables.get((network, channel.lower()))
        if table is None or not table.running:
            return None
        seat = table.game_seat_of(key)
        if seat is None:
            return None
        return table.view_in(seat, self.languages.person_language(network, key) or table.channel_language())

    def board_version(self, network: str, channel: str) -> object:
        """Changes whenever the channel's board may have: a transport renders the board only then."""
        table = self.tables.get((network, channel.lower()))
        if table is None:
            return None
        return (table.game_id, table.moves_made, self.commit.changes.get(table, 0))

    def game_id(self, network: str, channel: str) -> int | None:
        """The ID of the game running in a channel (a transport keeps one board message per game)."""
        table = self.tables.get((network, channel.lower()))
        return table.game_id if table is not None and table.running else None

    def public_board(self, network: str, channel: str) -> str | None:
        """The public board of the game running in a channel (for a transport's board pane), else None."""
        table = self.tables.get((network, channel.lower()))
        if table is None or not table.running:
            return None
        with language(table.channel_language()):  # drawn when a transport sends it, in the channel's words
            return table.board()

    def table_view(self, network: str, channel: str, key: str | None) -> dict[str, object] | None:
        """A channel's table as structured data (``tableview``); private parts only for ``key``."""
        parts = self.room_views(network, channel, [key])
        if parts is None:
            return None
        _lang, public, you = parts[key]
        return public | {"you": you}

    def _replay(self, table: Table) -> Replay | None:
        """The table's latest game as its log reads it (its running game's, else the last one's)."""
        running = (table.game_id, table.moves_made) if table.game_id is not None else None
        nicks = [s.nick for s in table.players] if table.running else None

        def started() -> GameRow | None:
            """The running game's row as the store has it (the log has not seen the game yet)."""
            if running is None or nicks is None or table.id is None:
                return None
            players = [{"nick": nick} for nick in nicks]
            options, seed = table.game_options, table.game_seed
            return GameRow(running[0], table.id, table.game_name, "", seed, options, players, "running")

        return self.game_logs.latest(
            table.id,
            running,
            nicks,
            table.last_played,
            started,
            table.ended_game,
            readers=table.reader_languages(),
            final=table.ended_state,
        )

    def view_version(self, network: str, channel: str, keys: Readers, wanted: WantedParts = None) -> Hashable:
        """What ``room_views`` builds a room's views from, read cheaply: while it is equal, the views
        it builds are equal too (the clock's ``now`` aside), so a transport need not build them again.

        Everything ``room_views`` reads of the table, its seats, its clock, its log, its readers and
        their languages is in here (``tests/hub/test_view_version.py`` holds the two to that).
        """
        table = self.tables.get((network, channel.lower()))
        if table is None:
            return None
        replay = self._replay(table)
        clock = table.turn_clock
        state = table.state
        return (
            id(table),
            table.game_name,
            table.host,
            id(state),
            table.game_id,
            table.moves_made,
            tuple(getattr(state, "players", None) or ()),
            tuple(map(_seat_facts, table.seats)),
            tuple(map(_seat_facts, table.players)),
            table.clock_seconds(),
            None if clock is None else (clock.decision, clock.deadline, clock.paused_left),
            None if replay is None else (id(replay), replay.game_id, replay.status, len(replay.entries)),
            table.reader_languages(),
            self.languages.channel_language(network, channel),
            frozenset((key, self.page_language(network, channel, key)) for key in keys),
            frozenset((key, frozenset(verbs)) for key, verbs in (wanted or {}).items()),
            default_language(),
            catalogue_generation(),
        )

    def room_views(self, network: str, channel: str, keys: Readers, wanted: WantedParts = None) -> RoomViews:
        """Each reader's view of a channel's table in parts: (language, public part, their own part).

        The public part is built once per language and shared by the readers of that language
        (a transport encodes it once); ``None`` as a key is a spectator, whose own part is None.
        ``wanted``: per reader, the long verbs whose commands their own part carries too.
        """
        table = self.tables.get((network, channel.lower()))
        if table is None:
            return None
        replay = self._replay(table)
        room_words = self.languages.channel_language(network, channel) or default_language()
        publics: dict[str | None, dict[str, Any]] = {}
        parts: dict[str | None, tuple[str | None, dict[str, Any], dict[str, Any] | None]] = {}
        for key in keys:
            lang = self.page_language(network, channel, key)
            with language(lang):  # the page's words (labels, names, status) in its reader's language
                public = publics.get(lang)
                if public is None:
                    public = publics[lang] = public_view(table, replay)
                    public["lang"] = lang
                    last = public.get("last")
                    if last and current_language() != room_words:
                        # the room's announcement is not in the reader's words
                        public["last"] = last | {"lines": []}
                parts[key] = (lang, public, your_view(table, key, (wanted or {}).get(key, ())))
        return parts

    def verb_commands(self, network: str, channel: str, key: str, verb: str | None) -> dict[str, Any] | None:
        """A seated reader's commands of one verb (all without one), in their page's words."""
        table = self.tables.get((network, channel.lower()))
        if table is None:
            return None
        lang = self.page_language(network, channel, key)
        with language(lang):
            answer = verb_commands(table, key, verb)
        # the words are the reader's now: a page that switched language since it asked drops them
        return None if answer is None else {**answer, "lang": lang}

    @staticmethod
    def public_line(text: str, lang: str) -> str:
        """A public line in a reader's language: its sentences, and its AI seats named there."""
        built = text_language(text)
        if built is None:  # what a person typed: as it is
            return str(text)
        return with_ai_names(text if built == lang else localized_text(text, lang), lang)

    def page_language(self, network: str, channel: str | None, key: str | None) -> str | None:
        """The language a reader's page is drawn in (None: the browser's)."""
        room = self.languages.channel_language(network, channel) if channel else None
        return page_language(self.languages.person_language(network, key) if key else None, room)

    @functools.cached_property
    def game_logs(self) -> GameLogs:
        """Replays of each table's latest game, for its log and its final board."""
        return GameLogs(self.store, self.games, self._read_log_later)

    def _read_log_later(self, table_id: int, work: Callable[[], Any], landed: Callable[[Any], bool]) -> bool:
        """On a server, a game log's records are read where the event loop does not wait for them;
        the table is drawn again for its transport once they are in."""
        if not self.store.remote or self.spawn is None:
            return False
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False

        async def read() -> None:
            try:
                result = await self.store.read(work)
            except (
                sqlite3.OperationalError
            ) as error:  # the database away: the outage is logged where it is watched
                log.warning("the game log of table %s could not be read: %s", table_id, error)
                result = None
            except Exception:
                log.exception("the game log of table %s could not be read", table_id)
                result = None
            if landed(result):
                self._draw_again(table_id)

        self.spawn(read())
        return True

    def _draw_again(self, table_id: int) -> None:
        for (network, channel), table in self.tables.items():
            transport = self.transports.get(network)
            if table.id == table_id and isinstance(transport, RedrawingTransport):
                transport.views_changed(channel)

    def game_titles(self) -> dict[str, str]:
        first = self.default_game()  # the game a new table gets comes first
        order = sorted(self.games, key=lambda name: (name != first, name))
        return {name: self.games[name].title for name in order}

    def replay_view(self, network: str, game_id: int) -> dict[str, object] | None:
        """A finished game of the network step by step, public facts only (``teach/replay.py``)."""
        return replay_view(self.store, self.games, network, game_id)

    def has_game(self, network: str, game_id: int) -> bool:
        """Whether the network has a game ``game_id`` of an installed game (its record alone)."""
        record = self.store.game_record(game_id)
        return record is not None and record["network"] == network and record["game"] in self.games

    def recent_games(self, network: str, limit: int) -> list[dict[str, object]]:
        """The network's last finished games of installed games, the latest first, for the page that
        lists them (each a link to its replay); an AI named in the current language."""
        return [
            {
                "id": past.id,
                "game": past.game,
                "title": self.games[past.game].title,
                "ended": past.ended,
                "players": [
                    {
                        "nick": str(ai_name(nick)),
                        "score": int(score) if score.is_integer() else score,
                        "winner": won,
                    }
                    for nick, score, won in past.players
                ],
            }
            for past in self.ratings.records.recent_games(network, limit)
            if past.game in self.games
        ]

    def drawn_table(self, network: str, channel: str) -> bool:
        """Whether the channel's game (or the network's default) is drawn by a browser renderer."""
        table = self.tables.get((network, channel.lower()))
        return self.game_assets(table.game_name if table is not None else self.default_game()) is not None

    def game_assets(self, game: str) -> Path | None:
        """The folder of a game's browser renderer (``plugins/<game>/web``), if it has one."""
        plugin = self.games.get(game)
        return None if plugin is None else web_folder(plugin)

    async def ratings_view(self, network: str, channel: str) -> dict[str, object]:
        """The best players of the channel's game and the ratings of those at its table (for the web page).

        The table is read here; the ratings where the event loop does not wait for the store.
        """
        table = self.tables.get((network, channel.lower()))
        game = table.game_name if table is not None else self.default_game()
        seats = [] if table is None else (table.players if table.running else table.seats)
        people = [(s.key, s.nick) for s in seats]
        view = await self.store.read(lambda: self.ratings.view(network, game, people))
        return {"room": channel, **view}

    def snapshot(self) -> dict[str, object]:
        """Figures for a health check."""
        return {
            "tables": len(self.tables),
            "running_games": sum(1 for t in self.tables.values() if t.running),
            "networks": sorted(self.transports),
            "uptime": round(time.time() - self.started, 1),
        }
