"""A real IRC server (ngircd) for the tests, and raw IRC test clients.

``IrcServer`` runs ``ngircd -n -f CONF`` with a config of its own in a temporary
directory on a free loopback port; it can be killed and started again on the
same port (reconnect tests). Where ngircd is missing it falls back to
miniircd outside CI; with ``CI=true`` a missing ngircd fails the tests instead
of skipping them. ``RawClient`` speaks raw IRC lines over asyncio streams, so
a test controls and sees every byte.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bazaarbot.config import BotSettings, IrcNetwork, RateLimit
from bazaarbot.hub.hub import Hub
from bazaarbot.messages import Tell
from bazaarbot.store import Store
from bazaarbot.transports.irc import IrcTransport
from support.waits import wait_until as wait_until  # the suite's one wait, re-exported
from support.waits import wait_until_sync

NGIRCD = shutil.which("ngircd") or ("/usr/sbin/ngircd" if os.path.exists("/usr/sbin/ngircd") else None)
if os.environ.get("BAZAARBOT_IRC_SERVER") == "miniircd":  # try the fallback on a machine with ngircd
    NGIRCD = None
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ngircd_config(port: int, penalties: bool) -> str:
    """A minimal ngircd config: loopback only, no DNS/ident/PAM; ``penalties`` keeps default flood control."""
    limits = "" if penalties else "\tMaxPenaltyTime = 0\n"
    return (
        "[Global]\n"
        "\tName = irc.test\n"
        "\tInfo = bazaarbot test server\n"
        "\tListen = 127.0.0.1\n"
        f"\tPorts = {port}\n"
        "\tMotdPhrase = test server\n"
        "\tAdminInfo1 = tests\n"
        "\tAdminInfo2 = tests\n"
        "\tAdminEMail = tests@irc.test\n"
        "[Limits]\n"
        "\tMaxConnectionsIP = 0\n"
        "\tMaxJoins = 0\n"
        "\tMaxNickLength = 30\n"
        "\tPingTimeout = 120\n"
        "\tPongTimeout = 20\n"
        f"{limits}"
        "[Options]\n"
        "\tDNS = no\n"
        "\tIdent = no\n"
        "\tPAM = no\n"
    )


def irc_network_config(
    port: int, channels: list[str], burst: int, lines_per_second: float, extra: str = ""
) -> str:
    """The bot's ``[[irc.networks]]`` entry "local" for the test server on ``port`` (``extra``: more
    of its lines)."""
    listed = ", ".join(f'"{channel}"' for channel in channels)
    return (
        f'[[irc.networks]]\nname = "local"\nhost = "127.0.0.1"\nport = {port}\ntls = false\n'
        f'nick = "bazaarbot"\nalt_nicks = ["bazaarbot_"]\nchannels = [{listed}]\n'
        f"burst = {burst}\nlines_per_second = {lines_per_second}\n{extra}"
    )


class IrcServer:
    """One ngircd (or, outside CI, miniircd) process on a fixed loopback port."""

    def __init__(self, directory: Path, penalties: bool = False) -> None:
        self.directory = directory
        self.port = free_port()
        self.penalties = penalties
        self.kind = "ngircd" if NGIRCD else "miniircd"
        self.process: subprocess.Popen[bytes] | None = None
        self.conf = directory / "ngircd.conf"
        self.conf.write_text(ngircd_config(self.port, penalties))
        self.motd = directory / "motd"

    def _command(self) -> list[str]:
        if self.kind == "ngircd":
            assert NGIRCD is not None
            return [NGIRCD, "-n", "-f", str(self.conf.resolve())]
        miniircd = shutil.which("miniircd")
        if miniircd is None:
            pytest.skip("neither ngircd nor miniircd is installed (apt-get install ngircd)")
        command = [sys.executable, miniircd, "--listen", "127.0.0.1", "--ports", str(self.port)]
        if os.geteuid() == 0:
            command += ["--setuid", "nobody"]
        return command

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self.process = subprocess.Popen(
            self._command(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        process = self.process

        def listening() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"{self.kind} exited with {process.returncode}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return True
            return False

        wait_until_sync(listening, 10, f"{self.kind} to listen on {self.port}")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL): every client sees its connection drop."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(5)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None


def require_server() -> None:
    """Skip (outside CI) or fail (in CI) when no IRC server can run here."""
    if NGIRCD is None:
        if IN_CI:
            pytest.fail("ngircd is not installed; CI must install it (apt-get install -y ngircd)")
        if shutil.which("miniircd") is None:
            pytest.skip("no ngircd or miniircd here (apt-get install ngircd)")


def needs_ngircd(server: IrcServer, what: str) -> None:
    """Skip a test that relies on ngircd behaviour the miniircd fallback lacks (ops, KICK, user modes)."""
    if server.kind != "ngircd":
        pytest.skip(f"miniircd has no {what}")


class RawClient:
    """An IRC client that speaks raw lines: ``send`` writes one, ``expect`` waits for one that matches.

    ``ident`` is the user name sent with USER (ngircd shows it as ``~ident``)
    and ``source`` the loopback address it connects from (ngircd, with DNS
    off, shows it as the host): two clients with different ones are two
    different ``user@host`` under whatever nick they take.
    """

    def __init__(self, nick: str, port: int, ident: str | None = None, source: str = "127.0.0.1") -> None:
        self.nick = nick
        self.port = port
        self.ident = ident or nick
        self.source = source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lines: list[str] = []
        self._seen = 0
        self._new = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def connect(self, channels: tuple[str, ...] = ()) -> RawClient:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.port, local_addr=(self.source, 0)
        )
        self._task = asyncio.create_task(self._read())
        self.send(f"NICK {self.nick}")
        self.send(f"USER {self.ident} 0 * :raw test client")
        await self.expect(lambda line: f" 001 {self.nick} " in line, timeout=10)
        for channel in channels:
            await self.join(channel)
        return self

    async def join(self, channel: str) -> None:
        self.send(f"JOIN {channel}")
        await self.expect(lambda line: f" 366 {self.nick} {channel} " in line.lower() or " 366 " in line)

    async def _read(self) -> None:
        assert self.reader is not None
        while True:
            data = await self.reader.readline()
            if not data:
                self.lines.append("<closed>")
                self._new.set()
                return
            line = data.decode("utf-8", "replace").rstrip("\r\n")
            if line.startswith("PING"):
                self.send("PONG" + line[4:])
            self.lines.append(line)
            self._new.set()

    def send(self, line: str) -> None:
        """Write one raw line (CR LF added)."""
        assert self.writer is not None
        self.writer.write(line.encode() + b"\r\n")

    def send_bytes(self, data: bytes) -> None:
        assert self.writer is not None
        self.writer.write(data)

    def say(self, target: str, text: str) -> None:
        self.send(f"PRIVMSG {target} :{text}")

    async def expect(self, match: Callable[[str], bool] | str, timeout: float = 20.0) -> str:
        """The next unseen line that matches (a predicate, or a substring); fails after ``timeout``."""
        test = match if callable(match) else (lambda line: match in line)
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            while self._seen < len(self.lines):
                line = self.lines[self._seen]
                self._seen += 1
                if test(line):
                    return line
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"{self.nick}: no line matching {match!r}; last: {self.lines[-8:]}")
            self._new.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)

    def since(self) -> list[str]:
        """Lines not yet consumed by ``expect`` (and mark them seen)."""
        out = self.lines[self._seen :]
        self._seen = len(self.lines)
        return out

    async def close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.send("QUIT :bye")
                await self.writer.drain()
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


#: the test network's name and the channel most tests play in
NET = "testnet"
CHAN = "#bazaar"


def network_settings(server: IrcServer, **overrides: object) -> IrcNetwork:
    """An ``[[irc.networks]]`` entry for the test server: plain TCP, fast pacing unless overridden."""
    values: dict[str, object] = {
        "name": NET,
        "host": "127.0.0.1",
        "port": server.port,
        "tls": False,
        "nick": "bazaarbot",
        "channels": (CHAN,),
        "burst": 50,
        "lines_per_second": 500.0,
        "leave_grace": 30.0,
    }
    values.update(overrides)
    return IrcNetwork(**values)  # type: ignore[arg-type]


def make_hub(
    directory: Path, games: dict[str, Any] | None = None, seed: int = 7, nick: str = "bazaarbot"
) -> Hub:
    """A hub on a fresh sqlite file; the test game ``count`` unless ``games`` says otherwise."""
    from support.countgame import GAME

    games = games if games is not None else {"count": GAME}
    settings = BotSettings(
        nick=nick,
        seed=seed,
        default_game=sorted(games)[0],
        leave_grace=30.0,
        rate_limit=RateLimit(commands=1000, per_seconds=1.0),  # scripted players type fast
    )
    return Hub(Store(directory / "bot.sqlite"), games=games, settings=settings)


_MARKS = itertools.count(1)


async def all_written(bot: IrcTransport) -> None:
    """Until the bot has handled every line it read so far, the hub's background work (AI moves) is done
    and every line queued meanwhile has been written to the server."""
    hub = bot.hub
    assert hub is not None
    handled = asyncio.Event()

    async def flag() -> None:
        handled.set()

    bot._hub(flag)  # behind the lines read before it, in the bot's own queue of hub calls
    await asyncio.wait_for(handled.wait(), 30)
    await hub.idle()
    await asyncio.wait_for(bot.queue.drained(), 60)


async def reached(bot: IrcTransport, client: RawClient, network: str = NET) -> str:
    """Until every answer to the lines the bot has read so far, and every AI move they set off, has
    reached ``client``; returns the marker line that proves it (assert on ``client.lines`` before it).

    Once ``all_written``, a private marker is queued: it leaves after every line queued before it,
    whatever their target, and the server relays one connection's lines in order. The marker is
    read, not consumed: what the test reads next (``expect``, ``since``) stays where it was."""
    marker = f"(sync {next(_MARKS)})"
    await all_written(bot)
    await bot.send(Tell(network, client.nick, marker))

    def arrived() -> str | None:
        return next((line for line in reversed(client.lines) if line.endswith(marker)), None)

    return await wait_until(
        arrived, 20, lambda: f"{client.nick} to read {marker!r}; last: {client.lines[-8:]}"
    )


def is_marker(line: str) -> bool:
    """Whether ``line`` is one of ``reached``'s markers (not a line of the game)."""
    return line.endswith(")") and line.rsplit(" :", 1)[-1].startswith("(sync ")


def lines_before(client: RawClient, marker: str) -> list[str]:
    """The lines ``client`` read before ``marker`` (what ``reached`` proved complete)."""
    return client.lines[: client.lines.index(marker)]


async def hub_and_bot(
    directory: Path,
    server: IrcServer,
    closing: list[Any],
    bot: dict[str, Any] | None = None,
    **settings: object,
) -> tuple[Hub, IrcTransport]:
    """A hub and the bot on the test server (``settings`` for its network entry, ``bot`` for the
    transport), both closed after the test."""
    cast = await gather_cast(directory, server, closing, {}, bot=bot, **settings)
    return cast.hub, cast.bot


async def bot_and_player(
    directory: Path, server: IrcServer, closing: list[Any], channel: str, nick: str = "alice"
) -> tuple[Hub, IrcTransport, RawClient]:
    """The usual cast: a hub, the bot in ``channel``, and one raw client there; all closed after the test."""
    hub, bot = await hub_and_bot(directory, server, closing, channels=(channel,))
    player = await RawClient(nick, server.port).connect((channel,))
    closing.append(player)
    return hub, bot, player


async def start_bot(hub: Hub, settings: IrcNetwork, **kwargs: Any) -> IrcTransport:
    """An IRC transport attached to ``hub``, connected, registered and in its channels."""
    kwargs.setdefault("reconnect_min", 0.2)
    kwargs.setdefault("reconnect_max", 1.0)
    bot = IrcTransport(settings, **kwargs)
    hub.attach(bot)
    await bot.start(hub)
    await wait_until(
        lambda: bot.registered.is_set() and all(bot.roster.channel(c) for c in settings.channels),
        15,
        "the bot to register and join",
    )
    return bot


async def close_all(made: list[Any]) -> None:
    """Close what a test opened (raw clients, bots, hubs), last in first out."""
    for thing in reversed(made):
        with contextlib.suppress(Exception):
            if isinstance(thing, RawClient):
                await thing.close()
            elif isinstance(thing, IrcTransport):
                await thing.stop()
            elif isinstance(thing, Hub):
                await thing.close()


@dataclass
class IrcCast:
    """A hub, the bot attached to it and raw clients by nick: the usual people of an IRC test."""

    hub: Hub
    bot: IrcTransport
    clients: dict[str, RawClient] = field(default_factory=dict)

    def __getitem__(self, nick: str) -> RawClient:
        return self.clients[nick]

    async def seat_all(self, channel: str, timeout: float = 30.0) -> dict[str, str]:
        """Every client types ``!join`` in ``channel``, in order; the private welcome line each got."""
        welcomes = {}
        for nick, client in self.clients.items():
            client.say(channel, "!join")
            welcomes[nick] = await client.expect(f"PRIVMSG {nick} :You sit in seat", timeout)
        return welcomes

    async def start(self, channel: str, secret: str = "Your secret", timeout: float = 30.0) -> None:
        """The first client types ``!start``; returns once every client got its private ``secret`` line."""
        next(iter(self.clients.values())).say(channel, "!start")
        for nick, client in self.clients.items():
            await client.expect(f"PRIVMSG {nick} :{secret}", timeout)


async def gather_cast(
    directory: Path,
    server: IrcServer,
    closing: list[Any],
    players: dict[str, tuple[str, ...]],
    *,
    games: dict[str, Any] | None = None,
    seed: int = 7,
    bot: dict[str, Any] | None = None,
    **settings: object,
) -> IrcCast:
    """A hub, the bot (``settings`` for its network entry, ``bot`` for the transport) and one raw client
    per nick in ``players`` in that nick's channels; returns once the bot sees each of them; all closed after.
    """
    hub = make_hub(directory, games=games, seed=seed)
    closing.append(hub)
    transport = await start_bot(hub, network_settings(server, **settings), **(bot or {}))
    closing.append(transport)
    cast = IrcCast(hub, transport)
    for nick, channels in players.items():
        cast.clients[nick] = await RawClient(nick, server.port).connect(channels)
        closing.append(cast.clients[nick])
    seen = [(nick, channel) for nick, channels in players.items() for channel in channels]
    await wait_until(lambda: all(transport.roster.in_channel(*place) for place in seen), 30, "the players")
    return cast


class ScriptedIrcServer:
    """A tiny asyncio IRC server that answers each line as ``answer`` says: a network ngircd cannot play."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.writer: asyncio.StreamWriter | None = None
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    def send(self, line: str) -> None:
        assert self.writer is not None
        self.writer.write(line.encode() + b"\r\n")

    def answer(self, line: str) -> None:
        """Reply to one line the client sent."""

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        while data := await reader.readline():
            line = data.decode().rstrip("\r\n")
            self.received.append(line)
            self.answer(line)
        writer.close()

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
