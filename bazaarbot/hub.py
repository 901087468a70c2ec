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
from bazaarbot.i18n import _, language, localized_text, ngettext, normalize_language
from bazaarbot.plugin import GamePlugin
from bazaarbot.registry import discover
from bazaarbot.sanitize import sanitize
from bazaarbot.seatcodes import SeatCodes
from bazaarbot.store import Store
from bazaarbot.table import Actor, Seat, Table
from bazaarbot.transports.base import Incoming, Outgoing, SeatedPerson, Tell, Transport, User
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

    def allow(self, network: str, key: str) -> tuple[bool, bool]:
        """(allowed, warn): warn when a refused user was not told in the last few seconds."""
        now = self.clock()
        bucket = self.buckets.get((network, key))
        if bucket is None:
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
        #: (network, nick in lower case) -> the identity that last spoke with that nick
        self._nick_keys: dict[tuple[str, str], str] = {}
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
        self._clock_task: asyncio.Task[None] | None = None
        #: (network, channel) -> the settings a table stored before this start
        self._table_prefs: dict[tuple[str, str], dict[str, str]] = {}
        self.autoplay = Autoplay(
            lambda out: self.send_all(self._apply_prefs(out)),
            self.spawn,
            lambda: ai_pool or AiPool(self.ai_settings.workers, self.ai_settings.levels),
            self.ai_settings.move_delay,
            self.table_settings.abandon_grace,
            wall_clock,
        )
        self._restore()

    @classmethod
    def open(cls, db: str | Path, **kwargs: object) -> Hub:
        """A hub on the sqlite file ``db`` (created if new), with every open table restored."""
        return cls(Store(db), **kwargs)  # type: ignore[arg-type]

    # --- start-up ------------------------------------------------------------------
    def _restore(self) -> None:
        for pref in self.store.prefs():
            self.prefs[(pref["network"], pref["user_key"], pref["name"])] = pref["value"]
            if pref["user_key"].startswith(("#", "&")) and pref["value"]:  # a table's own settings
                self._table_prefs.setdefault((pref["network"], pref["user_key"]), {})[pref["name"]] = pref[
                    "value"
                ]
        for row in self.store.load_tables():
            game = row.game if row.game in self.games else self._default_game()
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
            running = self.store.running_game(row.id)
            if running is not None:
                self._restore_game(table, running)
            self.tables[(row.network, row.channel.lower())] = table

    def _restore_game(self, table: Table, running: Any) -> None:
        """Replay a table's running game, in its channel's language."""
        with language(table.channel_language()):
            if running.plugin not in self.games:
                self.store.finish_game(
                    running.id, "abandoned", None, [], f"game {running.plugin} is no longer installed"
                )
            else:
                try:
                    table.restore_game(
                        running.id, running.plugin, running.seed, running.options, running.players
                    )
                except Exception:
                    log.exception("game %s could not be replayed; marked abandoned", running.id)
                    table.state = None
                    self.store.finish_game(running.id, "abandoned", None, [], "could not be replayed")

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
        return table

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
        out = self.autoplay.tick(list(self.tables.values()), now)
        await self.send_all(self._apply_prefs(out))
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
        """Process one line and send every answer before returning; then AIs that are to act think."""
        await self.send_all(self.process(incoming))
        self.autoplay.flush()

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
        if table is None:
            table = self._new_table(None, network, channel, self._default_game())
            self.tables[key] = table
        return table

    def seated_tables(self, network: str, key: str) -> list[Table]:
        return [t for (net, _c), t in self.tables.items() if net == network and t.seat_of(key) is not None]

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
        """A seated person's private view, in their language (or their table's)."""
        table = self.tables.get((network, channel.lower()))
        if table is None or not table.running:
            return None
        seat = table.game_seat_of(key)
        if seat is None:
            return None
        with language(self.person_language(network, key) or table.channel_language()):
            return table.plugin.private_view(table.state, seat)

    def public_board(self, network: str, channel: str) -> str | None:
        """The public board of the game running in a channel (for a transport's board pane), else None."""
        table = self.tables.get((network, channel.lower()))
        if table is None or not table.running:
            return None
        return table.board()

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
        """Everything the bot answers to one line, with the state already updated and saved."""
        try:
            return self._apply_prefs(self._process(incoming))
        except Exception:
            log.exception("line %r from %r failed", incoming.text, incoming.user)
            nick = sanitize(incoming.user.nick) or "?"
            return self._apply_prefs(
                [
                    Tell(
                        incoming.network,
                        nick,
                        _("Sorry, something went wrong with that line; nothing changed."),
                    )
                ]
            )

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
        """The identity behind a nick: who last spoke with it, else a seat that has it."""
        known = self._nick_keys.get((network, nick.lower()))
        if known is not None:
            return known
        for (net, _c), table in self.tables.items():
            if net != network:
                continue
            for seat in [*table.seats, *table.players]:
                if seat.nick.lower() == nick.lower():
                    return seat.key
        return "n:" + nick.lower()

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
        self._nick_keys[(network, raw_nick.lower())] = user.key
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
        is_move = False
        typo_hint: list[Outgoing] = []
        if command is None:
            playing = self._playing_table(network, channel, user)
            words = text.split()
            looks_like_move = playing is not None and playing.plugin.is_move(text[:200])
            if playing is not None and not looks_like_move and words[0].lower() in PLAIN_WORD_COMMANDS:
                command = Command(words[0].lower(), tuple(words[1:]))
            elif channel is None or looks_like_move:
                is_move = True
            else:
                typo_hint = self._typo_hint(network, playing, user, text) if playing is not None else []
                if not typo_hint:
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

    def _move(self, network: str, channel: str | None, user: User, text: str) -> list[Outgoing]:
        if channel is not None:
            table = self.tables[(network, channel.lower())]
            return table.move(self._actor(network, user), text)
        target, rest = self._private_target(network, user, text)
        if isinstance(target, list):
            return target
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
        """The table where ``user`` plays a running game: the channel's, or privately the only one."""
        if channel is not None:
            table = self.tables.get((network, channel.lower()))
        else:
            seated = self.seated_tables(network, user.key)
            table = seated[0] if len(seated) == 1 else None
        if table is None or not table.running or table.game_seat_of(user.key) is None:
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
            return table.move(self._actor(network, user), body)
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
        return self.tables.get((network, channel.lower()))

    def set_pref(self, network: str, key: str, name: str, value: str) -> None:
        self.store.set_pref(network, key, name, value)
        self.prefs[(network, key, name)] = value

    def transport(self, network: str) -> Transport | None:
        return self.transports.get(network)

    # --- identity events from transports ---------------------------------------------------
    async def user_renamed(self, network: str, old: User, new: User) -> None:
        """A nick change: every seat bound to the old identity follows it."""
        self.rename(network, old, new)

    def rename(self, network: str, old: User, new: User) -> None:
        nick = sanitize(new.nick)
        if not nick:
            return
        old_key, new_key = old.key, replace(new, nick=nick).key
        for (net, _c), table in self.tables.items():
            if net == network:
                table.rename(old_key, new_key, nick)
        self._cancel_leave(network, old_key)

    async def user_left(
        self, network: str, channel: str | None, user: User, grace: float | None = None
    ) -> None:
        """A part or quit: after ``grace`` seconds the leave path runs, unless the user comes back."""
        delay = self.settings.leave_grace if grace is None else grace
        key = user.key
        self._cancel_leave(network, key)
        if delay <= 0:
            await self.send_all(self.leave_now(network, channel, key))
            return
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._pending_leaves.pop((network, key), None)
            task = loop.create_task(self.send_all(self.leave_now(network, channel, key)))
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
        for (net, chan), table in list(self.tables.items()):
            if net != network or (channel is not None and chan != channel.lower()):
                continue
            if table.seat_of(key) is not None:
                with language(table.channel_language()):
                    out += table.remove(key, lambda who: _("{nick} is gone.").format(nick=who))
        return out

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
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        self.store.close()
