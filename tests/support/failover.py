"""Kill -9 the serving process mid-game and let the standby take over: the failover test's parts.

Two ``bazaarbot run`` processes share one PostgreSQL store, one IRC network
(a real ngircd) and the web chat (each on its own port, as two hosts behind a
proxy would be). Players on IRC and on websockets play real games; the moves
they type are chosen from the game's own legal commands, worked out here from
the store (the seed and the logged moves), so the test never guesses. After
each kill the test checks the store against what the bot had answered: every
answered move is logged, in order, and nothing is logged that was not typed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import random
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

from bazaarbot.bench.botprocess import bazaarbot_command, unlimited_config
from bazaarbot.registry import discover
from support.ircserver import RawClient, free_port, irc_network_config
from support.paths import REPO_ROOT
from support.waits import wait_until

ROOT = REPO_ROOT
IRC_NETWORK = "local"
WEB_NETWORK = "web"

#: the sections after the bot's own: the shared store's lease and the IRC network
CONFIG = """
[store]
lease_seconds = {lease}

{irc}
"""


def _joined(line: str, channel: str) -> bool:
    """Whether an IRC line says its sender joined ``channel``."""
    parts = line.split(" ")
    return len(parts) >= 3 and parts[1] == "JOIN" and parts[2].lstrip(":").lower() == channel.lower()


def _bot_joined_line(line: str, channel: str) -> bool:
    """Whether an IRC line says the bot joined ``channel``."""
    return line.startswith(":bazaarbot!") and _joined(line, channel)


def _answer(line: str, channel: str, nick: str) -> bool:
    """Whether an IRC line is the bot speaking in ``channel`` (what ``nick`` typed there was answered).

    A move's public answer need not name the player (a Yspahan ``done`` moves the day on), so any
    line of the bot counts; the lines of the previous answer are in before the next move is typed.
    """
    head, _, _said = line.partition(f" PRIVMSG {channel} :")
    return head.startswith(":bazaarbot!") and bool(_said) and bool(nick)


#: what a player types to learn that the bot's earlier lines have all reached them: its private answer
MARKER = "!clock"
MARKER_ANSWER = "The turn clock here is"
#: the takeover's own figures in the output of the process that took over (``cli._report_takeover``)
TOOK_OVER = re.compile(r"took over from .*: serving (\d+\.\d+) s after its last renewal")
FIRST_ANSWER = re.compile(r"answered its first line (\d+\.\d+) s after the previous owner's last renewal")


class BotProcess:
    """``bazaarbot run`` on the shared store, its output read line by line."""

    def __init__(self, config: Path, store: str, port: int) -> None:
        self.port = port
        self.proc = subprocess.Popen(
            bazaarbot_command("run", "-c", str(config), "--store", store, "--port", str(port)),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        self.lines: list[str] = []
        self._new: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            self._new.put(line)

    async def said(self, text: str, timeout: float = 60.0) -> str:
        """The first output line containing ``text`` (waiting for it)."""
        found = lambda: next((line for line in self.lines if text in line), None)  # noqa: E731
        await wait_until(
            lambda: found() or self.proc.poll() is not None,
            timeout,
            lambda: f"an output line with {text!r}: {self.lines[-10:]}",
        )
        if found() is None:  # the bot ended: what it wrote before is read (its AI workers may hold on)
            with contextlib.suppress(AssertionError):
                await wait_until(lambda: found() or not self._reader.is_alive(), 2.0)
        line = found()
        if line is None:
            raise AssertionError(f"the bot ended ({self.proc.poll()}): {self.lines[-10:]}")
        return line

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self._closed()

    def _closed(self) -> None:
        """The process is gone: its last output read, its pipe closed."""
        self._reader.join(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
                return
        self._closed()


@dataclass
class WebTab:
    """A player's websocket on the web chat: its token survives a takeover, its room's view is kept."""

    nick: str
    room: str
    token: str | None = None
    ws: aiohttp.ClientWebSocketResponse | None = None
    view: dict[str, Any] | None = None
    reader: asyncio.Task[None] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def connect(self, session: aiohttp.ClientSession, port: int) -> None:
        self.view = None
        self.ws = await session.ws_connect(f"ws://127.0.0.1:{port}/ws", max_msg_size=0)
        await self.ws.send_str(json.dumps({"t": "hello", "token": self.token}))
        await self.ws.send_str(json.dumps({"t": "claim", "nick": self.nick}))
        await self.ws.send_str(json.dumps({"t": "join", "room": self.room, "history": False}))
        self.reader = asyncio.get_running_loop().create_task(self._read())
        deadline = time.monotonic() + 10
        while self.view is None and time.monotonic() < deadline:  # the room's view: joined
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1.0)

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            decoded = json.loads(msg.data)
            for frame in decoded if isinstance(decoded, list) else [decoded]:
                if frame.get("t") == "claimed" and frame.get("token"):
                    self.token = frame["token"]
                if frame.get("room") == self.room and frame.get("t") in ("joined", "view"):
                    view = frame.get("view") or {}
                    self.view = {**(self.view or {}), **view} if frame.get("partial") else view
                    self.changed.set()

    @property
    def moves(self) -> int:
        return int((self.view or {}).get("moves") or 0)

    async def say(self, text: str) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"t": "say", "room": self.room, "text": text}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader


@dataclass
class Table:
    """One game table of the run: where it is, its players, and what was typed and answered per game."""

    transport: str  # "irc" or "web"
    channel: str
    game: str
    nicks: tuple[str, str]
    sent: dict[int, list[str]] = field(default_factory=dict)
    answered: dict[int, list[str]] = field(default_factory=dict)

    @property
    def network(self) -> str:
        return IRC_NETWORK if self.transport == "irc" else WEB_NETWORK


@dataclass
class Round:
    """What one kill showed."""

    table: str
    answered_before_kill: bool
    failover_seconds: float
    #: the takeover's own time as the process that took over says it: from the killed process's last
    #: renewal until it served, and until it answered its first line
    takeover_serving: float
    takeover_first_answer: float


class Failover:
    """The two processes, the players, and the checks of one failover run."""

    def __init__(self, folder: Path, store: str, irc_port: int, seed: int = 5, lease: float = 2.0) -> None:
        self.folder, self.store, self.irc_port = folder, store, irc_port
        self.rng = random.Random(seed)
        self.games = discover()
        self.tables = [
            Table("irc", "#j", "jaipur", ("alice", "bob")),
            Table("irc", "#y", "yspahan", ("carol", "dave")),
            Table("web", "#b", "bazaar", ("erin", "frank")),
            Table("web", "#w", "jaipur", ("gina", "hank")),
        ]
        channels = [t.channel for t in self.tables if t.transport == "irc"]
        self.config = folder / "failover.toml"
        irc = irc_network_config(irc_port, channels, burst=1000, lines_per_second=1000.0)
        extra = CONFIG.format(lease=lease, irc=irc)
        self.config.write_text(unlimited_config(seed, 'nick = "bazaarbot"') + extra)
        self.ports = [free_port(), free_port()]
        self.active: BotProcess | None = None
        self.standby: BotProcess | None = None
        self.irc: dict[str, RawClient] = {}
        self.web: dict[str, WebTab] = {}
        self.session: aiohttp.ClientSession | None = None
        self.rounds: list[Round] = []
        self._db: psycopg.Connection[Any] | None = None
        #: game id -> its state after the moves counted beside it
        self._states: dict[int, tuple[Any, int]] = {}

    # --- setting up -----------------------------------------------------------------------
    async def start(self) -> None:
        for table in self.tables:  # the players are in their channels before the bot comes
            if table.transport == "irc":
                for nick in table.nicks:
                    self.irc[nick] = await RawClient(nick, self.irc_port).connect((table.channel,))
        self.active = BotProcess(self.config, self.store, self.ports[0])
        await self.active.said("serving the web chat")
        await self._bot_joined()
        self.standby = BotProcess(self.config, self.store, self.ports[1])
        await self.standby.said("standby")
        self.session = aiohttp.ClientSession()
        for table in self.tables:
            if table.transport == "web":
                for nick in table.nicks:
                    self.web[nick] = WebTab(nick, table.channel)
                    await self.web[nick].connect(self.session, self.active.port)
        for table in self.tables:
            host, guest = table.nicks
            await self._say(table, host, f"/new {table.game}", wait=True)
            await self._say(table, guest, "/join", wait=True)
            await self._say(table, host, "/start", wait=True)

    async def _bot_joined(self, after: dict[str, int] | None = None) -> None:
        """The serving process is in every IRC channel of the run.

        ``after``: per IRC nick, how many lines it had when the serving process before this one was
        killed; a join the player saw since then counts, even one already marked seen.
        """
        assert self.active is not None
        for table in self.tables:
            if table.transport == "irc":
                client = self.irc[table.nicks[0]]
                if after is not None and any(
                    _bot_joined_line(line, table.channel) for line in client.lines[after[table.nicks[0]] :]
                ):
                    continue  # the new process joined before the lines were marked seen
                try:
                    await client.expect(lambda line, c=table.channel: _bot_joined_line(line, c), timeout=30)
                except AssertionError as error:
                    raise AssertionError(f"{error}; the bot said: {self.active.lines[-15:]}") from None

    async def healthz(self, process: BotProcess) -> int:
        assert self.session is not None
        async with self.session.get(f"http://127.0.0.1:{process.port}/healthz") as response:
            return response.status

    async def close(self) -> None:
        for process in (self.active, self.standby):
            if process is not None:
                process.stop()
        for client in self.irc.values():
            await client.close()
        for tab in self.web.values():
            await tab.close()
        if self.session is not None:
            await self.session.close()
        if self._db is not None:
            self._db.close()

    # --- the store, as the players' side reads it ---------------------------------------------
    @property
    def db(self) -> psycopg.Connection[Any]:
        """The players' side's own session on the store (one for the whole run)."""
        if self._db is None:
            self._db = psycopg.connect(self.store, autocommit=True)
        return self._db

    def _game(self, table: Table) -> tuple[int, str, Any, list[tuple[str, int, str]]] | None:
        """The table's latest game: id, status, its state now, and its logged moves (author, seat, text).

        The state is kept between calls and only the moves logged since are played on it.
        """
        row = self.db.execute(
            "SELECT id, plugin, seed, options, players, status FROM games "
            "WHERE network=%s AND channel=%s ORDER BY id DESC LIMIT 1",
            [table.network, table.channel],
        ).fetchone()
        if row is None:
            return None
        moves = self.db.execute(
            "SELECT author, seat, text FROM moves WHERE game_id=%s ORDER BY n", [row[0]]
        ).fetchall()
        plugin = self.games[row[1]]
        state, played = self._states.get(int(row[0]), (None, 0))
        if state is None:
            players = json.loads(row[4])
            state = plugin.setup([p["nick"] for p in players], random.Random(row[2]), json.loads(row[3]))
        for _author, seat, text in moves[played:]:
            plugin.apply(state, seat, plugin.parse(state, seat, text))
        self._states[int(row[0])] = (state, len(moves))
        return int(row[0]), str(row[5]), state, [(str(a), int(s), str(t)) for a, s, t in moves]

    def logged(self, game_id: int) -> list[str]:
        return [
            r[0] for r in self.db.execute("SELECT text FROM moves WHERE game_id=%s ORDER BY n", [game_id])
        ]

    def check(self, table: Table, game_id: int) -> None:
        """Every answered move of the game is in the store, in order; nothing there that was not typed."""
        logged = self.logged(game_id)
        answered, sent = table.answered.get(game_id, []), table.sent.get(game_id, [])
        assert logged[: len(answered)] == answered, f"{table.channel}: an answered move is missing"
        assert logged == sent[: len(logged)], f"{table.channel}: a move in the store was never typed"
        table.answered[game_id] = logged[:]  # a move logged but not answered counts from now on
        table.sent[game_id] = logged[:]

    # --- playing ---------------------------------------------------------------------------------
    async def _say(self, table: Table, nick: str, text: str, wait: bool, is_move: bool = False) -> bool:
        """Type ``text`` as ``nick`` at the table; with ``wait``, True once the bot answered it there.

        On the web a move is answered when the room's view shows one more move.
        """
        if table.transport == "irc":
            client = self.irc[nick]
            await self._earlier_lines_in(client, table.channel)
            client.say(table.channel, text.replace("/", "!", 1) if text.startswith("/") else text)
            if not wait:
                return False
            with contextlib.suppress(AssertionError):
                await client.expect(lambda line: _answer(line, table.channel, nick), timeout=20)
                return True
            return False
        tab = self.web[nick]
        before, moves = tab.view, tab.moves
        tab.changed.clear()
        await tab.say(text)
        if not wait:
            return False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if (tab.moves > moves) if is_move else (tab.view is not before and tab.view is not None):
                return True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(tab.changed.wait(), max(0.01, deadline - time.monotonic()))
            tab.changed.clear()
        return False

    async def _earlier_lines_in(self, client: RawClient, channel: str) -> None:
        """Until every line the bot wrote so far has reached ``client``, so none is taken for the next answer.

        The bot writes what it queued in the order queued, and the server relays its lines in that
        order: its private answer to a line typed now comes after all of them.
        """
        client.since()
        client.say(channel, MARKER)
        await client.expect(
            lambda line: (
                line.startswith(":bazaarbot!")
                and f" PRIVMSG {client.nick} :" in line
                and MARKER_ANSWER in line
            ),
            timeout=20,
        )
        client.since()

    async def _prepare(self, table: Table) -> tuple[int, str, str]:
        """(game id, nick, move): a legal move for whoever acts at the table (a new game when it is over)."""
        for _ in range(3):
            found = self._game(table)
            assert found is not None, f"no game at {table.channel}"
            game_id, status, state, _moves = found
            plugin = self.games[table.game]
            if status == "running" and plugin.to_act(state):
                seat = plugin.to_act(state)[0]
                commands = plugin.legal_commands(state, seat)
                players = json.loads(
                    self.db.execute("SELECT players FROM games WHERE id=%s", [game_id]).fetchone()[0]
                )
                return game_id, str(players[seat]["nick"]), self.rng.choice(commands)
            await self._say(table, table.nicks[0], "/start", wait=True)  # the game ended: the next one
        raise AssertionError(f"{table.channel}: no game to play")

    async def move(self, table: Table) -> None:
        """One move at the table, answered and so in the store."""
        game_id, nick, text = await self._prepare(table)
        table.sent.setdefault(game_id, []).append(text)
        assert await self._say(table, nick, text, wait=True, is_move=True), (
            f"{table.channel}: {nick} {text!r} not answered"
        )
        table.answered.setdefault(game_id, []).append(text)
        assert self.logged(game_id)[-1:] == [text], "an answered move is in the store at once"

    async def kill_round(self, table: Table, moves_before: int = 2) -> Round:
        """Some moves, then kill -9 the active process while a move is on its way; the standby goes on."""
        assert self.active is not None and self.standby is not None
        for _ in range(moves_before):  # meanwhile the standby started at the last round comes up
            await self.move(self.rng.choice(self.tables))
        await self.standby.said("standby")
        game_id, nick, text = await self._prepare(table)
        table.sent.setdefault(game_id, []).append(text)
        answered_before = self._answer_seen(table, nick)
        await self._say(table, nick, text, wait=False)
        await asyncio.sleep(self.rng.random() * 0.03)  # a random point of the move's way
        heard = len(self.irc[nick].lines) if table.transport == "irc" else 0
        before_kill = {name: len(client.lines) for name, client in self.irc.items()}
        self.active.kill()
        killed = time.monotonic()
        await wait_until(lambda: self._gone(table, nick, heard), what="the killed bot's connection to drop")
        answered = self._answer_seen(table, nick) > answered_before
        if answered:
            table.answered.setdefault(game_id, []).append(text)
        old_port = self.active.port
        self.active, self.standby = self.standby, None
        for client in self.irc.values():
            client.since()
        serving = float(TOOK_OVER.search(await self.active.said("took over from")).group(1))  # type: ignore[union-attr]
        await self.active.said("serving the web chat")
        await self._bot_joined(before_kill)  # the new process is in every channel before anybody speaks
        for tab in self.web.values():
            await tab.close()
            await tab.connect(self.session, self.active.port)  # type: ignore[arg-type]
        for other in self.tables:  # the store holds everything answered before the kill
            found = self._game(other)
            if found is not None:
                self.check(other, found[0])
        await self.move(table)  # the standby answers the same game
        failover = time.monotonic() - killed
        first = float(FIRST_ANSWER.search(await self.active.said("answered its first line")).group(1))  # type: ignore[union-attr]
        self.standby = BotProcess(self.config, self.store, old_port)  # on standby by the next kill
        result = Round(f"{table.transport} {table.channel} {table.game}", answered, failover, serving, first)
        self.rounds.append(result)
        return result

    def _gone(self, table: Table, nick: str, heard: int) -> bool:
        """Whether this player saw the bot's connection drop: all it sent before it died has arrived
        (the server relays the bot's lines, then its quit; the web tab's socket closes after them)."""
        if table.transport == "irc":
            return any(
                line.startswith(":bazaarbot!") and " QUIT " in line for line in self.irc[nick].lines[heard:]
            )
        reader = self.web[nick].reader
        return reader is None or reader.done()

    def _answer_seen(self, table: Table, nick: str) -> int:
        """How many answers of the bot at the table this player has seen so far."""
        if table.transport == "irc":
            return sum(1 for line in self.irc[nick].lines if _answer(line, table.channel, nick))
        return self.web[nick].moves

    def lost_moves(self) -> int:
        """Answered moves missing from the store, over every game of the run."""
        lost = 0
        for table in self.tables:
            for game_id, answered in table.answered.items():
                logged = self.logged(game_id)
                lost += sum(1 for index, move in enumerate(answered) if logged[index : index + 1] != [move])
        return lost
