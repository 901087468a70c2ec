"""Routing: a line from any transport -> the right table -> messages back out.

The hub keeps the tables, the transports and the pipeline a line runs
through (``bazaarbot/pipeline/``, one module per stage); ``_line`` and
``run_and_send`` read it top to bottom. Its parts are objects it holds and
answers through: ``views`` (what transports read), ``identity`` (renames,
leaves, returns, claims), ``services`` (what command handlers look up) and
``language_choices`` (whose language a line is built in). ``process`` is synchronous and does
all of it but the sending, so tests and fuzzers can drive the whole command
path without a loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable, Coroutine, Hashable
from pathlib import Path
from typing import Any, TypeVar

from bazaarbot.ai import AiPool
from bazaarbot.config import AdminPolicy, AiSettings, BotSettings, TableSettings
from bazaarbot.delivery import PacedTransport, Transport
from bazaarbot.hub.autoplay import TICK_SECONDS, Autoplay
from bazaarbot.hub.identity import IdentityEvents
from bazaarbot.hub.languages import LanguageChoices
from bazaarbot.hub.services import HandlerServices
from bazaarbot.hub.views import TransportViews
from bazaarbot.i18n import language
from bazaarbot.i18n.readers import ReaderLanguages
from bazaarbot.messages import Incoming, Outgoing, Readers, RoomViews, SeatedPerson, User, WantedParts
from bazaarbot.metrics import Metrics, watch_pool, watch_tables
from bazaarbot.people.leaves import PendingLeaves
from bazaarbot.people.openings import OpeningCalls
from bazaarbot.people.returning import Returns
from bazaarbot.people.seat_index import SeatIndex
from bazaarbot.pipeline import dispatch
from bazaarbot.pipeline.admins import NO_ADMINS, is_admin
from bazaarbot.pipeline.commit import Commit, unsaved
from bazaarbot.pipeline.deliver import deliver
from bazaarbot.pipeline.events import TableEvents
from bazaarbot.pipeline.gate import Gate
from bazaarbot.pipeline.localize import Localizer
from bazaarbot.pipeline.measure import Measure
from bazaarbot.pipeline.ratelimit import RateLimiter
from bazaarbot.pipeline.rating import RateAfterCommit, read_answers
from bazaarbot.pipeline.reading import PLAIN_WORD_COMMANDS, Line, Reading, clean, read
from bazaarbot.pipeline.snapshots import Snapshots
from bazaarbot.plugin import GamePlugin
from bazaarbot.ratings import Ratings
from bazaarbot.registry import discover
from bazaarbot.store import Store, open_store
from bazaarbot.store.writer import Unit
from bazaarbot.table import Actor, Seat, Table
from bazaarbot.table.restore import reload_table, restore_into
from bazaarbot.teach.teacher import Teacher
from bazaarbot.text.sanitize import sanitize

__all__ = ["PLAIN_WORD_COMMANDS", "Hub", "RateLimiter", "is_admin"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class Hub:
    """All tables of all networks, and the transports that reach them."""

    def __init__(
        self,
        store: Store,
        games: dict[str, GamePlugin] | None = None,
        settings: BotSettings | None = None,
        admins: dict[str, AdminPolicy] | None = None,
        clock: Callable[[], float] = time.monotonic,
        unlimited_networks: frozenset[str] = frozenset(),
        tables: TableSettings | None = None,
        ai: AiSettings | None = None,
        turn_seconds: dict[str, int | None] | None = None,
        ai_pool: AiPool | None = None,
        wall_clock: Callable[[], float] = time.time,
        network_languages: dict[str, str] | None = None,
        channel_languages: dict[tuple[str, str], str] | None = None,
    ) -> None:
        self.store = store
        #: figures for ``/metrics`` (a registry of this hub's own)
        self._metrics = Metrics()
        watch_tables(self._metrics, lambda: self.tables.values())
        store.writer.on_commit = self.metrics.committed
        #: networks whose users are not rate-limited (the local console drives many lines at once)
        self.unlimited_networks = unlimited_networks
        self.games = games if games is not None else discover()
        self.settings = settings or BotSettings()
        self.table_settings = tables or TableSettings()
        self.ai_settings = ai or AiSettings()
        #: each network's default turn clock (a network not named uses the ``[tables]`` default)
        self.turn_seconds = dict(turn_seconds or {})
        self.admins = admins or {}
        self.codes = store.seat_codes
        self.wall_clock = wall_clock
        self.transports: dict[str, Transport] = {}
        self.tables: dict[tuple[str, str], Table] = {}
        #: units of work run so far (lines, timers, AI moves): a reading is good for the next one only
        self._units = 0
        #: (line, units run when it was read, its reading): ``is_addressed``'s, for the unit after it
        self._read_ahead: tuple[Line, int, Reading] | None = None
        #: (network, channel) -> the languages its lines are read in now (a transport tells)
        self.read_in: dict[tuple[str, str], frozenset[str]] = {}
        #: (network, identity or channel, name) -> a stored preference (reloaded in place)
        self.prefs: dict[tuple[str, str, str], str] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._clock_task: asyncio.Task[None] | None = None
        #: who sits where, so no line scans every table
        self.index = SeatIndex()
        self.leaves = PendingLeaves()
        self.languages = ReaderLanguages.configured(self.prefs, network_languages, channel_languages)
        self.language_choices = LanguageChoices(self.tables, self.languages, self.only_table)
        # the pipeline's stages (bazaarbot/pipeline/), in the order a line meets them
        self.limiter = RateLimiter(self.settings.rate_limit, clock)
        self.measure = Measure(self.metrics)
        self.gate = Gate(self.limiter, self.settings.max_line, unlimited_networks, self.metrics.refused)
        self.events = TableEvents()
        self.commit = Commit(
            store, lambda key: self.tables.get(key), self.events, self._reload_table, self._reload_prefs
        )
        store.writer.on_failure = self.commit.failed
        self.localizer = Localizer(self.languages, self.index.key_of_nick)
        #: who came back when, and the reminders they got (limited per person)
        self.returns = Returns(wall_clock)
        self.autoplay = Autoplay(
            self.send_all,
            self.spawn,
            lambda: watch_pool(
                self.metrics,
                ai_pool
                or AiPool(self.ai_settings.workers, self.ai_settings.levels, ponder=self.ai_settings.ponder),
            ),
            self.ai_settings.move_delay,
            self.table_settings.abandon_after,
            wall_clock,
            run=lambda work: self.run_and_send(work, "", None),
        )
        self.ratings = Ratings(
            self.store, self.settings.ratings.min_games, {name: g.title for name, g in self.games.items()}
        )
        # after-commit work, each subscribed to the events it needs
        self.snapshots = Snapshots(store, self.settings.snapshot_every)
        self.rating = RateAfterCommit(store, self.ratings)
        self.events.on_table_changed(self.snapshots.table_changed)
        self.events.on_table_changed(lambda table, _how: self.index.update(table))
        self.events.on_table_changed(lambda table, _how: self.autoplay.schedule.wake(table))
        self.events.on_game_finished(self.rating.game_finished)
        self.teacher = Teacher(
            self.store,
            self.games,
            lambda: self.ai_settings.levels,
            lambda: self.autoplay.pool,
            self.spawn,
            self.run_and_send,
            self.person_language,
            review_pool=(lambda: ai_pool) if ai_pool is not None else None,
            review_after_game=lambda: self.ai_settings.review_after_game,
        )
        self.events.on_game_finished(self.teacher.game_finished)
        # the hub's parts, each given what it reads
        self.services = HandlerServices(
            store,
            self.settings,
            self.tables,
            self.transports,
            self.prefs,
            unlimited_networks,
            self.index,
            self.commit,
            self.seated_tables,
            OpeningCalls(self.prefs, wall_clock),
        )
        self.identity = IdentityEvents(
            self.settings,
            self.tables,
            self.index,
            self.leaves,
            self.codes,
            self.commit,
            self.ratings,
            self.returns,
            self,
        )
        self.views = TransportViews(
            store,
            self.games,
            self.settings,
            self.tables,
            self.transports,
            self.ratings,
            self.commit,
            self.metrics,
            self.language_choices,
            self.services,
            self._default_game,
            wall_clock,
            self.spawn,
        )
        self._restore()
        self.ratings.catch_up()

    @classmethod
    def open(cls, db: str | Path, networks: frozenset[str] | None = None, **kwargs: object) -> Hub:
        """A hub on the store ``db`` (a sqlite file, created if new, or a PostgreSQL URL), tables restored.

        ``networks``: the networks this process serves (only their tables are loaded).
        """
        return cls(open_store(db, networks), **kwargs)  # type: ignore[arg-type]

    # --- start-up ------------------------------------------------------------------
    def _restore(self) -> None:
        """Every table and running game from the file: a few queries, snapshots plus short tails."""
        self._reload_prefs()
        running = {}
        for found in self.store.running_games():
            running.setdefault(found.game.table_id, found)
        default = self._default_game()
        for row in self.store.load_tables():
            game = row.game if row.game in self.games else default
            seats = [Seat(s.seat, s.user_key, s.nick) for s in row.seats]
            table = self._new_table(
                row.id,
                row.network,
                row.channel,
                game,
                options=row.options,
                host=row.host,
                seats=seats,
                colors=row.colors,
            )
            game_row = running.get(row.id)
            with language(table.channel_language()):
                restore_into(table, game_row, self.store, self.games)
            if table.running and game_row is not None:
                snapshot = game_row.snapshot
                self.snapshots.restored(table, game_row.game.id, snapshot.n if snapshot else 0)
            self.tables[(row.network, row.channel.lower())] = table
            self.commit.by_id[row.id] = table
            self.index.update(table)

    def _new_table(self, table_id: int | None, network: str, channel: str, game: str, **stored: Any) -> Table:
        """A table with its stored settings, the network's defaults, and the hub watching its game.

        ``stored``: what the store kept of it (``options``, ``host``, ``seats``, ``colors``)."""
        key = channel.lower()
        settings = {
            name: value for (net, who, name), value in self.prefs.items() if net == network and who == key
        }
        table = Table(
            self.store,
            self.games,
            table_id,
            network,
            channel,
            game,
            **stored,
            base_seed=self.settings.seed,
            settings=settings,
            default_turn_seconds=self.turn_seconds.get(network, self.table_settings.turn_seconds),
            default_takeover_level=self.table_settings.takeover_level,
        )
        table.wall_clock = self.wall_clock
        table.on_change = self.autoplay.changed
        self.autoplay.schedule.wake(table)  # the tick looks at every table once
        table.language_of = lambda who: self.person_language(network, who)
        table.channel_language = lambda: self.languages.channel(network, channel, table.settings)
        table.reader_languages = lambda: self.read_in.get((network, key), frozenset())
        table.page_open = self.serves_page
        table.after_game = lambda game_id, table=table: self.events.game_finished(table, game_id)
        table.may_remind = lambda key, gap: self.returns.may_remind(network, key, gap)
        return table

    def _reload_table(self, table: Table) -> None:
        reload_table(table, self.store, self.games, self._default_game())

    def _reload_prefs(self) -> None:
        """The preferences from disk, into the same dict every stage reads."""
        self.prefs.clear()
        self.prefs.update({(p["network"], p["user_key"], p["name"]): p["value"] for p in self.store.prefs()})

    # --- what runs by itself: AI seats and the turn clock ---------------------------------
    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run background work the hub waits for in ``idle`` and cancels in ``close``."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def start(self) -> None:
        """After the transports are up: AIs that were thinking before a restart think again; clocks run."""
        for table in self.tables.values():
            if table.running:
                self.autoplay.changed(table)
        self.autoplay.flush()
        if self._clock_task is None:
            self._clock_task = asyncio.get_running_loop().create_task(self._run_clock())

    async def _run_clock(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.tick()
            except Exception:
                log.exception("the turn clock failed")

    async def tick(self, now: float | None = None) -> None:
        """Advance the turn clocks that may have something due to ``now`` (the wall clock by default)
        and send what that says."""
        now = self.autoplay.wall_clock() if now is None else now
        self.commit.refresh_outside()  # a table written outside a unit wakes before the tick looks
        tables = self.autoplay.schedule.due(now)
        if not tables:
            return  # no table has anything due: no unit, no commit
        backlog = {
            network: transport.backlog_seconds()
            for network, transport in self.transports.items()
            if isinstance(transport, PacedTransport)
        }
        await self.run_and_send(lambda: self.autoplay.tick(tables, now, backlog), "", None)
        self.autoplay.flush()

    async def network_down(self, network: str) -> None:
        """The bot lost the connection to a network: that network's turn clocks stand still."""
        self.autoplay.network_down(network, list(self.tables.values()))

    async def network_up(self, network: str) -> None:
        self.autoplay.network_up(network, list(self.tables.values()))

    def _default_game(self) -> str:
        if self.settings.default_game in self.games:
            return self.settings.default_game
        return sorted(self.games)[0]

    # --- the pipeline ----------------------------------------------------------------------
    def attach(self, transport: Transport) -> None:
        """Register a transport for its network, or for each of its ``networks`` (a sharded Discord bot)."""
        for network in getattr(transport, "networks", None) or (transport.network,):
            self.transports[network] = transport

    def serves_page(self) -> bool:
        """Whether a transport attached serves the web chat's page (one saying ``serves_page``)."""
        return any(getattr(transport, "serves_page", False) for transport in self.transports.values())

    async def handle(self, incoming: Incoming) -> None:
        """Process one line, send its answers once its writes are on disk; then AIs to act think."""
        with self.measure.line(incoming.network) as seen:
            work = lambda: seen.after(self._process(incoming))  # noqa: E731
            await self.run_and_send(work, incoming.network, incoming.user.nick, incoming.user)
        self.autoplay.flush()

    def process(self, incoming: Incoming) -> list[Outgoing]:
        """Everything the bot answers to one line, with the state already updated and committed."""
        unit, messages = self._in_unit(
            lambda: self._process(incoming), incoming.network, incoming.user.nick, incoming.user
        )
        if not unit.settled:
            self.store.commit_now()
        if not unit.ok:
            return unsaved(incoming.network, incoming.user.nick)
        return messages + self._after_commit(unit, incoming.user)

    async def run_and_send(
        self, work: Callable[[], list[Outgoing]], network: str, nick: str | None, speaker: User | None = None
    ) -> None:
        """Run ``work`` (a line, an identity event, a timer's action) as one unit of the store,
        then send what it answered once its writes are committed.

        Anything that changes tables outside a line should go through here, so
        its writes join a group commit and the seat index follows its changes.
        """
        unit, messages = self._in_unit(work, network, nick, speaker)  # stages 1-4, the unit closing (5)
        if not unit.settled:
            await self.store.commit(unit)  # 5. commit, with every line's that arrived meanwhile
        if not unit.ok:
            await self.send_all(unsaved(network, nick))
            return
        await self.send_all(messages)  # 6. after the commit; 7. deliver
        if unit.after or unit.reads:  # then what it left to read, where the loop does not wait for it
            later = self._send_after_commit(unit, speaker)
            if self.store.remote:  # a server may be slow to answer: the line is done, its reads follow
                self.spawn(later)
            else:
                await later

    async def _send_after_commit(self, unit: Unit, speaker: User | None) -> None:
        await self.send_all(await self.store.read(lambda: self._after_commit(unit, speaker)))

    def _after_commit(self, unit: Unit, speaker: User | None) -> list[Outgoing]:
        """The ratings of the games ``unit`` ended and the answers it left to read from the records."""
        return self.rating.lines(unit) + self.localizer.localize(read_answers(unit), speaker)

    def _in_unit(
        self, work: Callable[[], list[Outgoing]], network: str, nick: str | None, speaker: User | None = None
    ) -> tuple[Unit, list[Outgoing]]:
        """``work`` and the localizing of its answers (4) in one unit; table-changed as the unit closes.

        ``speaker``: whose line the work answers (their private answers follow their ``/lang``).
        """
        self._units += 1
        return self.commit.run(lambda: self.localizer.localize(work(), speaker), network, nick)

    def _process(self, incoming: Incoming) -> list[Outgoing]:
        line = clean(incoming, self.settings.nick)  # 1. sanitize
        if line is None:
            return []
        with language(self.language_choices.line_language(line)):
            return self._spoken(line)

    def _spoken(self, line: Line) -> list[Outgoing]:
        """One line from a person, answered in the language already chosen for it."""
        back: list[Outgoing] = []
        if line.channel is not None:  # a player the AI stood in for is back the moment they say anything here
            table = self.tables.get((line.network, line.channel.lower()))
            if table is not None and table.running:
                back = table.person_spoke(line.user.key, self.actor(line.network, line.user))
        back += self.returns.came_back(
            self.tables_of_person(line.network, line.user.key),
            line.network,
            self.actor(line.network, line.user),
            line.channel,
            lang=self.person_language(line.network, line.user.key),
        )
        return back + self._line(line)

    def _line(self, line: Line) -> list[Outgoing]:
        """One sanitised line through the stages: read, gate, dispatch."""
        table = self.tables.get((line.network, line.channel.lower())) if line.channel else None
        if table is not None:
            self.use(table)
        ahead, self._read_ahead = self._read_ahead, None
        if ahead is not None and ahead[:2] == (line, self._units - 1):  # read by ``is_addressed`` just now
            reading = ahead[2]
        else:
            reading = read(line, self.settings.nick, lambda: self._playing_table(line))  # 1. read
        if reading.chatter:
            return []  # never answered
        refused = self.gate.refusal(line)  # 2. line length and rate limit
        if refused is not None:
            return refused
        if reading.hint:
            return reading.hint
        self.measure.read_as(  # the game is read once the line is done (a /new or /join makes the table)
            "move" if reading.is_move else "command",
            lambda: (t := self.only_table(line.network, line.channel, line.user.key)) and t.game_name,
        )
        if reading.is_move:
            return dispatch.move(self, line)  # 3. dispatch (with 2. the permission checks)
        assert reading.command is not None
        return dispatch.command(self, line, reading.command)

    async def send_all(self, messages: list[Outgoing]) -> None:
        await deliver(self.transports, self.localizer, messages)  # 7. deliver

    def is_addressed(self, network: str, channel: str | None, user: User, text: str) -> bool:
        """Whether the hub takes this line as a table command, a move or a near-miss of one (not chatter).

        The same reading as ``_line``, without answering.
        """
        text = sanitize(text)
        if not text:
            return False
        line = Line(network, channel, user, text)
        reading = read(line, self.settings.nick, lambda: self._playing_table(line))
        # the line is handled next, in the next unit: it is not read twice
        self._read_ahead = (line, self._units, reading)
        return not reading.chatter

    # --- finding tables -----------------------------------------------------------------------
    async def idle(self) -> None:
        """Wait until no background work (a pending leave being carried out) is running."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def table(self, network: str, channel: str) -> Table:
        key = (network, channel.lower())
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = self._new_table(None, network, channel, self._default_game())
        return self.use(table)

    def use(self, table: Table) -> Table:
        """Note that the current line uses ``table`` (its answer waits for the table's writes)."""
        return self.commit.use(table)

    def only_table(self, network: str, channel: str | None, key: str) -> Table | None:
        """The channel's table, or for a private line the one table ``key`` sits at (else None)."""
        if channel is not None:
            return self.tables.get((network, channel.lower()))
        seated = self.seated_tables(network, key)
        return seated[0] if len(seated) == 1 else None

    def _playing_table(self, line: Line) -> Table | None:
        """Where the speaker plays a running (or paused) game: the channel's table, or their only one."""
        table = self.only_table(line.network, line.channel, line.user.key)
        if table is None or table.game_seat_of(line.user.key) is None:
            return None
        return table if table.running or table.paused is not None else None

    def seated_tables(self, network: str, key: str) -> list[Table]:
        """The tables ``key`` sits at, from the seat index (no scan of every table)."""
        self.commit.refresh_outside()
        return [self.use(t) for t in self.index.tables_of(network, key) if t.seat_of(key) is not None]

    def _key_for_nick(self, network: str, nick: str) -> str:
        return self.index.key_of_nick(network, nick) or "n:" + nick.lower()

    def actor(self, network: str, user: User) -> Actor:
        """The speaker with their admin rights on ``network`` (``pipeline/admins``)."""
        return Actor(user, is_admin(self.admins.get(network, NO_ADMINS), user))

    def snapshot_all(self) -> None:
        """Snapshot every running game that moved since its last snapshot (shutdown), and commit."""
        self.snapshots.take_all(list(self.tables.values()))

    async def close(self, snapshot: bool = True) -> None:
        """Stop the clocks and background work, snapshot running games (unless done already), close."""
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(BaseException):
                await self._clock_task
            self._clock_task = None
        self.leaves.cancel_all()
        self.autoplay.shutdown()
        self.teacher.shutdown()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        if snapshot:
            try:
                self.snapshot_all()
            except Exception as error:
                log.error("the shutdown snapshots could not be written: %s", error)
        self.store.close()

    # --- the parts' answers, for the transports (``HubPort``) and command handlers (``CommandHost``) ---
    def default_game(self) -> str:
        return self._default_game()

    def channel_language(
        self, network: str, channel: str, settings: dict[str, str] | None = None
    ) -> str | None:
        return self.language_choices.channel_language(network, channel, settings)

    def person_language(self, network: str, key: str) -> str | None:
        return self.language_choices.person_language(network, key)

    def tables_of_person(self, network: str, key: str) -> list[Table]:
        return self.services.tables_of_person(network, key)

    def table_at(self, network: str, channel: str) -> Table | None:
        return self.services.table_at(network, channel)

    def seated_key(self, network: str, nick: str) -> str | None:
        return self.services.seated_key(network, nick)

    def set_pref(self, network: str, key: str, name: str, value: str) -> None:
        self.services.set_pref(network, key, name, value)

    def transport(self, network: str) -> Transport | None:
        return self.services.transport(network)

    def opening_call(self, network: str, channel: str, opener: User, game: str) -> list[Outgoing]:
        return self.services.opening_call(network, channel, opener, game)

    def seat_limit_refusal(self, network: str, user: User, table: Table) -> Outgoing | None:
        return self.services.seat_limit_refusal(network, user, table)

    def claim_seat(
        self, network: str, user: User, args: tuple[str, ...], public: bool = False
    ) -> list[Outgoing]:
        return self.identity.claim_seat(network, user, args, public)

    async def user_renamed(self, network: str, old: User, new: User) -> None:
        await self.identity.user_renamed(network, old, new)

    async def user_left(
        self, network: str, channel: str | None, user: User, grace: float | None = None
    ) -> None:
        await self.identity.user_left(network, channel, user, grace)

    async def user_returned(self, network: str, user: User) -> None:
        await self.identity.user_returned(network, user)

    @property
    def metrics(self) -> Metrics:
        """The bot's figures for ``/metrics``; a transport adds its own gauges and counts."""
        return self._metrics

    @property
    def bot_nick(self) -> str:
        return self.settings.nick

    @property
    def database(self) -> sqlite3.Connection:
        return self.store.db.conn

    def my_tables(self, network: str, key: str) -> list[dict[str, object]]:
        return self.views.my_tables(network, key)

    def seated(self, network: str, channel: str | None = None) -> list[SeatedPerson]:
        return self.views.seated(network, channel)

    def private_view(self, network: str, channel: str, key: str) -> str | None:
        return self.views.private_view(network, channel, key)

    def board_version(self, network: str, channel: str) -> object:
        return self.views.board_version(network, channel)

    def public_board(self, network: str, channel: str) -> str | None:
        return self.views.public_board(network, channel)

    def game_id(self, network: str, channel: str) -> int | None:
        return self.views.game_id(network, channel)

    def time_now(self) -> float:
        """The time on the tables' clock: a view's ``clock.now``, a web page's ``pong``."""
        return self.wall_clock()

    def table_view(self, network: str, channel: str, key: str | None) -> dict[str, object] | None:
        return self.views.table_view(network, channel, key)

    def room_views(self, network: str, channel: str, keys: Readers, wanted: WantedParts = None) -> RoomViews:
        return self.views.room_views(network, channel, keys, wanted)

    def view_version(self, network: str, channel: str, keys: Readers, wanted: WantedParts = None) -> Hashable:
        return self.views.view_version(network, channel, keys, wanted)

    def verb_commands(self, network: str, channel: str, key: str, verb: str | None) -> dict[str, Any] | None:
        return self.views.verb_commands(network, channel, key, verb)

    def page_language(self, network: str, channel: str | None, key: str | None) -> str | None:
        return self.views.page_language(network, channel, key)

    def public_line(self, text: str, lang: str) -> str:
        return self.views.public_line(text, lang)

    def reader_languages(self, network: str, channel: str, languages: frozenset[str]) -> None:
        if languages:
            self.read_in[(network, channel.lower())] = languages
        else:
            self.read_in.pop((network, channel.lower()), None)

    def client_language(self, network: str, key: str, tag: str | None) -> None:
        self.languages.client_says(network, key, tag)

    def replay_view(self, network: str, game_id: int) -> dict[str, object] | None:
        return self.views.replay_view(network, game_id)

    def has_game(self, network: str, game_id: int) -> bool:
        return self.views.has_game(network, game_id)

    def recent_games(self, network: str, limit: int) -> list[dict[str, object]]:
        return self.views.recent_games(network, limit)

    def game_titles(self) -> dict[str, str]:
        return self.views.game_titles()

    def drawn_table(self, network: str, channel: str) -> bool:
        return self.views.drawn_table(network, channel)

    def game_assets(self, game: str) -> Path | None:
        return self.views.game_assets(game)

    async def ratings_view(self, network: str, channel: str) -> dict[str, object]:
        return await self.views.ratings_view(network, channel)

    async def records(self, work: Callable[[], T]) -> T:
        """``work`` on the store's records (a transport's small tables) where the loop does not wait."""
        return await self.store.read(work)

    def snapshot(self) -> dict[str, object]:
        return self.views.snapshot()
