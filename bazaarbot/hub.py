"""Routing: a line from any transport -> the right table -> messages back out.

The hub sanitises text, tells commands from moves from chatter, finds the
table for (network, channel), checks admin rights and per-user rate limits,
and sends what the table answers through the transport of that network.
``process`` is synchronous and does all of it but the sending, so tests and
fuzzers can drive the whole command path without a loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import functools
import logging
import sqlite3
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bazaarbot.ai import AiPool
from bazaarbot.autoplay import TICK_SECONDS, Autoplay
from bazaarbot.commands import REGISTRY, Command, CommandSpec, Context, Where, Who, parse_command
from bazaarbot.config import AdminPolicy, AiSettings, BotSettings, RateLimit, TableSettings
from bazaarbot.delivery import PacedTransport, Transport
from bazaarbot.gamelog import GameLogs
from bazaarbot.i18n import _, language, localized_text, ngettext, normalize_language
from bazaarbot.messages import Incoming, Outgoing, Say, SeatedPerson, Tell, User
from bazaarbot.plugin import GamePlugin
from bazaarbot.ratings import Ratings
from bazaarbot.registry import discover, web_folder
from bazaarbot.restore import reload_table, restore_into
from bazaarbot.sanitize import sanitize
from bazaarbot.seat_index import SeatIndex
from bazaarbot.seatcodes import SeatCodes
from bazaarbot.store import Store
from bazaarbot.store_writer import PREFS, Unit
from bazaarbot.table import Actor, Seat, Table
from bazaarbot.tableview import table_view
from bazaarbot.teach.replay import replay_view
from bazaarbot.teach.teacher import Teacher
from bazaarbot.typos import corrected_move

log = logging.getLogger(__name__)


#: a user over the rate limit is told so at most once in this many seconds (never silence for long)
RATE_WARNING_INTERVAL = 5.0

#: words a seated player may say plainly during their game, meaning the command of that name
PLAIN_WORD_COMMANDS = frozenset({"help", "moves", "hand", "board"})


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    warned_at: float | None = None


@dataclass
class RateLimiter:
    """A token bucket per user: a burst of ``commands``, refilled over ``per_seconds``."""

    limit: RateLimit
    clock: Callable[[], float] = time.monotonic
    buckets: dict[tuple[str, str], _Bucket] = field(default_factory=dict)

    #: past this many buckets, the ones refilled to the brim are dropped (memory stays bounded)
    prune_above: int = 10_000

    def allow(self, network: str, key: str) -> tuple[bool, bool]:
        """(allowed, warn): warn when a refused user was not told in the last few seconds."""
        now = self.clock()
        bucket = self.buckets.get((network, key))
        if bucket is None:
            if len(self.buckets) >= self.prune_above:
                self._prune(now)
            bucket = self.buckets[(network, key)] = _Bucket(float(self.limit.commands), now)
        rate = self.limit.commands / self.limit.per_seconds
        bucket.tokens = min(float(self.limit.commands), bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.warned_at = None
            return True, False
        warn = bucket.warned_at is None or now - bucket.warned_at >= RATE_WARNING_INTERVAL
        if warn:
            bucket.warned_at = now
        return False, warn

    def _prune(self, now: float) -> None:
        """Forget users whose bucket is full again: a new bucket for them would be the same."""
        idle = self.limit.per_seconds
        self.buckets = {k: b for k, b in self.buckets.items() if now - b.stamp < idle}
        # everybody still active: prune again only after as many new users again
        self.prune_above = max(self.prune_above, 2 * len(self.buckets))


def is_admin(policy: AdminPolicy, user: User) -> bool:
    """Admin by a secret the transport checked, services account, hostmask pattern, or vouched op status."""
    if user.is_admin:
        return True
    if user.account and user.account.lower() in policy.accounts:
        return True
    if user.mask and any(fnmatch.fnmatchcase(user.mask.lower(), m.lower()) for m in policy.masks):
        return True
    return policy.ops_are_admins and user.is_op


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
        #: the config's language per network, and per (network, channel) (a table's /lang channel wins)
        self.network_languages = dict(network_languages or {})
        self.channel_languages = {
            (net, chan.lower()): lang for (net, chan), lang in (channel_languages or {}).items()
        }
        #: networks whose users are not rate-limited (the local console drives many lines at once)
        self.unlimited_networks = unlimited_networks
        self.games = games if games is not None else discover()
        self.settings = settings or BotSettings()
        self.table_settings = tables or TableSettings()
        self.ai_settings = ai or AiSettings()
        #: each network's default turn clock (a network not named uses the ``[tables]`` default)
        self.turn_seconds = dict(turn_seconds or {})
        self.admins = admins or {}
        self.limiter = RateLimiter(self.settings.rate_limit, clock)
        self.codes = SeatCodes(store.db.conn)
        self.wall_clock = wall_clock
        self.transports: dict[str, Transport] = {}
        self.tables: dict[tuple[str, str], Table] = {}
        self.prefs: dict[tuple[str, str, str], str] = {}
        self.started = time.time()
        self._pending_leaves: dict[tuple[str, str], asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: who sits where, so no line scans every table
        self.index = SeatIndex()
        self._by_id: dict[int, Table] = {}
        #: table -> (game id, moves made) at its latest snapshot
        self._snap_at: dict[Table, tuple[int, int]] = {}
        #: table -> how many lines changed it (a transport re-renders a board only when this moves)
        self._changes: dict[Table, int] = {}
        #: the tables the line being processed used (None outside a line)
        self._touched: dict[Table, None] | None = None
        store.writer.on_failure = self._reload_failed
        self._clock_task: asyncio.Task[None] | None = None
        #: (network, channel) -> the settings a table stored before this start
        self._table_prefs: dict[tuple[str, str], dict[str, str]] = {}
        self.autoplay = Autoplay(
            self.send_all,
            self.spawn,
            lambda: ai_pool or AiPool(self.ai_settings.workers, self.ai_settings.levels),
            self.ai_settings.move_delay,
            self.table_settings.abandon_grace,
            wall_clock,
            run=lambda work: self.run_and_send(work, "", None),
        )
        self.ratings = Ratings(
            self.store, self.settings.ratings.min_games, {name: g.title for name, g in self.games.items()}
        )
        self.teacher = Teacher(
            self.store,
            self.games,
            lambda: self.ai_settings.levels,
            lambda: self.autoplay.pool,
            self.spawn,
            self.run_and_send,
            self.person_language,
            review_pool=(lambda: ai_pool) if ai_pool is not None else None,
        )
        self._restore()
        self.ratings.catch_up()

    @classmethod
    def open(cls, db: str | Path, **kwargs: object) -> Hub:
        """A hub on the sqlite file ``db`` (created if new), with every open table restored."""
        return cls(Store(db), **kwargs)  # type: ignore[arg-type]

    # --- start-up ------------------------------------------------------------------
    def _restore(self) -> None:
        """Every table and running game from the file: a few queries, snapshots plus short tails."""
        for pref in self.store.prefs():
            self.prefs[(pref["network"], pref["user_key"], pref["name"])] = pref["value"]
            if pref["user_key"].startswith(("#", "&")) and pref["value"]:  # a table's own settings
                self._table_prefs.setdefault((pref["network"], pref["user_key"]), {})[pref["name"]] = pref[
                    "value"
                ]
        running = {}
        for found in self.store.running_games():
            running.setdefault(found.game.table_id, found)
        default = self._default_game()
        for row in self.store.load_tables():
            game = row.game if row.game in self.games else default
            table = self._new_table(
                row.id,
                row.network,
                row.channel,
                game,
                row.options,
                row.host,
                [Seat(s.seat, s.user_key, s.nick) for s in row.seats],
                row.colors,
            )
            game_row = running.get(row.id)
            with language(table.channel_language()):
                restore_into(table, game_row, self.store, self.games)
            if table.running and game_row is not None:
                snapshot = game_row.snapshot
                self._snap_at[table] = (game_row.game.id, snapshot.n if snapshot else 0)
            self.tables[(row.network, row.channel.lower())] = table
            self._by_id[row.id] = table
            self.index.update(table)

    def _new_table(
        self,
        table_id: int | None,
        network: str,
        channel: str,
        game: str,
        options: dict[str, Any] | None = None,
        host: str = "",
        seats: list[Seat] | None = None,
        colors: bool = False,
    ) -> Table:
        """A table with its stored settings, the network's defaults, and the hub watching its game."""
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
            options,
            host,
            seats,
            colors,
            self.settings.seed,
            settings=settings,
            default_turn_seconds=self.turn_seconds.get(network, self.table_settings.turn_seconds),
            default_takeover_level=self.table_settings.takeover_level,
        )
        table.wall_clock = self.wall_clock
        table.on_change = self.autoplay.changed
        table.language_of = lambda who: self.person_language(network, who)
        table.channel_language = lambda: self.channel_language(network, channel, table.settings)
        table.after_game = lambda game_id, table=table: self._rate_after_commit(table, game_id)
        return table

    def _rate_after_commit(self, table: Table, game_id: int) -> list[str]:
        """A game ended with a result: rate it once its result is committed (the ratings read it back).

        The game is kept with the line's unit, so it is rated after that unit's
        commit and never after another line's; outside a line the result is
        already on disk.
        """
        unit = self.store.writer.open
        if unit is None:
            return self.ratings.after_game(game_id)
        unit.after.append((table.network, table.channel, table.colors, game_id))
        return []

    def _ratings_lines(self, unit: Unit) -> list[Outgoing]:
        """The ratings line of every game that ended in ``unit`` (just committed)."""
        pending, unit.after = unit.after, []
        return [
            Say(network, channel, text, colors=colors)
            for network, channel, colors, game_id in pending
            for text in self.ratings.after_game(game_id)
        ]

    # --- languages ---------------------------------------------------------------------------
    def channel_language(
        self, network: str, channel: str, settings: dict[str, str] | None = None
    ) -> str | None:
        """A channel's language: its /lang channel, the config's channel, network; None: bot default."""
        if settings is None:
            table = self.tables.get((network, channel.lower()))
            settings = table.settings if table is not None else {}
        return (
            normalize_language(settings.get("lang"))
            or normalize_language(self.channel_languages.get((network, channel.lower())))
            or normalize_language(self.network_languages.get(network))
        )

    def _reader_language(self, message: Outgoing) -> str | None:
        """The language a private line's reader chose (None for a channel line or no choice)."""
        if not isinstance(message, Tell):
            return None
        return self.person_language(
            message.network, message.key or self._key_for_nick(message.network, message.nick)
        )

    def person_language(self, network: str, key: str) -> str | None:
        """The language a person chose with /lang (None: they hear the channel's)."""
        return normalize_language(self.prefs.get((network, key, "lang")))

    def _line_language(self, network: str, channel: str | None, user: User, text: str) -> str | None:
        """A line's language: its channel's, or for a private line its table's or the speaker's."""
        if channel is not None:
            return self.channel_language(network, channel)
        first = text.split(None, 2)
        named = [w for w in first[:2] if w.startswith(("#", "&"))]
        table = self.tables.get((network, named[0].lower())) if named else None
        if table is None:
            seated = self.seated_tables(network, user.key)
            table = seated[0] if len(seated) == 1 else None
        if table is not None:
            return self.channel_language(network, table.channel, table.settings)
        return self.person_language(network, user.key) or normalize_language(
            self.network_languages.get(network)
        )

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
        """Advance every turn clock to ``now`` (the wall clock by default) and send what that says."""
        backlog = {
            network: transport.backlog_seconds()
            for network, transport in self.transports.items()
            if isinstance(transport, PacedTransport)
        }
        await self.run_and_send(
            lambda: self.autoplay.tick(list(self.tables.values()), now, backlog), "", None
        )
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

    # --- transports ------------------------------------------------------------------
    def attach(self, transport: Transport) -> None:
        self.transports[transport.network] = transport

    async def handle(self, incoming: Incoming) -> None:
        """Process one line, send its answers once its writes are on disk; then AIs to act think."""
        await self.run_and_send(lambda: self._process(incoming), incoming.network, incoming.user.nick)
        self.autoplay.flush()

    async def run_and_send(self, work: Callable[[], list[Outgoing]], network: str, nick: str | None) -> None:
        """Run ``work`` (a line, an identity event, a timer's action) as one unit of the store,
        then send what it answered once its writes are committed.

        Anything that changes tables outside a line should go through here, so
        its writes join a group commit and the seat index follows its changes.
        """
        unit, messages = self._in_unit(work, network, nick)
        if not unit.settled:
            await self.store.commit(unit)
        if not unit.ok:
            await self.send_all(self._unsaved(network, nick))
            return
        await self.send_all(messages + self._ratings_lines(unit))

    async def send_all(self, messages: list[Outgoing]) -> None:
        for message in messages:
            transport = self.transports.get(message.network)
            if transport is None:
                log.warning("no transport for network %s", message.network)
                continue
            try:
                with language(self._reader_language(message)):  # what a transport adds (e.g. "/more")
                    await transport.send(message)
            except Exception:
                log.exception("sending to %s failed", message.network)

    async def idle(self) -> None:
        """Wait until no background work (a pending leave being carried out) is running."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def table(self, network: str, channel: str) -> Table:
        key = (network, channel.lower())
        table = self.tables.get(key)
        if table is not None:
            return self._use(table)
        if table is None:
            table = self._new_table(None, network, channel, self._default_game())
            self.tables[key] = table
        return self._use(table)

    def _use(self, table: Table) -> Table:
        """Note that the current line uses ``table`` (its answer waits for the table's writes)."""
        if self._touched is not None:
            self._touched[table] = None
        return table

    def seated_tables(self, network: str, key: str) -> list[Table]:
        """The tables ``key`` sits at, from the seat index (no scan of every table)."""
        self._refresh_outside()
        return [self._use(t) for t in self.index.tables_of(network, key) if t.seat_of(key) is not None]

    @property
    def bot_nick(self) -> str:
        return self.settings.nick

    @property
    def database(self) -> sqlite3.Connection:
        return self.store.db.conn

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
        with language(self.person_language(network, key) or table.channel_language()):
            return table.plugin.private_view(table.state, seat)

    def board_version(self, network: str, channel: str) -> object:
        """Changes whenever the channel's board may have: a transport renders the board only then."""
        table = self.tables.get((network, channel.lower()))
        if table is None:
            return None
        return (table.game_id, table.moves_made, self._changes.get(table, 0))

    def public_board(self, network: str, channel: str) -> str | None:
        """The public board of the game running in a channel (for a transport's board pane), else None."""
        table = self.tables.get((network, channel.lower()))
        if table is None or not table.running:
            return None
        return table.board()

    def table_view(self, network: str, channel: str, key: str | None) -> dict[str, object] | None:
        """A channel's table as structured data (``tableview``); private parts only for ``key``."""
        table = self.tables.get((network, channel.lower()))
        if table is None:
            return None
        running = (table.game_id, table.moves_made) if table.game_id is not None else None
        return table_view(table, self.game_logs.latest(table.id, running), key)

    @functools.cached_property
    def game_logs(self) -> GameLogs:
        """Replays of each table's latest game, for its log and its final board."""
        return GameLogs(self.store, self.games)

    def _reading(
        self, network: str, channel: str | None, user: User, text: str, command: Command | None
    ) -> tuple[Command | None, bool, list[Outgoing]]:
        """What a line is: (a command, or a move, or a typo hint); all empty for chatter."""
        if command is not None:
            return command, False, []
        playing = self._playing_table(network, channel, user)
        words = text.split()
        looks_like_move = playing is not None and playing.plugin.is_move(text[:200])
        if playing is not None and not looks_like_move and words[0].lower() in PLAIN_WORD_COMMANDS:
            return Command(words[0].lower(), tuple(words[1:])), False, []
        if channel is None or looks_like_move:
            return None, True, []
        live = playing is not None and playing.running
        return None, False, self._typo_hint(network, playing, user, text) if live and playing else []

    def is_addressed(self, network: str, channel: str | None, user: User, text: str) -> bool:
        """Whether the hub takes this line as a table command, a move or a near-miss of one (not chatter).

        The same reading as ``_line`` (``_reading``), without answering.
        """
        text = sanitize(text)
        if not text:
            return False
        command, is_move, hint = self._reading(
            network, channel, user, text, parse_command(text, self.settings.nick)
        )
        return command is not None or is_move or bool(hint)

    def replay_view(self, network: str, game_id: int) -> dict[str, object] | None:
        """A finished game of the network step by step, public facts only (``teach/replay.py``)."""
        return replay_view(self.store, self.games, network, game_id)

    def game_assets(self, game: str) -> Path | None:
        """The folder of a game's browser renderer (``plugins/<game>/web``), if it has one."""
        plugin = self.games.get(game)
        return None if plugin is None else web_folder(plugin)

    def ratings_view(self, network: str, channel: str) -> dict[str, object]:
        """The best players of the channel's game and the ratings of those at its table (for the web page)."""
        table = self.tables.get((network, channel.lower()))
        game = table.game_name if table is not None else self._default_game()
        seats = [] if table is None else (table.players if table.running else table.seats)
        view = self.ratings.view(network, game, [(s.key, s.nick) for s in seats])
        return {"room": channel, **view}

    def snapshot(self) -> dict[str, object]:
        """Figures for a health check."""
        return {
            "tables": len(self.tables),
            "running_games": sum(1 for t in self.tables.values() if t.running),
            "networks": sorted(self.transports),
            "uptime": round(time.time() - self.started, 1),
        }

    # --- the command path ----------------------------------------------------------------
    def process(self, incoming: Incoming) -> list[Outgoing]:
        """Everything the bot answers to one line, with the state already updated and committed."""
        unit, messages = self._in_unit(lambda: self._process(incoming), incoming.network, incoming.user.nick)
        if not unit.settled:
            self.store.commit_now()
        if not unit.ok:
            return self._unsaved(incoming.network, incoming.user.nick)
        return messages + self._ratings_lines(unit)

    def _unsaved(self, network: str, nick: str | None) -> list[Outgoing]:
        if not nick:
            return []
        return [
            Tell(
                network,
                sanitize(nick) or "?",
                _("Sorry, that could not be saved; nothing changed. Try again."),
            )
        ]

    def _in_unit(
        self, work: Callable[[], list[Outgoing]], network: str, nick: str | None
    ) -> tuple[Unit, list[Outgoing]]:
        """Run one line (or identity event) with its writes collected in one unit of the store."""
        store = self.store
        self._refresh_outside()
        unit = store.begin()
        outer = self._touched
        self._touched = touched = {} if outer is None else outer
        broken = False
        try:
            messages = self._apply_prefs(work())
            for table in self._written(unit):  # changed by a timer or an AI, not through a lookup
                touched.setdefault(table, None)
            for table in touched:
                self._maybe_snapshot(table)
                store.touch_table(table.id)
        except Exception:
            log.exception("a line from %r on %s failed", nick, network)
            unit.writes.clear()
            unit.after.clear()
            store.forget_created([unit])
            broken = True
            messages = (
                [
                    Tell(
                        network,
                        sanitize(nick) or "?",
                        _("Sorry, something went wrong with that line; nothing changed."),
                    )
                ]
                if nick
                else []
            )
        finally:
            store.end()
            self._touched = outer
        if outer is not None:
            return unit, messages
        if broken:
            store.commit_now()  # what other lines queued for these tables, before reading them back
            self._reload_tables(list(touched))
        for table in touched:
            if table.id is not None:
                self._by_id[table.id] = table
            self.index.update(table)
            if unit.writes:
                self._changes[table] = self._changes.get(table, 0) + 1
        return unit, messages

    def _written(self, unit: Unit) -> list[Table]:
        """The tables whose rows ``unit`` writes."""
        return self._tables_of_scopes(unit.scopes)

    def _tables_of_scopes(self, scopes: set[object]) -> list[Table]:
        found = []
        for scope in scopes:
            if not (isinstance(scope, tuple) and scope[0] == "table"):
                continue
            table = self._by_id.get(scope[1])
            if table is None:
                key = self.store.table_key(scope[1])
                table = self.tables.get((key[0], key[1].lower())) if key else None
                if table is not None:
                    self._by_id[scope[1]] = table
            if table is not None:
                found.append(table)
        return found

    def _refresh_outside(self) -> None:
        """Tables changed outside any line (directly, by a test or a start-up step): index them now."""
        writer = self.store.writer
        if writer.outside:
            scopes, writer.outside = writer.outside, set()
            for table in self._tables_of_scopes(scopes):
                self.index.update(table)

    def _maybe_snapshot(self, table: Table, force: bool = False) -> None:
        """Every ``snapshot_every`` moves (and at shutdown) the game's state joins the line's writes."""
        if not table.running or table.game_id is None:
            self._snap_at.pop(table, None)
            return
        game_id, at = self._snap_at.get(table, (table.game_id, 0))
        if game_id != table.game_id:
            at = 0
        every = self.settings.snapshot_every
        due = table.moves_made - at >= every if every > 0 else False
        # a step that may still be undone is not snapshotted: its undo must find it in the replayed tail
        if table.undo_point is not None:
            due = force = False
        if due or (force and table.moves_made > at):
            plugin = table.plugin
            self.store.save_snapshot(
                table.game_id, table.moves_made, plugin.rules_version, plugin.to_json(table.state)
            )
            at = table.moves_made
        self._snap_at[table] = (table.game_id, at)

    def _reload_failed(self, units: list[Unit]) -> None:
        """A commit did not make it: every table (and the preferences) it touched comes back from disk."""
        self.store.forget_created(units)
        tables: list[Table] = []
        for unit in units:
            if PREFS in unit.scopes:
                self._reload_prefs()
            tables += self._written(unit)
        self._reload_tables(list(dict.fromkeys(tables)))

    def _reload_tables(self, tables: list[Table]) -> None:
        for table in tables:
            old_id = table.id
            reload_table(table, self.store, self.games, self._default_game())
            if old_id is not None and table.id is None:
                self._by_id.pop(old_id, None)
            self._snap_at.pop(table, None)
            self._changes[table] = self._changes.get(table, 0) + 1
            self.index.update(table)

    def _reload_prefs(self) -> None:
        self.prefs = {(p["network"], p["user_key"], p["name"]): p["value"] for p in self.store.prefs()}

    def _apply_prefs(self, messages: list[Outgoing]) -> list[Outgoing]:
        """Each private line in its reader's language and the way they want it (NOTICE or not)."""
        out: list[Outgoing] = []
        for message in messages:
            if isinstance(message, Tell):
                key = message.key or self._key_for_nick(message.network, message.nick)
                lang = self.person_language(message.network, key)
                if lang:
                    message = replace(message, text=localized_text(message.text, lang))
                if self.prefs.get((message.network, key, "notice")) == "on":
                    message = replace(message, notice=True)
            out.append(message)
        return out

    def _key_for_nick(self, network: str, nick: str) -> str:
        return self.index.key_of_nick(network, nick) or "n:" + nick.lower()

    def _process(self, incoming: Incoming) -> list[Outgoing]:
        raw_nick = sanitize(incoming.user.nick)
        if not raw_nick:
            return []
        user = replace(
            incoming.user,
            nick=raw_nick,
            account=sanitize(incoming.user.account) if incoming.user.account else None,
        )
        network = incoming.network
        channel = sanitize(incoming.channel) if incoming.channel else None
        text = sanitize(incoming.text)
        if not text or raw_nick.lower() == self.settings.nick.lower():
            return []
        with language(self._line_language(network, channel, user, text)):
            return self._spoken(network, channel, user, text)

    def _spoken(self, network: str, channel: str | None, user: User, text: str) -> list[Outgoing]:
        """One line from a person, answered in the language already chosen for it."""
        back: list[Outgoing] = []
        if channel is not None:  # a player the AI stood in for is back the moment they say anything here
            table = self.tables.get((network, channel.lower()))
            if table is not None and table.running:
                back = table.person_spoke(user.key, self._actor(network, user))
        return back + self._line(network, channel, user, text)

    def _line(self, network: str, channel: str | None, user: User, text: str) -> list[Outgoing]:
        """One sanitised line: a command, a move, a near-miss of a move, or chatter."""
        command = parse_command(text, self.settings.nick)
        table = self.tables.get((network, channel.lower())) if channel else None
        if table is not None:
            self._use(table)
        command, is_move, typo_hint = self._reading(network, channel, user, text, command)
        if command is None and not is_move and not typo_hint:
            return []  # chatter: never answered
        if len(text) > self.settings.max_line:
            return [
                Tell(
                    network,
                    user.nick,
                    _("That line is too long ({n} characters; the limit is {m}).").format(
                        n=len(text), m=self.settings.max_line
                    ),
                )
            ]
        allowed, warn = (True, False)
        if network not in self.unlimited_networks:
            allowed, warn = self.limiter.allow(network, user.key)
        if not allowed:
            if warn:
                return [
                    Tell(
                        network,
                        user.nick,
                        _("Slow down, please: too many commands. Try again in a few seconds."),
                    )
                ]
            return []
        if typo_hint:
            return typo_hint
        if is_move:
            return self._move(network, channel, user, text)
        assert command is not None
        return self._command(network, channel, user, command, text)

    def _paused_refusal(self, table: Table, actor: Actor, spec: CommandSpec | None) -> list[Outgoing] | None:
        """A table whose game cannot go on under the installed rules takes only /reset by an admin."""
        if table.paused is None:
            return None
        if spec is not None and spec.name == "reset" and actor.is_admin:
            if table.game_id is not None:
                self.store.finish_game(table.game_id, "abandoned", None, [], table.paused)
            table.game_id = None
            table.paused = None
            return None
        return [table.say(table.paused)]

    def _move(self, network: str, channel: str | None, user: User, text: str) -> list[Outgoing]:
        if channel is not None:
            table = self.tables[(network, channel.lower())]
            return self._paused_refusal(table, self._actor(network, user), None) or table.move(
                self._actor(network, user), text
            )
        target, rest = self._private_target(network, user, text)
        if isinstance(target, list):
            return target
        paused = self._paused_refusal(target, self._actor(network, user), None)
        if paused is not None:
            return paused
        if not target.running or target.game_seat_of(user.key) is None:
            return [
                Tell(network, user.nick, _("You are not in a running game. /help lists what I understand."))
            ]
        if not target.plugin.is_move(rest):
            hint = self._typo_hint(network, target, user, rest)
            if hint:
                return hint
            return [
                Tell(
                    network,
                    user.nick,
                    _("I did not understand {text!r}. /moves lists your moves, /help the commands.").format(
                        text=rest[:60]
                    ),
                )
            ]
        return target.move(self._actor(network, user), rest)

    def _playing_table(self, network: str, channel: str | None, user: User) -> Table | None:
        """Where ``user`` plays a running (or paused) game: the channel's table, or privately the only one."""
        if channel is not None:
            table = self.tables.get((network, channel.lower()))
        else:
            seated = self.seated_tables(network, user.key)
            table = seated[0] if len(seated) == 1 else None
        if table is None or table.game_seat_of(user.key) is None:
            return None
        if not table.running and table.paused is None:
            return None
        return table

    def _typo_hint(self, network: str, table: Table, user: User, text: str) -> list[Outgoing]:
        """``Did you mean "take spice"?`` when one slip in the first word is all that keeps it from a move."""
        seat = table.game_seat_of(user.key)
        if seat is None:
            return []
        fixed = corrected_move(table.plugin, table.state, seat, text[:200])
        if fixed is None:
            return []
        return [Tell(network, user.nick, _('Did you mean "{move}"?').format(move=fixed))]

    def _private_target(
        self, network: str, user: User, text: str, command: str = ""
    ) -> tuple[Table | list[Outgoing], str]:
        """The table of a private line: named by a leading #channel, or the only one the user sits at."""
        first, _sep, rest = text.partition(" ")
        if first.startswith(("#", "&")):
            table = self.tables.get((network, first.lower()))
            if table is not None:
                self._use(table)
            if table is None or table.seat_of(user.key) is None:
                return [
                    Tell(
                        network, user.nick, _("You do not sit at a table in {channel}.").format(channel=first)
                    )
                ], rest
            return table, rest
        tables = self.seated_tables(network, user.key)
        if not tables:
            return [
                Tell(
                    network,
                    user.nick,
                    _("You sit at no table. Say /join in a channel to sit down; /help lists the commands."),
                )
            ], text
        if len(tables) > 1:
            names = ", ".join(t.channel for t in tables)
            return [
                Tell(
                    network,
                    user.nick,
                    _(
                        "You sit at several tables ({names}); start your line with "
                        "the channel, e.g. {example}."
                    ).format(
                        names=names,
                        example=(
                            f"{command} {tables[0].channel}"
                            if command
                            else f"{tables[0].channel} {text[:30]}"
                        ),
                    ),
                )
            ], text
        return tables[0], text

    def _actor(self, network: str, user: User) -> Actor:
        return Actor(user, is_admin(self.admins.get(network, AdminPolicy(ops_are_admins=False)), user))

    def _command(
        self, network: str, channel: str | None, user: User, command: Command, text: str
    ) -> list[Outgoing]:
        spec = REGISTRY.lookup(command.name) if command.known else None
        if spec is None:
            return self._unknown_command(network, channel, user, command, text)
        args = command.args
        if spec.where is Where.CHANNEL and channel is None:
            return [
                Tell(
                    network,
                    user.nick,
                    _("Say /{name} in the channel of the table you want.").format(name=spec.name),
                )
            ]
        if spec.where is Where.PRIVATE and channel is not None:
            return [Tell(network, user.nick, _("Say /{name} privately to me.").format(name=spec.name))]
        table: Table | None = None
        if spec.table:
            if channel is None:
                target, rest = self._private_target(network, user, " ".join(args), "/" + spec.name)
                if isinstance(target, list):
                    return target
                table = target
                args = tuple(rest.split()) if args and args[0].startswith(("#", "&")) else args
            else:
                table = self.table(network, channel)
        actor = self._actor(network, user)
        if table is not None:
            paused = self._paused_refusal(table, actor, spec)
            if paused is not None:
                return paused
        refusal = self._refusal(spec, table, actor)
        if refusal is not None:
            return [Tell(network, user.nick, refusal)]
        return spec.handler(Context(self, network, channel, actor, args, table))

    def _refusal(self, spec: CommandSpec, table: Table | None, actor: Actor) -> str | None:
        """Why ``actor`` may not use ``spec`` here, from its declared ``who``; None when they may."""
        if actor.is_admin or spec.who is Who.ANYONE:
            return None
        if spec.who is Who.ADMIN:
            return _("Only an admin can use /{name}.").format(name=spec.name)
        if table is None:
            return None
        if table.seat_of(actor.user.key) is None:
            return _("Only a seated player can use /{name}; /join first.").format(name=spec.name)
        if spec.who is Who.HOST and actor.user.key != table.host:
            return _("Only the host ({host}) or an admin can use /{name}.").format(
                host=table.host_nick(), name=spec.name
            )
        return None

    def seat_limit_refusal(self, network: str, user: User, table: Table) -> Outgoing | None:
        """A short refusal when sitting down at ``table`` would put the user at too many tables."""
        limit = self.settings.max_tables
        if network in self.unlimited_networks or table.seat_of(user.key) is not None:
            return None
        if len(self.seated_tables(network, user.key)) < limit:
            return None
        return Tell(
            network,
            user.nick,
            ngettext(
                "You sit at {n} table already, the limit; /leave one first.",
                "You sit at {n} tables already, the limit; /leave one first.",
                limit,
            ).format(n=limit),
        )

    def claim_seat(self, network: str, user: User, args: tuple[str, ...]) -> list[Outgoing]:
        """``/claim CODE``: the one-time code told at /join moves a seat to its owner's new address."""
        if len(args) != 1:
            return [Tell(network, user.nick, _("Use /claim <code>, the code I told you when you sat down."))]
        owner = self.codes.owner(network, args[0])
        table = self.tables.get((network, owner[0])) if owner else None
        if table is None:
            return [Tell(network, user.nick, _("That code is not valid here (each code works once)."))]
        out, old_key = table.claim_seat(self._actor(network, user), args[0])
        if old_key is not None:
            self._cancel_leave(network, old_key)
        return out

    def _unknown_command(
        self, network: str, channel: str | None, user: User, command: Command, text: str
    ) -> list[Outgoing]:
        """A word after the prefix that is no command: a move said with a prefix, or a typo."""
        table = self.tables.get((network, channel.lower())) if channel else None
        body = text.split(None, 1)[1] if text[:1] not in "/!" and " " in text else text[1:]
        if channel is None:
            seated = self.seated_tables(network, user.key)
            table = seated[0] if len(seated) == 1 else None
        if (
            table
            and table.running
            and table.game_seat_of(user.key) is not None
            and table.plugin.is_move(body)
        ):
            return self._use(table).move(self._actor(network, user), body)
        near = REGISTRY.nearest(command.name)
        hint = _(" Did you mean /{near}?").format(near=near) if near else _(" /help lists the commands.")
        return [
            Tell(
                network,
                user.nick,
                _("I do not know the command {word!r}.").format(word=command.name[:30]) + hint,
            )
        ]

    # --- services for command handlers (``commands.CommandHost``) -----------------------------
    def default_game(self) -> str:
        return self._default_game()

    def table_at(self, network: str, channel: str) -> Table | None:
        table = self.tables.get((network, channel.lower()))
        return self._use(table) if table is not None else None

    def seated_key(self, network: str, nick: str) -> str | None:
        for (net, _c), table in self.tables.items():
            if net == network:
                for seat in [*table.seats, *table.players]:
                    if seat.nick.lower() == nick.lower():
                        return seat.key
        return None

    def set_pref(self, network: str, key: str, name: str, value: str) -> None:
        self.store.set_pref(network, key, name, value)
        self.prefs[(network, key, name)] = value

    def transport(self, network: str) -> Transport | None:
        return self.transports.get(network)

    # --- identity events from transports ---------------------------------------------------
    async def user_renamed(self, network: str, old: User, new: User) -> None:
        """A nick change: every seat bound to the old identity follows it."""

        def work() -> list[Outgoing]:
            self.rename(network, old, new)
            return []

        await self.run_and_send(work, network, None)

    def rename(self, network: str, old: User, new: User) -> None:
        nick = sanitize(new.nick)
        if not nick:
            return
        old_key, new_key = old.key, replace(new, nick=nick).key
        self._refresh_outside()
        self.ratings.renamed(network, old_key, new_key)
        tables = dict.fromkeys(
            [*self.index.tables_of(network, old_key), *self.index.tables_of(network, new_key)]
        )
        for table in tables:
            self._use(table).rename(old_key, new_key, nick)
            self.index.update(table)
        self._cancel_leave(network, old_key)

    async def user_left(
        self, network: str, channel: str | None, user: User, grace: float | None = None
    ) -> None:
        """A part or quit: after ``grace`` seconds the leave path runs, unless the user comes back."""
        delay = self.settings.leave_grace if grace is None else grace
        key = user.key
        self._cancel_leave(network, key)
        if delay <= 0:
            await self.run_and_send(lambda: self.leave_now(network, channel, key), network, None)
            return
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._pending_leaves.pop((network, key), None)
            task = loop.create_task(
                self.run_and_send(lambda: self.leave_now(network, channel, key), network, None)
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._pending_leaves[(network, key)] = loop.call_later(delay, fire)

    async def user_returned(self, network: str, user: User) -> None:
        self._cancel_leave(network, user.key)

    def _cancel_leave(self, network: str, key: str) -> None:
        handle = self._pending_leaves.pop((network, key), None)
        if handle is not None:
            handle.cancel()

    def leave_now(self, network: str, channel: str | None, key: str) -> list[Outgoing]:
        out: list[Outgoing] = []
        for table in self.index.tables_of(network, key):
            if channel is not None and table.channel.lower() != channel.lower():
                continue
            if table.seat_of(key) is not None:
                with language(table.channel_language()):
                    out += self._use(table).remove(key, lambda who: _("{nick} is gone.").format(nick=who))
                self.index.update(table)
        return out

    def snapshot_all(self) -> None:
        """Snapshot every running game that moved since its last snapshot (shutdown), and commit."""
        self.store.begin()
        try:
            for table in self.tables.values():
                self._maybe_snapshot(table, force=True)
        finally:
            self.store.end()
        self.store.commit_now()

    async def close(self) -> None:
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(BaseException):
                await self._clock_task
            self._clock_task = None
        for handle in self._pending_leaves.values():
            handle.cancel()
        self._pending_leaves.clear()
        self.autoplay.shutdown()
        self.teacher.shutdown()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        try:
            self.snapshot_all()
        except Exception:
            log.exception("the shutdown snapshots could not be written")
        self.store.close()
