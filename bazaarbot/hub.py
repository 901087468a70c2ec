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
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from bazaarbot.commands import COMMANDS, Command, nearest_command, parse_command, sanitize
from bazaarbot.config import AdminPolicy, BotSettings, RateLimit
from bazaarbot.i18n import _, ngettext
from bazaarbot.plugin import GamePlugin
from bazaarbot.registry import discover
from bazaarbot.seatcodes import SeatCodes
from bazaarbot.store import Store
from bazaarbot.table import Actor, Seat, Table
from bazaarbot.transports.base import Incoming, Outgoing, Say, SeatedPerson, Tell, Transport, User

log = logging.getLogger(__name__)


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    warned: bool = False


@dataclass
class RateLimiter:
    """A token bucket per user: a burst of ``commands``, refilled over ``per_seconds``."""

    limit: RateLimit
    clock: Callable[[], float] = time.monotonic
    buckets: dict[tuple[str, str], _Bucket] = field(default_factory=dict)

    def allow(self, network: str, key: str) -> tuple[bool, bool]:
        """(allowed, warn): warn is true once when a user first runs dry."""
        now = self.clock()
        bucket = self.buckets.get((network, key))
        if bucket is None:
            bucket = self.buckets[(network, key)] = _Bucket(float(self.limit.commands), now)
        rate = self.limit.commands / self.limit.per_seconds
        bucket.tokens = min(float(self.limit.commands), bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.warned = False
            return True, False
        warn = not bucket.warned
        bucket.warned = True
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
    ) -> None:
        self.store = store
        #: networks whose users are not rate-limited (the local console drives many lines at once)
        self.unlimited_networks = unlimited_networks
        self.games = games if games is not None else discover()
        self.settings = settings or BotSettings()
        self.admins = admins or {}
        self.limiter = RateLimiter(self.settings.rate_limit, clock)
        self.codes = SeatCodes(store.db.conn)
        self.transports: dict[str, Transport] = {}
        self.tables: dict[tuple[str, str], Table] = {}
        self.prefs: dict[tuple[str, str, str], str] = {}
        self.started = time.time()
        self._pending_leaves: dict[tuple[str, str], asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._restore()

    @classmethod
    def open(cls, db: str | Path, **kwargs: object) -> Hub:
        """A hub on the sqlite file ``db`` (created if new), with every open table restored."""
        return cls(Store(db), **kwargs)  # type: ignore[arg-type]

    # --- start-up ------------------------------------------------------------------
    def _restore(self) -> None:
        for row in self.store.load_tables():
            game = row.game if row.game in self.games else self._default_game()
            table = Table(
                self.store,
                self.games,
                row.id,
                row.network,
                row.channel,
                game,
                row.options,
                row.host,
                [Seat(s.seat, s.user_key, s.nick) for s in row.seats],
                row.colors,
                self.settings.seed,
            )
            running = self.store.running_game(row.id)
            if running is not None:
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
            self.tables[(row.network, row.channel.lower())] = table
        for pref in self.store.prefs():
            self.prefs[(pref["network"], pref["user_key"], pref["name"])] = pref["value"]

    def _default_game(self) -> str:
        if self.settings.default_game in self.games:
            return self.settings.default_game
        return sorted(self.games)[0]

    # --- transports ------------------------------------------------------------------
    def attach(self, transport: Transport) -> None:
        self.transports[transport.network] = transport

    async def handle(self, incoming: Incoming) -> None:
        """Process one line and send every answer before returning."""
        await self.send_all(self.process(incoming))

    async def send_all(self, messages: list[Outgoing]) -> None:
        for message in messages:
            transport = self.transports.get(message.network)
            if transport is None:
                log.warning("no transport for network %s", message.network)
                continue
            try:
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
            table = Table(
                self.store,
                self.games,
                None,
                network,
                channel,
                self._default_game(),
                base_seed=self.settings.seed,
            )
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
        table = self.tables.get((network, channel.lower()))
        if table is None or not table.running:
            return None
        seat = table.game_seat_of(key)
        return None if seat is None else table.plugin.private_view(table.state, seat)

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
            return [
                Tell(
                    incoming.network, nick, _("Sorry, something went wrong with that line; nothing changed.")
                )
            ]

    def _apply_prefs(self, messages: list[Outgoing]) -> list[Outgoing]:
        out: list[Outgoing] = []
        for message in messages:
            if isinstance(message, Tell):
                key = message.key or self._key_for_nick(message.network, message.nick)
                if self.prefs.get((message.network, key, "notice")) == "on":
                    message = replace(message, notice=True)
            out.append(message)
        return out

    def _key_for_nick(self, network: str, nick: str) -> str:
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
        command = parse_command(text, self.settings.nick)
        table = self.tables.get((network, channel.lower())) if channel else None
        is_move = False
        if command is None:
            if channel is None:
                is_move = True
            else:
                running = table is not None and table.running and table.game_seat_of(user.key) is not None
                if not (running and table is not None and table.plugin.is_move(text[:200])):
                    return []  # chatter: never answered
                is_move = True
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

    def _private_target(self, network: str, user: User, text: str) -> tuple[Table | list[Outgoing], str]:
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
                    ).format(names=names, example=f"{tables[0].channel} {text[:30]}"),
                )
            ], text
        return tables[0], text

    def _actor(self, network: str, user: User) -> Actor:
        return Actor(user, is_admin(self.admins.get(network, AdminPolicy(ops_are_admins=False)), user))

    def _command(
        self, network: str, channel: str | None, user: User, command: Command, text: str
    ) -> list[Outgoing]:
        name, args = command.name, command.args
        if not command.known:
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
            near = nearest_command(name)
            hint = _(" Did you mean /{near}?").format(near=near) if near else _(" /help lists the commands.")
            return [
                Tell(
                    network, user.nick, _("I do not know the command {word!r}.").format(word=name[:30]) + hint
                )
            ]
        if name == "games":
            listed = "; ".join(
                f"{g.name} ({g.title}, {g.min_players}-{g.max_players} players)"
                if g.min_players != g.max_players
                else f"{g.name} ({g.title}, {g.min_players} players)"
                for g in sorted(self.games.values(), key=lambda g: g.name)
            )
            reply = _("Games: {listed}. Choose one with /new <game>.").format(listed=listed)
            return [self._reply(network, channel, user, reply)]
        if name == "help":
            return [Tell(network, user.nick, self._help(network, channel, user, args))]
        if name == "rules":
            if not args or args[0].lower() not in self.games:
                return [
                    Tell(
                        network,
                        user.nick,
                        _("Which game? /rules <game>, one of: {games}.").format(
                            games=", ".join(sorted(self.games))
                        ),
                    )
                ]
            game = self.games[args[0].lower()]
            return [Tell(network, user.nick, game.rules_summary or game.title)]
        if name == "notice":
            return [self._set_pref(network, user, "notice", args)]
        if name == "claim":
            return self.claim_seat(network, user, args)
        # the rest act on one table
        if channel is None:
            if name == "join" or name == "new":
                return [
                    Tell(
                        network,
                        user.nick,
                        _("Say /{name} in the channel of the table you want.").format(name=name),
                    )
                ]
            target, rest = self._private_target(network, user, " ".join(args) if args else "")
            if isinstance(target, list):
                return target
            table = target
            args = tuple(rest.split()) if args and args[0].startswith(("#", "&")) else args
        else:
            table = self.table(network, channel)
        actor = self._actor(network, user)
        if name in ("new", "join"):
            refusal = self.seat_limit_refusal(network, user, table)
            if refusal is not None:
                return [refusal]
        if name == "new":
            return table.new(actor, args)
        if name == "join":
            return table.join(actor, args)
        if name == "leave":
            return table.leave(actor)
        if name == "start":
            return table.start(actor)
        if name == "kick":
            return table.kick(actor, args)
        if name == "reset":
            return table.reset(actor)
        if name == "status":
            return [self._reply(network, channel, user, table.status())]
        if name == "board":
            return [self._reply(network, channel, user, table.board())]
        if name == "hand":
            return table.hand(actor)
        if name == "moves":
            return table.moves(actor, bool(args) and args[0].lower() == "all")
        if name == "colors":
            return self._colors(table, actor, args)
        raise AssertionError(name)

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

    def _reply(self, network: str, channel: str | None, user: User, text: str) -> Outgoing:
        if channel is None:
            return Tell(network, user.nick, text)
        return Say(network, channel, text)

    def _help(self, network: str, channel: str | None, user: User, args: tuple[str, ...]) -> str:
        if args:
            word = args[0].lower().lstrip("/!")
            if word == "moves" or word in self.games:
                game = self.games.get(word)
                if game is None:
                    table = self.tables.get((network, channel.lower())) if channel else None
                    seated = self.seated_tables(network, user.key)
                    if table is None and len(seated) == 1:
                        table = seated[0]
                    game = table.plugin if table else self.games.get(self._default_game())
                if game is not None:
                    return f"{game.title}: " + (game.command_help or game.rules_summary)
            if word in COMMANDS:
                return COMMANDS[word]
            near = nearest_command(word)
            return _("No help on {word!r}.").format(word=word[:30]) + (
                _(" Did you mean /{near}?").format(near=near) if near else ""
            )
        names = " ".join("/" + n for n in COMMANDS)
        return _(
            "Commands (start with / or !): {names}. In a game, type moves as plain words "
            "(/help moves). /help <command> for one command."
        ).format(names=names)

    def _set_pref(self, network: str, user: User, name: str, args: tuple[str, ...]) -> Outgoing:
        if not args or args[0].lower() not in ("on", "off"):
            return Tell(network, user.nick, _("Use /{name} on or /{name} off.").format(name=name))
        value = args[0].lower()
        self.store.set_pref(network, user.key, name, value)
        self.prefs[(network, user.key, name)] = value
        return Tell(network, user.nick, _("{name} is now {value} for you.").format(name=name, value=value))

    def _colors(self, table: Table, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        if not args or args[0].lower() not in ("on", "off"):
            return [table.tell(actor.user.nick, _("Use /colors on or /colors off."))]
        table.colors = args[0].lower() == "on"
        table.save_lobby()
        return [
            table.say(
                _("Colour hints are {state} at this table.").format(
                    state=_("on") if table.colors else _("off")
                )
            )
        ]

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
                out += table.remove(key, lambda who: _("{nick} is gone.").format(nick=who))
        return out

    async def close(self) -> None:
        for handle in self._pending_leaves.values():
            handle.cancel()
        self._pending_leaves.clear()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        self.store.close()
