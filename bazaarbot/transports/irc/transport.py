"""The IRC transport: one network, one connection, kept alive for as long as the bot runs.

Built on the ``irc`` package's asyncio client for the connection itself
(``AioReactor``/``AioConnection``: connecting, TLS, the protocol, CR LF framing,
``LenientDecodingLineBuffer``). Every line the server sends is parsed and
dispatched here (``lines.parse``, ``_on_<command>``), not by the library's event
table, which knows no IRCv3 tags, accounts or CAP/SASL on asyncio. Around it:
CAP/SASL (``caps``), fair paced sending (``sendqueue``, ``fairqueue``), paging of
long private listings (``pager``), line fitting from the bot's real prefix
(``split``), identity tracking (``users``), bounce advice for private messages
(``delivery``) and colour hints (``colors``). ``start`` returns at once; a
background task connects, registers, identifies, joins, and on any loss
reconnects with jittered exponential backoff, then rejoins and resyncs the
channels.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import random
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from irc.client_aio import AioConnection, AioReactor
from irc.connection import AioFactory
from jaraco.stream.buffer import LenientDecodingLineBuffer

from bazaarbot.config import IrcNetwork
from bazaarbot.i18n import _
from bazaarbot.messages import Incoming, Outgoing, Say, Tell, User
from bazaarbot.speaking import may_speak
from bazaarbot.text.digits import number
from bazaarbot.transports.base import HubPort
from bazaarbot.transports.hello import hello
from bazaarbot.transports.irc import ctcp
from bazaarbot.transports.irc.aiturns import WaitingTurn, one_line
from bazaarbot.transports.irc.boards import Board
from bazaarbot.transports.irc.bulk import PublicBulk
from bazaarbot.transports.irc.caps import CapNegotiator
from bazaarbot.transports.irc.colors import Paint, paint_of, render, strip_formatting
from bazaarbot.transports.irc.delivery import FAILURES, DeliveryWatch, advice, bounced_nick
from bazaarbot.transports.irc.invited import InvitedChannels
from bazaarbot.transports.irc.lines import Line, clean, clean_word, join_lines, parse
from bazaarbot.transports.irc.pager import Page, Pager
from bazaarbot.transports.irc.prefix import incoming as typed_in
from bazaarbot.transports.irc.prefix import shown
from bazaarbot.transports.irc.readers import follow_rename, forget_reader
from bazaarbot.transports.irc.sendqueue import SendQueue
from bazaarbot.transports.irc.split import LINELEN, pack_lines, payload_budget, prefix_length, split_text
from bazaarbot.transports.irc.users import Left, Renamed, Returned, Roster, seat_user
from bazaarbot.transports.welcome_back import welcome_back

log = logging.getLogger(__name__)

#: how long the AI turns after a person's move are gathered before they leave without a person to act:
#: a run of four AI turns at the default pace of a second each (a Yspahan day change with two AIs)
#: fits, so a person's command is followed by at most one line per AI seat
AI_HOLD = 5.0
#: the most channels a network's users may invite the bot to
MAX_INVITED = 50

#: channel name prefixes: a Tell must never be addressed to one of these
CHANNEL_PREFIXES = ("#", "&", "+", "!")
#: commands whose arguments are secret and never logged
SECRET = ("AUTHENTICATE ", "PASS ", "PRIVMSG NICKSERV :IDENTIFY")


class _Connection(AioConnection):
    """An ``AioConnection`` that asks for capabilities first and hands every line to ``on_line``.

    The library's own dispatch (``_process_line`` and its handler tables) is not used: the
    transport parses and answers every line itself, PING included.
    """

    buffer_class = LenientDecodingLineBuffer
    transport: Any = None
    on_line: Callable[[str], None] = staticmethod(lambda line: None)
    on_lost: Callable[[], None] = staticmethod(lambda: None)
    first_lines: tuple[str, ...] = ()

    async def connect(  # type: ignore[override]
        self,
        server: str,
        port: int,
        nickname: str,
        password: str | None = None,
        username: str | None = None,
        ircname: str | None = None,
        connect_factory: Any = None,
    ) -> _Connection:
        """The library's connect, with ``first_lines`` (CAP LS) sent before PASS/NICK/USER."""
        if self.connected:
            self.disconnect("Changing servers")
        self.buffer = self.buffer_class()
        self.real_server_name = ""
        self.real_nickname = nickname
        self.server, self.port, self.server_address = server, port, (server, port)
        self.nickname = nickname
        self.username = username or nickname
        self.ircname = ircname or nickname
        self.password = password
        self.connect_factory = connect_factory or AioFactory()
        protocol = self.protocol_class(self, self.reactor.loop)
        self.transport, self.protocol = await self.connect_factory(protocol, self.server_address)
        self.connected = True
        for line in self.first_lines:
            self.send_raw(line)
        if self.password:
            self.pass_(self.password)
        self.nick(self.nickname)
        self.user(self.username, self.ircname)
        return self

    def process_data(self, new_data: bytes) -> None:
        self.buffer.feed(new_data)
        for line in self.buffer:
            if not line:
                continue
            try:
                self.on_line(line)
            except Exception:
                log.exception("handling %r failed", line[:200])

    def send_raw(self, string: str) -> None:
        if not any(string.upper().startswith(s) for s in SECRET):
            log.debug("to server: %s", string)
        if self.transport is None or self.transport.is_closing():
            raise ConnectionError("not connected")
        if not may_speak():  # past this process's lease: another process serves the network
            raise ConnectionError("this process's lease ran out")
        self.transport.write(self._prep_message(string))

    def disconnect(self, message: str = "") -> None:
        try:
            del self.connected
        except AttributeError:
            return
        if self.transport is not None and not self.transport.is_closing():
            with contextlib.suppress(Exception):
                self.quit(message)
            self.transport.close()
        self.on_lost()


class _Reactor(AioReactor):
    connection_class = _Connection


class IrcTransport:
    """One configured ``[[irc.networks]]`` entry, attached to the hub."""

    def __init__(
        self,
        settings: IrcNetwork,
        *,
        reconnect_min: float = 2.0,
        reconnect_max: float = 300.0,
        ping_interval: float = 60.0,
        read_timeout: float = 180.0,
        regain_interval: float = 60.0,
        rejoin_delay: float = 5.0,
        ai_hold: float = AI_HOLD,
        ctcp_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        #: the longest an AI turn's line waits for the next AI turn to join it (nobody else is to act)
        self.ai_hold = ai_hold
        self.network = settings.name
        self.reconnect_min = reconnect_min
        self.reconnect_max = reconnect_max
        self.ping_interval = ping_interval
        self.read_timeout = read_timeout
        self.regain_interval = regain_interval
        self.rejoin_delay = rejoin_delay
        self.hub: HubPort | None = None
        self.roster = Roster(settings.nick)
        self.caps = CapNegotiator(settings.sasl_account, settings.sasl_password)
        self.queue = SendQueue(
            self._write, settings.burst, settings.lines_per_second, may_send=self.roster.holds
        )
        self.delivery = DeliveryWatch()
        #: one CTCP answer per nick per ``ctcp.GAP`` seconds of ``ctcp_clock`` (tests move a fake one)
        self.ctcp_answers = ctcp.Answers(ctcp_clock)
        self.pager = Pager(settings.page_lines)
        #: what this network's users start a command with, and how the bot names commands here
        self.prefix = settings.command_prefix
        #: boards and lists people ask for in channels: each asker's share, the boards they were shown
        self.bulk = PublicBulk()
        self.nick = settings.nick
        self.user: str | None = None
        self.host: str | None = None
        self.linelen = LINELEN
        self.bot_mode: str | None = None
        self.whox = False
        self.registered = asyncio.Event()
        self.connections = 0
        self._connection: _Connection | None = None
        self._reactor: _Reactor | None = None
        self._lost = asyncio.Event()
        self._stopping = False
        self._nick_tries = 0
        self._last_data = time.monotonic()
        self._inbox: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._modes_asked: set[str] = set()
        #: an AI turn's lines, gathered until they are all here (channel -> (text, colours))
        self._ai_parts: dict[str, list[list[tuple[str, Paint]]]] = {}
        self._ai_step_open: set[str] = set()
        self._ai_timer: asyncio.TimerHandle | None = None
        #: per channel, the AI turns' line still waiting, which the next AI turn may join
        self._ai_waiting: dict[str, WaitingTurn] = {}
        #: the person whose line the hub is answering now (its private answers are bound to them)
        self._speaker: User | None = None
        self._syncing: set[str] = set()
        #: WHO queries still to ask (one channel at a time, so a rejoin never floods the server)
        self._who_wanted: collections.deque[tuple[str, str]] = collections.deque()
        #: the channel whose WHO is answering now (None: none asked)
        self._who_asked: str | None = None
        self._nick_room = max(len(n) for n in (settings.nick, *settings.alt_nicks)) + 2
        #: channels the network's users invited the bot to (``accept_invites``), kept in the store
        self.invited: InvitedChannels | None = None
        #: the writes of invites and kicks under way (in order, where the loop does not wait for them)
        self._keeping: set[asyncio.Task[None]] = set()

    # --- the Transport protocol ------------------------------------------------------------------
    async def start(self, hub: HubPort) -> None:
        """Begin connecting in the background and return."""
        self.hub = hub
        hub.attach(self)
        self.invited = await hub.records(lambda: InvitedChannels(hub.database, self.network))
        labels = {"network": self.network}
        hub.metrics.gauge(
            "bazaarbot_irc_queue_lines", "Lines waiting in the IRC send queue", self._waiting, labels
        )
        hub.metrics.counted(
            "bazaarbot_irc_lines_sent", "Lines sent to the IRC server", lambda: self.queue.sent, labels
        )
        self._stopping = False
        self.queue.start()
        loop = asyncio.get_running_loop()
        for coro, name in (
            (self._run(), "connect"),
            (self._dispatch(), "dispatch"),
            (self._keepalive(), "keepalive"),
            (self._regain(), "regain"),
        ):
            self._tasks.append(loop.create_task(coro, name=f"irc-{self.network}-{name}"))

    async def stop(self, message: str = "bazaarbot is going away", drain: float = 3.0) -> None:
        """Send what is queued (for up to ``drain`` seconds), QUIT and close."""
        self._stopping = True
        self._flush_ai_turns()  # AI turns held for the next one leave now
        connection = self._connection
        if connection is not None and connection.connected and self.registered.is_set() and drain > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.queue.drained(), drain)
        if connection is not None and connection.connected:
            connection.disconnect(clean(message))
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        if self._keeping:  # the invites and kicks seen are kept before the transport is gone
            await asyncio.wait(list(self._keeping), timeout=drain)
        await self.queue.close()

    async def send(self, message: Outgoing) -> None:
        """Queue a Say for its channel or a Tell for its nick, split into safe lines."""
        if isinstance(message, Say):
            if message.ai_turn and not message.listing:
                self._ai_turn(message)
                return
            self._flush_ai_turns()
            self._ai_waiting.pop(self.roster.fold(clean_word(message.channel)), None)
            if message.listing:
                self._say_bulk(message)
            else:
                self._say(message.channel, message.text, paint_of(message.colors, message.players))
        elif isinstance(message, Tell):
            if message.key is not None and not self.roster.holds(message.nick, message.key):
                # the nick is held by somebody else now (or not known yet): never tell them the owner's lines
                log.info(
                    "%s: a private line for %s withheld: the nick is not its owner's now",
                    self.network,
                    message.nick,
                )
                return
            owner = message.key or self._reader(message.nick)
            self._tell(
                message.nick,
                message.text,
                message.notice,
                message.listing,
                message.commands,
                owner,
                paint_of(message.colors, message.players),
            )

    def _waiting(self) -> int:
        return len(self.queue.lines)

    def _sent(self) -> int:
        return self.queue.sent

    def backlog_seconds(self) -> float:
        """How long the lines queued now take to leave (a turn clock starts once its prompt is out)."""
        return self.queue.backlog_seconds()

    def _reader(self, nick: str) -> str | None:
        """Whom a private line without a key is for: the speaker being answered, else the nick's holder."""
        speaker = self._speaker
        known = speaker is not None and (speaker.mask or speaker.account)
        if known and self.roster.fold(speaker.nick) == self.roster.fold(clean_word(nick)):
            return speaker.key
        return self._holder(nick)

    def _holder(self, nick: str) -> str | None:
        """The identity holding ``nick`` now, when the roster knows its host or account."""
        user = self.roster.user(clean_word(nick))
        return user.key if user.mask or user.account else None

    def present(self, channel: str) -> list[User]:
        """The people in ``channel`` now, as the roster knows them (``/notify`` calls only them)."""
        chan = self.roster.channel(clean_word(channel))
        if chan is None:
            return []
        people = (self.roster.people.get(member) for member in chan.members)
        return [self.roster.user(p.nick) for p in people if p is not None and not self.roster.is_me(p.nick)]

    def next_page(self, nick: str, key: str | None = None) -> bool:
        """Queue the next page of the listing ``key`` (who holds ``nick``) asked for; False when none."""
        owner = key if key is not None else self._holder(nick)
        page = self.pager.next(self.roster.fold(clean_word(nick)), owner)
        if page is None:
            return False
        self._send_page(page)
        return True

    def _say(self, channel: str, text: str, paint: Paint = None) -> None:
        channel = clean_word(channel)
        if not channel.startswith(("#", "&")):
            log.warning("not a channel: %r", channel)
            return
        for line in self._channel_lines(channel, text, paint):
            self.queue.put(line, target=self.roster.fold(channel))

    def _ai_turn(self, message: Say) -> None:
        """Gather the AI turns of a channel until a person is to act (or ``ai_hold`` passed): one line.

        The lines sent together are one AI step; a step that leaves a person to act (its line
        mentions them) or any other line for the channel sends what was gathered.
        """
        channel = clean_word(message.channel)
        units = self._ai_parts.setdefault(channel, [])
        if channel not in self._ai_step_open:  # the first line of a step: a new unit
            units.append([])
            self._ai_step_open.add(channel)
            asyncio.get_running_loop().call_soon(self._ai_step_open.discard, channel)
        paint = paint_of(message.colors, message.players)
        units[-1].extend((part, paint) for part in message.parts or (message.text,))
        loop = asyncio.get_running_loop()
        if message.mentions:
            loop.call_soon(self._flush_ai_turns)
        elif self._ai_timer is None:
            self._ai_timer = loop.call_later(self.ai_hold, self._flush_ai_turns)

    def _flush_ai_turns(self) -> None:
        """Each channel's gathered AI turns leave packed in as few lines as fit, one line per turn at most,
        the first joined to the AI line still waiting in the queue when it fits there."""
        if self._ai_timer is not None:
            self._ai_timer.cancel()
            self._ai_timer = None
        parts, self._ai_parts = self._ai_parts, {}
        for channel, units in parts.items():
            if not channel.startswith(("#", "&")) or not units:
                continue
            paint = next((p for unit in units for _, p in unit if p is not None), None)

            def fits(text: str, channel: str = channel, paint: Paint = paint) -> bool:
                return len(self._channel_lines(channel, text, paint)) == 1

            texts = [one_line([t for t, _ in unit], fits) for unit in units if unit]
            target = self.roster.fold(channel)
            waiting = self._ai_waiting.get(target)
            current = ""
            if waiting is not None and self.queue.waiting.holds(target, waiting.item):
                current = waiting.text
            else:
                waiting = None
            packed: list[str] = []
            for text in texts:
                if current and fits(f"{current} {text}"):
                    current = f"{current} {text}"
                    continue
                if current:
                    packed.append(current)
                current = text
            packed.append(current)
            if waiting is not None:
                first = packed.pop(0)
                waiting.item.line = self._channel_lines(channel, first, paint)[0]
                waiting.text = first
            for text in packed:
                item = self.queue.put(self._channel_lines(channel, text, paint)[0], target=target)
                if item is not None:
                    self._ai_waiting[target] = WaitingTurn(item, text)

    def _channel_lines(self, channel: str, text: str, paint: Paint = None) -> list[str]:
        """The PRIVMSG lines that say ``text`` in ``channel``, each within the server's byte budget,
        coloured where ``paint`` asks and the channel allows."""
        colors = paint is not None
        budget = self._budget("PRIVMSG", channel)
        modes = self.roster.channel_modes(channel)
        if colors and modes is None:
            self._ask_modes(channel)  # plain text until we know the channel allows colour
        lines = []
        for piece in split_text(clean_lines(shown(text, self.prefix)), budget):
            line = render(piece, colors and modes is not None, modes or set(), paint or ())
            if len(line.encode()) > budget:
                line = strip_formatting(piece)
            lines.append(f"PRIVMSG {channel} :{line}")
        return lines

    def _say_bulk(self, message: Say) -> None:
        """A board or list somebody asked for: after the channel's moves, once, bounded per asker.

        A board already waiting for the channel answers a new request too (it is drawn as the
        table is when it leaves); the same board, or the same text, asked for again by the same
        person is not sent again; past the asker's share of the channel the answer goes to them privately.
        """
        channel = clean_word(message.channel)
        if not channel.startswith(("#", "&")):
            log.warning("not a channel: %r", channel)
            return
        target, asker, hub = self.roster.fold(channel), message.asked_by, self.hub
        who = asker.key if asker is not None else ""
        text, shows = message.text, None
        if message.board and hub is not None:
            if self.queue.waiting.showing(target):
                return
            version = hub.board_version(self.network, channel)
            if asker is not None and self.bulk.repeated(target, who, version):
                return
            text = hub.public_board(self.network, channel) or text  # as the table is now
            paint = paint_of(message.colors, message.players)
            shows = Board(hub, self.network, channel, lambda now: self._channel_lines(channel, now, paint))
            lines = shows.drawn(text)
        else:
            # the same answer (``/status``) asked for again moments later is not said again, as a board
            if asker is not None and self.bulk.repeated(target, who + "\0said", text):
                return
            lines = self._channel_lines(channel, text, paint_of(message.colors, message.players))
        if asker is not None and not self.bulk.public(target, who, len(lines)):
            note = _("Here it is privately, so that {channel} is not flooded:").format(channel=channel)
            self._tell(asker.nick, note + "\n" + text, owner=asker.key)  # whole: a board is not paged
            return
        for line in lines:
            self.queue.put(line, target=target, yields=True, shows=shows)

    def _ask_modes(self, channel: str) -> None:
        """Ask for a channel's modes once per join (ngircd charges a second of penalty for it)."""
        folded = self.roster.fold(channel)
        if folded not in self._modes_asked and self.roster.channel(channel) is not None:
            self._modes_asked.add(folded)
            self.queue.put(f"MODE {channel}", front=True)

    def _tell(
        self,
        nick: str,
        text: str,
        notice: bool = False,
        listing: bool = False,
        commands: bool = False,
        owner: str | None = None,
        paint: Paint = None,
    ) -> None:
        """Queue private lines for ``owner``; a listing is packed (commands) and paged, replacing the last;
        coloured where the reader asked (``paint``)."""
        nick = clean_word(nick)
        if not nick or nick.startswith(CHANNEL_PREFIXES):
            log.warning("refusing a private line to %r", nick)
            return
        command = "NOTICE" if notice else "PRIVMSG"
        key = self.roster.fold(nick)
        budget = self._budget(command, nick)
        text = clean_lines(shown(text, self.prefix))
        pieces = [strip_formatting(piece) for piece in split_text(text, budget)]
        if commands:
            pieces = pack_lines(pieces, budget)
        if paint is not None:  # a piece its colours would push past the budget stays plain
            painted = (render(piece, True, set(), paint) for piece in pieces)
            pieces = [
                p if len(p.encode()) <= budget else plain for p, plain in zip(painted, pieces, strict=True)
            ]
        if not listing:
            for piece in pieces:
                self.queue.put(f"{command} {nick} :{piece}", target=key, owner=owner)
        else:
            self.queue.drop_bulk(key)  # what was left unsent of an older listing
            self._send_page(self.pager.start(key, nick, command, pieces, owner))
        self.delivery.told(key)

    def _send_page(self, page: Page) -> None:
        key = self.roster.fold(page.nick)
        for piece in page.lines:
            piece = shown(piece, self.prefix)  # the page's "(n more lines: !more)"
            self.queue.put(f"{page.command} {page.nick} :{piece}", target=key, bulk=True, owner=page.owner)

    # --- sizes ----------------------------------------------------------------------------------
    def _budget(self, command: str, target: str) -> int:
        # room for the longest nick we may have by the time a queued line leaves (alternates, regain)
        nick = self.nick.ljust(self._nick_room, "_")
        return payload_budget(prefix_length(nick, self.user, self.host), command, target, self.linelen)

    # --- writing ----------------------------------------------------------------------------------
    def _write(self, line: str) -> None:
        connection = self._connection
        if connection is None or not connection.connected:
            raise ConnectionError("not connected")
        connection.send_raw(line)

    def _now(self, line: str) -> None:
        """A control line that must go at once (CAP, NICK during registration)."""
        try:
            self.queue.send_now(line)
        except Exception:
            log.debug("could not send %s", line.split(" ", 1)[0])

    # --- the connection loop ----------------------------------------------------------------------
    def _factory(self) -> AioFactory:
        if not self.settings.tls:
            return AioFactory()
        context = ssl.create_default_context()
        if not self.settings.tls_verify:
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        return AioFactory(ssl=context)

    async def _run(self) -> None:
        attempt = 0
        while not self._stopping:
            started = time.monotonic()
            try:
                await self._session()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning(
                    "%s: connection to %s:%s failed: %s",
                    self.network,
                    self.settings.host,
                    self.settings.port,
                    error,
                )
            if self._stopping:
                return
            attempt = 0 if time.monotonic() - started > 120 else attempt + 1
            delay = min(self.reconnect_max, self.reconnect_min * 2 ** min(attempt, 16))
            delay *= random.uniform(0.5, 1.0)
            log.info("%s: reconnecting in %.1f s", self.network, delay)
            await asyncio.sleep(delay)

    async def _session(self) -> None:
        """One connection: connect, register, and wait until it is lost."""
        loop = asyncio.get_running_loop()
        if self._reactor is None:
            self._reactor = _Reactor(loop=loop)
            self._connection = self._reactor.server()  # type: ignore[assignment]
        connection = self._connection
        assert connection is not None
        self.registered.clear()
        self.queue.pause()
        self._lost.clear()
        self.roster.reset()
        self._modes_asked.clear()
        self._who_wanted.clear()
        self._who_asked = None
        self.caps = CapNegotiator(self.settings.sasl_account, self.settings.sasl_password)
        self.nick = self.settings.nick
        self.roster.me = self.nick
        self._nick_tries = 0
        connection.on_line = self._on_line
        connection.on_lost = self._lost.set
        connection.first_lines = tuple(self.caps.start())
        self._last_data = time.monotonic()
        await asyncio.wait_for(
            connection.connect(
                self.settings.host,
                self.settings.port,
                self.settings.nick,
                password=self.settings.password,
                username=self.settings.username,
                ircname=self.settings.realname,
                connect_factory=self._factory(),
            ),
            30,
        )
        self.connections += 1
        try:
            await asyncio.wait_for(self.registered.wait(), 60)
        except TimeoutError:
            connection.disconnect("registration timed out")
            raise ConnectionError("registration timed out") from None
        if self.hub is not None:  # the turn clocks of this network run again
            await self.hub.network_up(self.network)
        await self._lost.wait()
        self.registered.clear()
        self.queue.pause()
        log.warning("%s: connection lost", self.network)
        if self.hub is not None:  # nobody here can answer now: the clocks stand still until we are back
            await self.hub.network_down(self.network)

    async def _keepalive(self) -> None:
        """PING when the line is quiet; drop a connection that has said nothing for ``read_timeout``."""
        while True:
            await asyncio.sleep(min(self.ping_interval, self.read_timeout) / 2)
            connection = self._connection
            if connection is None or not connection.connected:
                continue
            quiet = time.monotonic() - self._last_data
            if quiet > self.read_timeout:
                log.warning("%s: nothing from the server for %.0f s; reconnecting", self.network, quiet)
                connection.disconnect("ping timeout")
            elif quiet > self.ping_interval:
                self._now("PING :keepalive")

    async def _regain(self) -> None:
        """Take the configured nick back when we had to use an alternate."""
        while True:
            await asyncio.sleep(self.regain_interval)
            self._try_regain()

    def _try_regain(self) -> None:
        if self.registered.is_set() and self.roster.fold(self.nick) != self.roster.fold(self.settings.nick):
            self.queue.put(f"NICK {self.settings.nick}", front=True)

    async def _dispatch(self) -> None:
        """Hub calls, one after another, in the order the lines came."""
        while True:
            call = await self._inbox.get()
            try:
                await call()
            except Exception:
                log.exception("%s: the hub failed on an event", self.network)

    def _hub(self, call: Callable[[], Awaitable[None]]) -> None:
        if self.hub is not None:
            self._inbox.put_nowait(call)

    # --- reading ----------------------------------------------------------------------------------
    def _on_line(self, raw: str) -> None:
        self._last_data = time.monotonic()
        line = parse(raw)
        if line is None:
            return
        if not self.caps.done or line.command in ("CAP", "AUTHENTICATE") or line.command.isdigit():
            for out in self.caps.feed(line):
                self._now(out)
        for event in self.roster.feed(line):
            self._identity(event)
        handler = getattr(self, "_on_" + line.command.lower(), None)
        if handler is not None:
            handler(line)
        elif line.command in FAILURES:
            self._bounced(line)

    def _identity(self, event: Renamed | Left | Returned) -> None:
        hub, network = self.hub, self.network
        if hub is None:
            return
        if isinstance(event, Renamed):
            old, new = self.roster.fold(event.old.nick), self.roster.fold(event.new.nick)
            self.delivery.renamed(old, new)
            follow_rename(self.queue.waiting, self.pager, event.old, event.new, old, new)
            self._hub(lambda: hub.user_renamed(network, event.old, event.new))
            if self.roster.fold(event.old.nick) == self.roster.fold(self.settings.nick):
                self._try_regain()
        elif isinstance(event, Left):
            folded = self.roster.fold(event.user.nick)
            if event.channel is None or folded not in self.roster.people:
                forget_reader(self.queue, self.pager, folded)  # quit, or parted the last channel we share
            grace = self.settings.leave_grace
            self._hub(lambda: hub.user_left(network, event.channel, event.user, grace))
            if self.roster.fold(event.user.nick) == self.roster.fold(self.settings.nick):
                self._try_regain()
        else:
            self._hub(lambda: welcome_back(self.hub, network, event.channel, event.user, self.send))

    def _on_ping(self, line: Line) -> None:
        """Answer the server's PING at once (a server drops a client that does not)."""
        self._now(f"PONG :{clean(line.param(-1))}")

    def _on_001(self, line: Line) -> None:
        self.nick = line.param(0, self.nick)
        self.roster.me = self.nick
        last = line.param(-1).split(" ")[-1]
        if "!" in last and "@" in last:
            self._learn_mask(last)
        self._after_welcome()

    def _learn_mask(self, mask: str) -> None:
        nick, _bang, rest = mask.partition("!")
        user, _at, host = rest.partition("@")
        if self.roster.fold(nick) == self.roster.fold(self.nick) and user and host:
            self.user, self.host = user, host

    def _after_welcome(self) -> None:
        settings = self.settings
        front: list[str] = []
        if settings.nickserv_password and self.caps.sasl != "ok":
            account = settings.sasl_account or settings.nick
            secret = clean(settings.nickserv_password)
            front.append(f"PRIVMSG NickServ :IDENTIFY {clean_word(account)} {secret}")
        if settings.nickserv_password and self.roster.fold(self.nick) != self.roster.fold(settings.nick):
            # the nick is held (a frozen process of this bot that another took over from, the ghost of
            # the last connection): the services end the holder's connection, and the nick is ours
            main, secret = clean_word(settings.nick), clean(settings.nickserv_password)
            front += [f"PRIVMSG NickServ :GHOST {main} {secret}", f"NICK {main}"]
        front += join_lines([clean_word(channel) for channel in self._channels()])
        for out in reversed(front):
            self.queue.put(out, front=True)
        self.registered.set()
        self.queue.resume()
        log.info("%s: registered as %s", self.network, self.nick)

    def _on_005(self, line: Line) -> None:
        for token in line.params[1:-1]:
            name, _eq, value = token.partition("=")
            if name.upper() == "LINELEN" and (given := number(value)) is not None:
                self.linelen = max(LINELEN, given)
            elif name.upper() == "BOT" and value:
                self.bot_mode = value
            elif name.upper() == "WHOX":
                self.whox = True

    def _on_376(self, line: Line) -> None:
        if self.bot_mode:
            self.queue.put(f"MODE {self.nick} +{self.bot_mode}", front=True)

    _on_422 = _on_376

    def _on_396(self, line: Line) -> None:
        if len(line.params) >= 2:
            self.host = line.params[1]

    def _nick_in_use(self, line: Line) -> None:
        if self.registered.is_set():
            return  # a regain attempt failed; the timer tries again
        candidates = [*self.settings.alt_nicks]
        self._nick_tries += 1
        if self._nick_tries <= len(candidates):
            nick = candidates[self._nick_tries - 1]
        else:
            nick = f"{self.settings.nick}{'_' * (self._nick_tries - len(candidates))}"[:30]
        self.nick = nick
        self.roster.me = nick
        self._now(f"NICK {clean_word(nick)}")

    _on_432 = _on_433 = _on_437 = _nick_in_use

    def _on_nick(self, line: Line) -> None:
        if self.roster.fold(line.param(0)) == self.roster.fold(self.roster.me):
            self.nick = line.param(0)

    def _on_join(self, line: Line) -> None:
        if not self.roster.is_me(line.nick):
            return
        self._learn_mask(line.source)
        channel = clean_word(line.param(0))
        self._modes_asked.discard(self.roster.fold(channel))
        self._syncing.add(self.roster.fold(channel))
        # NAMES (sent with the JOIN) gives nicks and ops; every line a user sends carries their
        # hostmask (and account tag). Only accounts need WHOX, where there are no account tags.
        if self.whox and "account-notify" in self.caps.enabled and "account-tag" not in self.caps.enabled:
            self._ask_who(channel, f"WHO {channel} %tcuhnfa,42")
        else:  # seats are bound to user@host: learn who is who before anything private is sent
            self._ask_who(channel, f"WHO {channel}")

    def _ask_who(self, channel: str, query: str) -> None:
        """Ask WHO of one channel at a time: a rejoin of many channels asks them in turn, each after the
        last one's answer, so the server never holds the bot's lines (answers to people) behind a burst."""
        self._who_wanted.append((self.roster.fold(channel), query))
        self._next_who()

    def _next_who(self) -> None:
        if self._who_asked is None and self._who_wanted:
            self._who_asked, query = self._who_wanted.popleft()
            self.queue.put(query)

    def _on_366(self, line: Line) -> None:
        """End of NAMES after we joined: seated players who are not in the channel get the leave grace."""
        channel = line.param(1)
        hub, network, grace = self.hub, self.network, self.settings.leave_grace
        folded = self.roster.fold(channel)
        if hub is None or folded not in self._syncing:
            return
        self._syncing.discard(folded)
        chan = self.roster.channel(channel)
        if chan is None:
            return
        for seat in hub.seated(network, channel):
            if self.roster.present(channel, seat.nick, seat.key):
                continue
            user = seat_user(seat.key, seat.nick)
            self._hub(lambda user=user: hub.user_left(network, channel, user, grace))

    def _on_315(self, line: Line) -> None:
        """End of WHO: a seat from before seats were bound to hosts moves to its holder's nick and host."""
        hub, network, channel = self.hub, self.network, line.param(1)
        if self._who_asked is not None and self.roster.fold(channel) == self._who_asked:
            self._who_asked = None
            self._next_who()
        if hub is None or self.roster.channel(channel) is None:
            return
        for seat in hub.seated(network, channel):
            if not seat.key.startswith("n:") or not self.roster.in_channel(seat.nick, channel):
                continue
            now = self.roster.user(seat.nick)
            if now.mask or now.account:
                old = User(seat.nick)
                self._hub(lambda old=old, now=now: hub.user_renamed(network, old, now))

    def _channels(self) -> list[str]:
        """The configured channels, then those the bot was invited to (each once)."""
        configured = {self.roster.fold(c) for c in self.settings.channels}
        invited = self.invited.channels() if self.invited is not None and self.settings.accept_invites else []
        return [*self.settings.channels, *(c for c in invited if self.roster.fold(c) not in configured)]

    def _on_invite(self, line: Line) -> None:
        """``/invite bazaarbot #channel``: joined and remembered where the network accepts invites."""
        channel = clean_word(line.param(1))
        if not self.settings.accept_invites or not self.roster.is_me(line.param(0)) or self.invited is None:
            return
        if not channel.startswith(("#", "&")) or self.roster.channel(channel) is not None:
            return
        if len(self.invited.channels()) >= MAX_INVITED:
            log.warning(
                "%s: invited to %s by %s, but %d channels is the most",
                self.network,
                channel,
                line.nick,
                MAX_INVITED,
            )
            return
        log.info("%s: invited to %s by %s", self.network, channel, line.nick)
        self._keep(self.invited.add(self.roster.fold(channel)))
        self.queue.put(f"JOIN {channel}", front=True)
        for text_line in self._channel_lines(channel, hello()):  # how to start, once, on arrival
            self.queue.put(text_line, target=self.roster.fold(channel))

    def _on_kick(self, line: Line) -> None:
        if self.roster.is_me(line.param(1)):
            channel = clean_word(line.param(0))
            log.warning("%s: kicked from %s by %s", self.network, channel, line.nick)
            if self.invited is not None:
                self._keep(self.invited.forget(self.roster.fold(channel)))  # its operators do not want it
            if any(self.roster.fold(channel) == self.roster.fold(c) for c in self.settings.channels):
                asyncio.get_running_loop().call_later(
                    self.rejoin_delay, lambda: self.queue.put(f"JOIN {channel}")
                )

    def _keep(self, write: Callable[[], None]) -> None:
        """``write`` to the store where the event loop does not wait for it (after the writes before it)."""
        if self.hub is None:
            return
        task = asyncio.get_running_loop().create_task(self.hub.records(write))
        self._keeping.add(task)
        task.add_done_callback(self._kept)

    def _kept(self, task: asyncio.Task[None]) -> None:
        self._keeping.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s: an invited channel was not kept: %s", self.network, task.exception())

    def _on_chghost(self, line: Line) -> None:
        if self.roster.is_me(line.nick):
            self.user, self.host = line.param(0), line.param(1)

    def _join_failed(self, line: Line) -> None:
        log.warning("%s: cannot join %s: %s", self.network, line.param(1), line.param(-1)[:200])

    _on_403 = _on_405 = _on_471 = _on_473 = _on_474 = _on_475 = _join_failed

    def _on_404(self, line: Line) -> None:
        log.warning("%s: cannot speak in %s: %s", self.network, line.param(1), line.param(-1)[:200])

    def _on_error(self, line: Line) -> None:
        log.warning("%s: server error: %s", self.network, line.param(-1)[:200])

    def _on_900(self, line: Line) -> None:
        log.info("%s: logged in as %s", self.network, line.param(2))

    def _on_privmsg(self, line: Line) -> None:
        nick = line.nick
        if not nick or "!" not in line.source or self.roster.is_me(nick):
            return
        if "bot" in line.tags or "draft/bot" in line.tags:
            return  # another bot: never answered
        target, text = line.param(0), typed_in(line.param(1), self.prefix)
        query = ctcp.parse(line.param(1))
        if query is not None:  # CTCP (including /me): never a line for the game
            reply = ctcp.answer(*query)
            folded = self.roster.fold(nick)
            if reply is not None and self.ctcp_answers.allowed(folded):
                self.queue.put(
                    clean(f"NOTICE {clean_word(nick)} :{ctcp.MARK}{reply}{ctcp.MARK}"), target=folded
                )
            return
        hub = self.hub
        if hub is None:
            return
        if target.startswith(("#", "&")):
            self.delivery.spoke(self.roster.fold(nick), target)
            incoming = Incoming(self.network, target, self.roster.user(nick, target), text)
        elif self.roster.is_me(target):
            incoming = Incoming(self.network, None, self.roster.user(nick), text)
        else:
            return  # "@#chan" (ops only) and other targets are not for the bot
        self._hub(lambda: self._handle(hub, incoming))

    async def _handle(self, hub: HubPort, incoming: Incoming) -> None:
        """Hand a line to the hub; its private answers belong to whoever said it (``_speaker``)."""
        self._speaker = incoming.user
        try:
            await hub.handle(self._op_now(incoming))
        finally:
            self._speaker = None

    def _op_now(self, incoming: Incoming) -> Incoming:
        """Operator status when the hub takes the line, not when it arrived (a -o in between counts)."""
        if incoming.channel is None or not incoming.user.is_op:
            return incoming
        nick = incoming.user.nick
        still = self.roster.is_op(nick, incoming.channel) and self.roster.holds(nick, incoming.user.key)
        return (
            incoming
            if still
            else Incoming(
                incoming.network, incoming.channel, replace(incoming.user, is_op=False), incoming.text
            )
        )

    def _on_notice(self, line: Line) -> None:
        """Notices are never answered (that is how bot loops start)."""

    def _bounced(self, line: Line) -> None:
        nick = bounced_nick(line.params)
        if line.command == "401" and nick:
            forget_reader(self.queue, self.pager, self.roster.fold(nick))  # no such nick: the rest is moot
        channel = self.delivery.bounced(self.roster.fold(nick))
        if channel is None:
            return
        if line.command == "401" and not self.roster.in_channel(nick, channel):
            return
        self._say(channel, advice(line.command, clean_word(nick), self.nick))


def clean_lines(text: str) -> str:
    """Newlines separate lines; a lone CR or a NUL becomes a space (never a line break on the wire)."""
    return text.replace("\r\n", "\n").replace("\r", " ").replace("\0", " ")
