"""``bazaarbot bench load --web``: the load phases through real websockets, as players feel them.

The bot runs as its own process (``bazaarbot run`` on a temporary sqlite
file and a free loopback port, the per-client limits raised for the run), so
its CPU is measured apart from the load generator's: from ``/proc/<pid>/stat``
before and after each phase. Every player has a tab of their own: a websocket
that claims a nick and joins its table's room, and plays like the page does —
it waits for the ``view`` frame that names its verbs, asks for the commands of
the long ones (``moves``) as the page does when it draws the table, and says
one of them. A move's latency runs from the frame that says it to the first
``view`` frame that shows it played.

Phases: a closed loop (each table plays its next move as soon as the last is
seen) and a paced one (a fixed rate of moves over all tables).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bazaarbot.bench.botprocess import (
    close_tabs,
    cpu_seconds,
    end,
    free_port,
    open_tab,
    start_web_bot,
    unlimited_config,
)
from bazaarbot.bench.load import Figures, _latency_line, _percentile, chosen_game, run_load
from bazaarbot.collector import CollectorPolicy


@dataclass
class Tab:
    """One player's browser tab: its websocket and the latest view of its room."""

    nick: str
    room: str
    ws: aiohttp.ClientWebSocketResponse
    view: dict[str, Any] | None = None
    #: set whenever a new view arrives
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None
    #: the answers to ``moves`` requests of this moment of the game: verb -> its commands
    answered: dict[str, list[str]] = field(default_factory=dict)
    #: set whenever a ``moves`` answer arrives
    answer: asyncio.Event = field(default_factory=asyncio.Event)
    #: ``moves`` requests sent so far
    asked: int = 0
    #: websocket messages received so far
    messages: int = 0

    @property
    def has_moves(self) -> bool:
        you = (self.view or {}).get("you") or {}
        return bool(you.get("verbs"))

    async def commands(self) -> list[str]:
        """Every command the view offers, as the page gathers them: the view's own, and each long
        verb's asked for (``moves``), as the page asks for them when it draws the table."""
        you = (self.view or {}).get("you") or {}
        inline = list(you.get("commands") or [])
        verbs = list(you.get("verbs") or [])
        for verb in verbs:
            if not verb["carried"]:
                await self.ws.send_str(json.dumps({"t": "moves", "room": self.room, "verb": verb["verb"]}))
                self.asked += 1
        found: list[str] = []
        for verb in verbs:
            own = [c for c in inline if c.split(" ", 1)[0] == verb["verb"]]
            if not verb["carried"]:
                while verb["verb"] not in self.answered:
                    self.answer.clear()
                    try:
                        await asyncio.wait_for(self.answer.wait(), 10.0)
                    except TimeoutError:
                        return []  # the moment passed (or the answer was lost): the next view says
                own = self.answered[verb["verb"]]
            found += own
        return found

    @property
    def moves(self) -> int:
        return int((self.view or {}).get("moves") or 0)

    @property
    def phase(self) -> str:
        return str((self.view or {}).get("phase") or "lobby")

    async def say(self, text: str) -> None:
        await self.ws.send_str(json.dumps({"t": "say", "room": self.room, "text": text}))

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            self.messages += 1
            if '"view":' not in msg.data and '"t":"moves"' not in msg.data:
                continue
            decoded = json.loads(msg.data)  # one frame, or an array of the frames sent together
            for frame in decoded if isinstance(decoded, list) else [decoded]:
                if frame.get("room") != self.room:
                    continue
                if frame.get("t") in ("joined", "view"):
                    view = frame.get("view")
                    if frame.get("partial"):  # what changed, merged as the page merges it
                        view = {**(self.view or {}), **view}
                    if (view or {}).get("moves") != (self.view or {}).get("moves"):
                        self.answered = {}  # another moment: what was asked is asked again
                    self.view = view
                    self.changed.set()
                elif frame.get("t") == "moves" and frame.get("moves") == (self.view or {}).get("moves"):
                    self.answered[frame["verb"]] = list(frame.get("commands") or [])
                    self.answer.set()

    async def next_view(self, timeout: float = 30.0) -> None:
        self.changed.clear()
        await asyncio.wait_for(self.changed.wait(), timeout)


@dataclass
class WebTable:
    room: str
    tabs: list[Tab]
    rng: random.Random

    def to_move(self) -> Tab | None:
        return next((tab for tab in self.tabs if tab.has_moves), None)


class WebLoadBench:
    """The bot in a process of its own, and a tab per player here."""

    def __init__(self, tables: int, game: str, seed: int, folder: Path) -> None:
        self.count, self.game, self.seed, self.folder = tables, game, seed, folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.session: aiohttp.ClientSession | None = None
        self.tables: list[WebTable] = []

    async def start(self) -> None:
        config = self.folder / "bench.toml"
        config.write_text(unlimited_config(self.seed, f'default_game = "{self.game}"', self.port))
        self.process, self.session = await start_web_bot(
            config, self.folder / "w.db", self.port, seconds=20.0
        )

    async def _tab(self, nick: str, room: str) -> Tab:
        assert self.session is not None
        tab = Tab(nick, room, await open_tab(self.session, self.port, nick, room))
        tab.reader = asyncio.get_running_loop().create_task(tab.read())
        return tab

    async def setup(self, seats: int) -> None:
        rng = random.Random(self.seed)

        async def one(index: int) -> WebTable:
            room = f"#w{index}"
            tabs = [await self._tab(f"w{index}x{s}", room) for s in range(seats)]
            table = WebTable(room, tabs, random.Random(rng.random()))
            for number, tab in enumerate(tabs):
                await tab.say(f"/new {self.game}" if number == 0 else "/join")
                await self._until(lambda tab=tab: bool(((tab.view or {}).get("you") or {}).get("seated")))
            await tabs[0].say("/start")
            await self._until(lambda: table.to_move() is not None)
            return table

        batch = 50  # open the tabs a few at a time, as people arrive
        for first in range(0, self.count, batch):
            self.tables += await asyncio.gather(
                *(one(i) for i in range(first, min(self.count, first + batch)))
            )

    @staticmethod
    async def _until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
        deadline = time.perf_counter() + timeout
        while not condition():
            if time.perf_counter() > deadline:
                raise RuntimeError("the bot did not answer the set-up in time")
            await asyncio.sleep(0.02)

    async def move(self, table: WebTable, latencies: list[float]) -> int:
        """The table's next move (or a rematch); returns the commands said."""
        tab = table.to_move()
        if tab is None:
            if table.tabs[0].phase == "over":
                await table.tabs[0].say("/start")
                with contextlib.suppress(asyncio.TimeoutError):
                    await table.tabs[0].next_view(10.0)
                return 1
            with contextlib.suppress(asyncio.TimeoutError):
                await table.tabs[0].next_view(1.0)
            return 0
        before = tab.moves
        commands = await tab.commands()  # as the page draws the table, before the player picks
        if not commands:
            return 0
        started = time.perf_counter()
        await tab.say(table.rng.choice(commands))
        with contextlib.suppress(asyncio.TimeoutError):
            while tab.moves == before and tab.phase == "running":
                await tab.next_view(10.0)
        latencies.append(time.perf_counter() - started)
        return 1

    def bot_cpu(self) -> float:
        assert self.process is not None
        return cpu_seconds(self.process.pid)

    def asked(self) -> int:
        """The ``moves`` requests all tabs sent so far."""
        return sum(tab.asked for table in self.tables for tab in table.tabs)

    def messages(self) -> int:
        """The websocket messages all tabs received so far."""
        return sum(tab.messages for table in self.tables for tab in table.tabs)

    async def closed_loop(self, seconds: float) -> tuple[list[float], int, int, int, float, float]:
        """(latencies, commands said, ``moves`` requests, messages received, wall s, bot CPU s)."""
        latencies: list[float] = []
        said = 0
        asked, messages = self.asked(), self.messages()
        deadline = time.perf_counter() + seconds

        async def run(table: WebTable) -> None:
            nonlocal said
            while time.perf_counter() < deadline:
                done = await self.move(table, latencies)
                said += done

        cpu, wall = self.bot_cpu(), time.perf_counter()
        await asyncio.gather(*(run(t) for t in self.tables))
        wall = time.perf_counter() - wall
        return latencies, said, self.asked() - asked, self.messages() - messages, wall, self.bot_cpu() - cpu

    async def paced(self, seconds: float, rate: float) -> tuple[list[float], int, float]:
        latencies: list[float] = []
        busy: set[int] = set()
        tasks: set[asyncio.Task[int]] = set()
        loop = asyncio.get_running_loop()
        start, sent, turn = loop.time(), 0, 0
        cpu = self.bot_cpu()
        while loop.time() - start < seconds:
            await asyncio.sleep(max(0.0, start + sent / rate - loop.time()))
            sent += 1
            index = turn % len(self.tables)
            turn += 1
            if index in busy:
                continue
            busy.add(index)
            task = loop.create_task(self.move(self.tables[index], latencies))
            task.add_done_callback(lambda _t, i=index: busy.discard(i))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
        return latencies, sent, self.bot_cpu() - cpu

    async def close(self) -> None:
        await close_tabs(tab for table in self.tables for tab in table.tabs)
        if self.session is not None:
            await self.session.close()
        end(self.process)


async def run_web_load(
    tables: int,
    seconds: float,
    game: str,
    rate: float = 60.0,
    seed: int = 1,
    seats: int = 2,
    say: Callable[[str], None] = print,
) -> dict[str, float]:
    """Both phases through websockets; prints the figures and returns them."""
    results: dict[str, float] = {}
    collector = CollectorPolicy()
    with tempfile.TemporaryDirectory(prefix="bazaarbot-bench-web-") as tmp:
        bench = WebLoadBench(tables, game, seed, Path(tmp))
        try:
            await bench.start()
            await bench.setup(seats)
            # the tabs stand in for browsers: this process's own collections are not the bot's latency
            collector.install()
            say(
                f"bench load --web: {tables:,} live {game} tables, {tables * seats:,} tabs, "
                f"{seconds:g} s per phase, the bot in its own process"
            )
            figures = Figures()
            latencies, said, asked, messages, wall, cpu = await bench.closed_loop(seconds)
            results.update(
                web_commands_per_s=said / wall,
                web_cpu_ms_per_command=cpu * 1000 / max(1, said),
                # every request a tab made of the bot: a command said, or a long verb's ``moves``
                web_cpu_ms_per_request=cpu * 1000 / max(1, said + asked),
                # a turn: the view names the verbs, the tab asks for the long ones and plays one
                web_cpu_ms_per_move=cpu * 1000 / max(1, len(latencies)),
            )
            figures.add("web closed loop", f"{said / wall:,.0f} commands/s")
            figures.add("  moves", _latency_line(latencies))
            figures.add("  moves requests", f"{asked / max(1, len(latencies)):.2f} per move")
            figures.add("  websocket messages", f"{messages / max(1, len(latencies)):.2f} per move")
            figures.add("  bot CPU per command", f"{results['web_cpu_ms_per_command']:.3f} ms")
            figures.add("  bot CPU per request", f"{results['web_cpu_ms_per_request']:.3f} ms")
            paced, sent, paced_cpu = await bench.paced(seconds, rate)
            results.update(
                web_paced_move_p99_ms=_percentile(paced, 0.99) * 1000,
                web_paced_cpu_ms_per_command=paced_cpu * 1000 / max(1, len(paced)),
            )
            figures.add(f"web paced at {rate:g}/s: moves", _latency_line(paced))
            figures.add("  bot CPU per command", f"{results['web_paced_cpu_ms_per_command']:.3f} ms")
            for line in figures.lines:
                say(line)
        finally:
            collector.uninstall()
            await bench.close()
    return results


def main(args: argparse.Namespace) -> int:
    """``bench load --web``: the in-process figures, then the same through websockets, and the ratio."""
    game = chosen_game(args)
    if game is None:
        return 2
    core = asyncio.run(run_load(args.tables, args.seconds, game))
    web = asyncio.run(run_web_load(args.tables, args.seconds, game))
    ratio = web["web_cpu_ms_per_command"] / max(1e-9, core["cpu_ms_per_command"])
    print(f"{'web / in-process CPU per command':<34} {ratio:.2f} (goal: at most 2)")
    # a request: in-process a line (/moves all or a move), on the web a frame (a move, or moves)
    per_request = web["web_cpu_ms_per_request"] / max(1e-9, core["cpu_ms_per_command"])
    print(f"{'web / in-process CPU per request':<34} {per_request:.2f}")
    # per turn: in-process a turn is two commands (/moves all, then the move); a tab's view lists the moves
    per_move = web["web_cpu_ms_per_move"] / max(1e-9, core["cpu_ms_per_move"])
    print(f"{'web / in-process CPU per move':<34} {per_move:.2f}")
    print(f"{'web paced move p99':<34} {web['web_paced_move_p99_ms']:.2f} ms (goal: at most 20 ms)")
    return 0
