"""A serving process frozen (SIGSTOP) past its lease and woken again: the partition tests' parts.

Two ``bazaarbot run`` processes share one PostgreSQL store and serve the web chat
(each on its own port, as two hosts behind a proxy would). A freeze is what a
partition looks like from inside a process: it stops, its session on the server
and its sockets stay open, the clock runs on. The tests freeze one, let the
other take over, wake the first and read what each side says and answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

from bazaarbot.bench.botprocess import unlimited_config
from support.failover import BotProcess
from support.ircserver import free_port
from support.waits import wait_until

#: the lease of the runs: short, so a takeover comes within seconds
LEASE = 2.0
#: how long a request to a process may take before it counts as no answer (a frozen one gives none)
ANSWER_WITHIN = 0.5
#: the pause between two readings of the watch
PACE = 0.05


def pair_config(folder: Path, extra: str = "", lease: float = LEASE, web: str = "") -> Path:
    """A config for the web chat on a shared store, with ``lease``; ``web``: more lines of its
    ``[web]`` section; ``extra``: sections after it."""
    config = folder / "pair.toml"
    text = unlimited_config(7)
    if "metrics" in web:  # the machine's config keeps /metrics off; these lines say otherwise
        text = text.replace('metrics = "off"\n', "")
    text = text.replace("[web]\n", f"[web]\n{web}\n", 1)
    config.write_text(text + f"\n[store]\nlease_seconds = {lease}\n\n{extra}")
    return config


def freeze(process: BotProcess) -> float:
    """Stop the process where it is (its sockets and its database session stay); when it was."""
    process.proc.send_signal(signal.SIGSTOP)
    return time.monotonic()


def wake(process: BotProcess) -> float:
    process.proc.send_signal(signal.SIGCONT)
    return time.monotonic()


async def stay_frozen(since: float, seconds: float) -> None:
    """The freeze lasts ``seconds`` from ``since`` (its length is the scenario, not a wait for a state)."""
    await asyncio.sleep(max(0.0, since + seconds - time.monotonic()))


async def ended(process: BotProcess, timeout: float = 30.0) -> int:
    """The process's exit status, once it ended."""
    await wait_until(lambda: process.proc.poll() is not None, timeout, "the process to end")
    process.stop()  # its output read to the end
    return int(process.proc.returncode)


def lease_owner(store: str, network: str = "web") -> str | None:
    """Who holds the network's lease row now (None when nobody does)."""
    with psycopg.connect(store, autocommit=True) as conn:
        row = conn.execute(
            "SELECT owner FROM bazaarbot_leases WHERE network = %s AND deadline > clock_timestamp()",
            [network],
        ).fetchone()
    return str(row[0]) if row and row[0] else None


async def healthz(session: aiohttp.ClientSession, port: int) -> int | None:
    """The process's ``/healthz`` status, or None when it gives no answer in time (frozen, gone)."""
    try:
        async with session.get(
            f"http://127.0.0.1:{port}/healthz", timeout=aiohttp.ClientTimeout(total=ANSWER_WITHIN)
        ) as response:
            return response.status
    except (TimeoutError, aiohttp.ClientError):
        return None


@dataclass
class Watch:
    """Both processes' ``/healthz`` read over and over: every moment both said 200 is kept."""

    session: aiohttp.ClientSession
    ports: tuple[int, int]
    readings: list[tuple[float, int | None, int | None]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    def start(self) -> Watch:
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self

    async def _run(self) -> None:
        while True:
            asked = time.monotonic()  # a reading counts from when it was asked
            first, second = await asyncio.gather(*(healthz(self.session, p) for p in self.ports))
            self.readings.append((asked, first, second))
            await asyncio.sleep(PACE)

    @property
    def both_served(self) -> list[float]:
        return [at for at, first, second in self.readings if first == 200 and second == 200]

    async def readings_after(self, moment: float) -> None:
        """Until a reading was taken after ``moment``."""
        await wait_until(lambda: any(at > moment for at, _a, _b in self.readings), what="a fresh reading")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


@dataclass
class Person:
    """Somebody at the web chat: a websocket on one process, every frame it received kept with its time."""

    nick: str
    room: str
    frames: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    ws: aiohttp.ClientWebSocketResponse | None = None
    reader: asyncio.Task[None] | None = None

    async def connect(self, session: aiohttp.ClientSession, port: int) -> Person:
        self.ws = await session.ws_connect(f"ws://127.0.0.1:{port}/ws", max_msg_size=0)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        await self.send({"t": "hello", "token": None})
        await self.send({"t": "claim", "nick": self.nick})
        await self.send({"t": "join", "room": self.room, "history": False})
        await wait_until(lambda: self.got("joined"), what=f"{self.nick} to join {self.room}")
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            decoded = json.loads(msg.data)
            for frame in decoded if isinstance(decoded, list) else [decoded]:
                self.frames.append((time.monotonic(), frame))

    def got(self, kind: str, after: float = 0.0) -> list[dict[str, Any]]:
        return [f for at, f in self.frames if f.get("t") == kind and at > after]

    def since(self, moment: float) -> list[dict[str, Any]]:
        """Every frame received after ``moment``."""
        return [f for at, f in self.frames if at > moment]

    async def send(self, frame: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(frame))

    async def say(self, text: str) -> None:
        await self.send({"t": "say", "room": self.room, "text": text})

    @property
    def closed(self) -> bool:
        return self.reader is not None and self.reader.done()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader


class Pair:
    """Two processes of one config on one store; ``first`` started first (it serves), ``second`` waits."""

    def __init__(
        self, folder: Path, store: str, extra: str = "", lease: float = LEASE, web: str = ""
    ) -> None:
        self.config = pair_config(folder, extra, lease, web)
        self.store = store
        self.ports = (free_port(), free_port())
        self.processes: list[BotProcess] = []

    def start(self, port: int) -> BotProcess:
        process = BotProcess(self.config, self.store, port)
        self.processes.append(process)
        return process

    def close(self) -> None:
        for process in self.processes:
            if process.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.proc.send_signal(signal.SIGCONT)
            process.stop()
