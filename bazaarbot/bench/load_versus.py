"""``bazaarbot bench load --versus TREE``: this build's web path beside another build's, black-box.

Both bots run as processes of their own (``bazaarbot run`` on a temporary
sqlite file and a free loopback port, the per-client limits lifted), the
other one from the source tree ``TREE`` (a checkout of an earlier commit).
The load speaks only what every build's page protocol has: a tab claims a
nick, joins its table's room and types lines. The tab whose view names its
verbs asks ``/moves all`` and says one of the listed commands; a finished
game is started again. Each tab offers ``permessage-deflate`` as a browser's
does, so a build that compresses pays for it as it would with players. The
bot's CPU is read from ``/proc`` around each phase, so the figures count the
bot's work alone, not the load's.

The builds take turns, round after round, so a machine that gets busier
mid-run weighs on both alike. Phases per build and round: paced (a fixed rate
of commands over all tables: the bot's CPU per command) and saturated (every
table's next command as soon as the last is answered: commands per second).

With ``--together`` both bots run all along and every round paces both at
once, twice (each build's load started first once: the load that starts
first costs its bot a few percent more): each round's figures come from the
same seconds of the same machine, so their ratio (paired, the geometric mean
of the two) is free of what moves between rounds (on a shared machine, round
after round differs by 15% and more). The saturated phases still take turns.

Two more figures per build say what a paced command's CPU is made of: the
bot's CPU per second with its tables seated and nothing said (idle: the turn
clock's tick, timers), and its CPU per command when saturated (the work of a
command with nothing to wait for). A paced command costs that work, the idle
CPU shared out over the commands of a second, and what waking for each one
costs. A third says where its CPU went: the bot's event loop thread, and the
threads beside it (the store's writer, which at this pace commits each move
on its own, its disk flush included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import aiohttp

from bazaarbot.bench import botprocess
from bazaarbot.bench.parts import parts_lines, read_report
from bazaarbot.collector import CollectorPolicy

#: what ``/moves all`` says when the tab has nothing to play
NO_MOVES = "(no moves)"
#: the longest wait for one answer (a saturated bot answers late, never this late)
ANSWER_WAIT = 30.0
#: the longest idle phase (the bot's CPU with its tables seated and nothing said)
IDLE_SECONDS = 5.0


@dataclass
class Seat:
    """One player's tab: its websocket, the latest view of its room, and the answers it was told."""

    room: str
    ws: aiohttp.ClientWebSocketResponse
    view: dict[str, Any] = field(default_factory=dict)
    #: set when a view of the room arrives at any of the table's tabs (shared by them)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    answers: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    reader: asyncio.Task[None] | None = None

    @property
    def to_move(self) -> bool:
        return bool((self.view.get("you") or {}).get("verbs"))

    @property
    def moves(self) -> int:
        return int(self.view.get("moves") or 0)

    @property
    def over(self) -> bool:
        return self.view.get("phase") == "over"

    async def say(self, text: str) -> None:
        await self.ws.send_str(json.dumps({"t": "say", "room": self.room, "text": text}))

    async def ask(self, text: str) -> str:
        """``text`` said, and the answer the bot told this tab."""
        while not self.answers.empty():
            self.answers.get_nowait()
        await self.say(text)
        return await asyncio.wait_for(self.answers.get(), ANSWER_WAIT)

    async def read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            if '"view"' not in message.data and '"answer"' not in message.data:
                continue  # chat, log and board frames: nothing the load reads
            decoded = json.loads(message.data)  # one frame, or the frames that left together
            for frame in decoded if isinstance(decoded, list) else [decoded]:
                self._take(frame)

    def _take(self, frame: dict[str, Any]) -> None:
        kind = frame.get("t")
        if kind == "tell" and frame.get("role") == "answer" and frame.get("room") == self.room:
            self.answers.put_nowait(str(frame.get("text") or ""))
        elif kind in ("joined", "view") and frame.get("room") == self.room:
            view = frame.get("view") or {}
            self.view = {**self.view, **view} if frame.get("partial") else dict(view)
            self.changed.set()

    async def until(self, condition: Callable[[], bool], timeout: float = ANSWER_WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))


@dataclass
class Room:
    """A table of two seats and its own choice of moves."""

    seats: list[Seat]
    rng: random.Random

    async def turn(self) -> int:
        """The next turn: ``/moves all`` and a move (or a new game); the commands said."""
        seat = next((s for s in self.seats if s.to_move), None)
        if seat is None:
            first = self.seats[0]
            if first.over:
                before = first.moves
                await first.say("/start")
                await first.until(lambda: not first.over or first.moves != before)
                return 1
            with contextlib.suppress(TimeoutError):
                await first.until(lambda: any(s.to_move for s in self.seats) or first.over, 1.0)
            return 0
        before = seat.moves
        listed = await seat.ask("/moves all")
        commands = [line for line in listed.split("\n") if line and line != NO_MOVES]
        if not commands:
            return 1
        await seat.say(self.rng.choice(commands))
        with contextlib.suppress(TimeoutError):
            await seat.until(lambda: seat.moves != before or seat.over)
        return 2


class Bot:
    """A build's bot as a process of its own, with a room per table and a tab per seat."""

    def __init__(self, tree: Path | None, folder: Path, seed: int, timed_parts: bool = False) -> None:
        self.tree, self.folder, self.seed = tree, folder, seed
        self.port = botprocess.free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.session: aiohttp.ClientSession | None = None
        self.rooms: list[Room] = []
        #: where this build's bot reports the CPU of its parts (``bench.parts``; None: not timed)
        self.parts_report = folder / "parts.json" if timed_parts and tree is None else None
        #: each paced phase's parts: (label, µs per command, calls per command)
        self.parts: list[list[tuple[str, float, float]]] = []

    async def start(self) -> None:
        config = self.folder / "bench.toml"
        config.write_text(botprocess.unlimited_config(self.seed, 'default_game = "jaipur"', self.port))
        self.process, self.session = await botprocess.start_web_bot(
            config, self.folder / "bench.db", self.port, self.tree, parts=self.parts_report
        )

    async def seat(self, tables: int) -> None:
        """Tables until there are ``tables``, each with two people and its game begun."""
        while len(self.rooms) < tables:  # a few at a time, as people arrive
            first = len(self.rooms)
            self.rooms += await asyncio.gather(
                *(self._room(index) for index in range(first, min(tables, first + 50)))
            )

    async def _seat(self, nick: str, room: str, changed: asyncio.Event) -> Seat:
        assert self.session is not None
        seat = Seat(room, await botprocess.open_tab(self.session, self.port, nick, room), changed=changed)
        seat.reader = asyncio.get_running_loop().create_task(seat.read())
        return seat

    async def _room(self, index: int) -> Room:
        name = f"#v{index}"
        changed = asyncio.Event()
        seats = [await self._seat(f"v{index}x{number}", name, changed) for number in range(2)]
        for number, seat in enumerate(seats):
            await seat.say("/new jaipur" if number == 0 else "/join")
            await seat.until(lambda seat=seat: bool((seat.view.get("you") or {}).get("seated")))
        await seats[0].say("/start")
        await seats[0].until(lambda: any(s.to_move for s in seats))
        return Room(seats, random.Random(self.seed * 100_003 + index))

    def cpu(self) -> float:
        assert self.process is not None
        return botprocess.cpu_seconds(self.process.pid)

    def loop_cpu(self) -> float:
        """The CPU of the bot's event loop thread (``cpu`` less the store's writer and other threads)."""
        assert self.process is not None
        return botprocess.main_thread_cpu_seconds(self.process.pid)

    async def idle(self, seconds: float) -> float:
        """The bot's CPU seconds per second while its tabs say nothing for ``seconds``."""
        cpu, wall = self.cpu(), time.monotonic()
        await asyncio.sleep(seconds)
        return (self.cpu() - cpu) / max(1e-9, time.monotonic() - wall)

    async def paced(self, seconds: float, rate: float) -> Paced:
        """The commands said and the bot's CPU with a turn (two commands) begun at ``rate / 2`` per second."""
        loop = asyncio.get_running_loop()
        busy: set[int] = set()
        tasks: set[asyncio.Task[None]] = set()
        said, started, turn = 0, loop.time(), 0

        async def one(room: Room) -> None:
            nonlocal said
            done = await room.turn()  # (``said += await ...`` would read ``said`` before the wait)
            said += done

        self._time_parts(signal.SIGUSR1)
        cpu, loop_cpu = self.cpu(), self.loop_cpu()
        while loop.time() - started < seconds:
            await asyncio.sleep(max(0.0, started + turn * 2 / rate - loop.time()))
            index = turn % len(self.rooms)
            turn += 1
            if index in busy:
                continue
            busy.add(index)
            task = loop.create_task(one(self.rooms[index]))
            task.add_done_callback(lambda _t, i=index: busy.discard(i))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
        paced = Paced(said, self.cpu() - cpu, self.loop_cpu() - loop_cpu)
        if self._time_parts(signal.SIGUSR2):
            await self._parts_reported(said)
        return paced

    def _time_parts(self, told: signal.Signals) -> bool:
        """Tell a bot whose parts are timed to begin (``SIGUSR1``) or to report (``SIGUSR2``)."""
        if self.parts_report is None or self.process is None:
            return False
        if told is signal.SIGUSR2:
            self.parts_report.unlink(missing_ok=True)
        self.process.send_signal(told)
        return True

    async def _parts_reported(self, said: int) -> None:
        assert self.parts_report is not None
        deadline = time.monotonic() + ANSWER_WAIT
        while not self.parts_report.exists():  # the bot writes it whole once told (``bench.parts``)
            if time.monotonic() > deadline:
                raise RuntimeError("the bot did not report the CPU of its parts")
            await asyncio.sleep(0.01)
        self.parts.append(read_report(self.parts_report, said))

    async def saturated(self, seconds: float) -> tuple[int, float, float]:
        """(commands said, wall s, bot CPU s) with every table's next turn as soon as the last ended."""
        said = 0
        deadline = time.monotonic() + seconds

        async def run(room: Room) -> None:
            nonlocal said
            while time.monotonic() < deadline:
                done = await room.turn()
                said += done

        cpu, wall = self.cpu(), time.monotonic()
        await asyncio.gather(*(run(room) for room in self.rooms))
        return said, time.monotonic() - wall, self.cpu() - cpu

    async def stop(self) -> None:
        await botprocess.close_tabs(seat for room in self.rooms for seat in room.seats)
        if self.session is not None:
            await self.session.close()
        botprocess.end(self.process)


class Paced(NamedTuple):
    """A paced phase: the commands said, and the bot's CPU seconds meanwhile (all its threads, and
    its event loop's thread alone)."""

    said: int
    cpu: float
    loop_cpu: float

    def per_command_ms(self) -> tuple[float, float]:
        """(bot CPU, its event loop's CPU) per command, ms."""
        said = max(1, self.said)
        return self.cpu * 1000 / said, self.loop_cpu * 1000 / said


@dataclass
class Tally:
    """One build's figures over the rounds."""

    name: str
    cpu_ms: list[float] = field(default_factory=list)
    #: the paced phases' CPU per command in the bot's event loop thread, ms (the rest: the store's writer)
    loop_cpu_ms: list[float] = field(default_factory=list)
    #: with ``--parts``, each paced phase's parts of this build: (label, µs per command, calls per command)
    parts: list[list[tuple[str, float, float]]] = field(default_factory=list)
    per_second: list[float] = field(default_factory=list)
    #: the saturated phases' bot CPU per command, ms
    saturated_cpu_ms: list[float] = field(default_factory=list)
    #: the idle phases' bot CPU, ms per second
    idle_ms: list[float] = field(default_factory=list)

    def line(self) -> str:
        cpu = ", ".join(f"{ms:.2f}" for ms in self.cpu_ms)
        rate = ", ".join(f"{n:,.0f}" for n in self.per_second)
        return f"{self.name}: paced CPU per command {cpu} ms; saturated {rate} commands/s"

    def parts_line(self, plan: Plan) -> str:
        """What a paced command's CPU is made of: the idle CPU at the paced phase's tables and a
        saturated command's CPU (the rest is what waking for each command costs)."""
        idle = ", ".join(f"{ms:.0f}" for ms in self.idle_ms)
        work = ", ".join(f"{ms:.2f}" for ms in self.saturated_cpu_ms)
        return (
            f"{self.name}: idle at {plan.tables:,} tables {idle} ms CPU/s; "
            f"saturated CPU per command {work} ms"
        )

    def threads_line(self) -> str:
        """Where a paced command's CPU went: the event loop's thread, and the threads beside it (the
        store's writer, which commits each move at this pace on its own)."""
        loop = ", ".join(f"{ms:.2f}" for ms in self.loop_cpu_ms)
        rest = ", ".join(
            f"{max(0.0, all_ - ms):.2f}" for all_, ms in zip(self.cpu_ms, self.loop_cpu_ms, strict=True)
        )
        return (
            f"{self.name}: paced CPU per command in the event loop's thread {loop} ms; "
            f"in the threads beside it {rest} ms"
        )


@dataclass(frozen=True)
class Plan:
    """What each round measures: the paced phase's tables and rate, the saturated phase's tables."""

    tables: int
    seconds: float
    rate: float
    rounds: int
    saturated_tables: int
    seed: int = 1
    #: this build's bot runs with its parts timed (``bench.parts``), and their table is printed
    timed_parts: bool = False

    @property
    def most_tables(self) -> int:
        """The tables of the saturated phase (it seats more, never fewer)."""
        return max(self.tables, self.saturated_tables)

    @property
    def idle_seconds(self) -> float:
        """How long the idle phase lasts: a paced phase's seconds, at most ``IDLE_SECONDS``."""
        return min(IDLE_SECONDS, self.seconds)


async def _saturate(bot: Bot, tally: Tally, plan: Plan) -> None:
    """The saturated phase on ``bot``, its commands per second and CPU per command added to ``tally``."""
    await bot.seat(plan.saturated_tables)
    count, wall, cpu = await bot.saturated(plan.seconds)
    tally.per_second.append(count / wall)
    tally.saturated_cpu_ms.append(cpu * 1000 / max(1, count))


async def run_versus(tree: Path, plan: Plan, say: Callable[[str], None] = print) -> tuple[Tally, Tally]:
    """The builds measured in turn, ``plan.rounds`` times; prints each measurement as it is made."""
    this, other = Tally("this build"), Tally(str(tree))
    collector = CollectorPolicy()
    collector.install()  # the tabs stand in for browsers: their collections are not the bots' figures
    try:
        for number in range(plan.rounds):
            for tally, source in (
                ((this, None), (other, tree)) if number % 2 == 0 else ((other, tree), (this, None))
            ):
                with tempfile.TemporaryDirectory(prefix="bazaarbot-bench-versus-") as folder:
                    bot = Bot(source, Path(folder), plan.seed + number, plan.timed_parts)
                    try:
                        await bot.start()
                        await bot.seat(plan.tables)
                        tally.idle_ms.append(await bot.idle(plan.idle_seconds) * 1000)
                        cpu_ms, loop_ms = (await bot.paced(plan.seconds, plan.rate)).per_command_ms()
                        tally.cpu_ms.append(cpu_ms)
                        tally.loop_cpu_ms.append(loop_ms)
                        tally.parts += bot.parts
                        await _saturate(bot, tally, plan)
                    finally:
                        await bot.stop()
                say(
                    f"round {number + 1}, {tally.name}: paced {plan.rate:g}/s at {plan.tables:,} tables "
                    f"{tally.cpu_ms[-1]:.2f} ms bot CPU per command; saturated at "
                    f"{plan.most_tables:,} tables {tally.per_second[-1]:,.0f} commands/s"
                )
    finally:
        collector.uninstall()
    return this, other


async def run_together(
    tree: Path, plan: Plan, say: Callable[[str], None] = print
) -> tuple[Tally, Tally, list[float]]:
    """Both builds paced at once, twice a round (then saturated in turns); each round's paired ratio too."""
    this, other = Tally("this build"), Tally(str(tree))
    ratios: list[float] = []
    collector = CollectorPolicy()
    collector.install()
    with contextlib.ExitStack() as folders:
        bots: dict[str, Bot] = {}
        for tally, source in ((this, None), (other, tree)):
            folder = folders.enter_context(tempfile.TemporaryDirectory(prefix="bazaarbot-bench-together-"))
            bots[tally.name] = Bot(source, Path(folder), plan.seed, plan.timed_parts)
        try:
            for bot in bots.values():
                await bot.start()
                await bot.seat(plan.tables)
            for number in range(plan.rounds):
                idle = await asyncio.gather(*(bots[t.name].idle(plan.idle_seconds) for t in (this, other)))
                for tally, cpu in zip((this, other), idle, strict=True):
                    tally.idle_ms.append(cpu * 1000)
                # each build's load first once: the load that starts first costs its bot a little more
                phases = []
                for order in ((this, other), (other, this)):
                    paced = (bots[t.name].paced(plan.seconds, plan.rate) for t in order)
                    measured = zip(order, await asyncio.gather(*paced), strict=True)
                    phases.append({t.name: figures.per_command_ms() for t, figures in measured})
                for tally in (this, other):
                    tally.cpu_ms.append(statistics.fmean(phase[tally.name][0] for phase in phases))
                    tally.loop_cpu_ms.append(statistics.fmean(phase[tally.name][1] for phase in phases))
                paired = [
                    max(1e-9, phase[this.name][0]) / max(1e-9, phase[other.name][0]) for phase in phases
                ]
                ratios.append(statistics.geometric_mean(paired))
                say(
                    f"round {number + 1}, together: paced {plan.rate:g}/s at {plan.tables:,} tables each, "
                    f"bot CPU per command {this.name} {this.cpu_ms[-1]:.2f} ms, {other.name} "
                    f"{other.cpu_ms[-1]:.2f} ms ({ratios[-1]:.2f})"
                )
            for number in range(plan.rounds):
                for tally in (this, other) if number % 2 == 0 else (other, this):
                    await _saturate(bots[tally.name], tally, plan)
                    say(
                        f"round {number + 1}, {tally.name}: saturated at {plan.most_tables:,} tables "
                        f"{tally.per_second[-1]:,.0f} commands/s"
                    )
        finally:
            for bot in bots.values():
                await bot.stop()
            collector.uninstall()
    for tally in (this, other):
        tally.parts = bots[tally.name].parts
    return this, other, ratios


def main(args: argparse.Namespace) -> int:
    tree = Path(args.versus)
    if not (tree / "bazaarbot" / "cli.py").is_file():
        print(f"--versus {tree}: not a bazaarbot source tree (no bazaarbot/cli.py)")
        return 2
    plan = Plan(
        args.tables, args.seconds, args.rate, args.rounds, args.saturated_tables, timed_parts=args.parts
    )
    if args.together:
        this, other, ratios = asyncio.run(run_together(tree, plan))
        ratio, label = statistics.median(ratios), "bot CPU per command, this / other, paired"
    else:
        this, other = asyncio.run(run_versus(tree, plan))
        ratio = statistics.median(this.cpu_ms) / max(1e-9, statistics.median(other.cpu_ms))
        label = "bot CPU per command, this / other"
    print(this.line())
    print(other.line())
    print(this.parts_line(plan))
    print(other.parts_line(plan))
    print(this.threads_line())
    print(other.threads_line())
    if this.parts:
        print("\n".join(parts_lines(this.name, this.parts)))
    speed = statistics.median(this.per_second) / max(1e-9, statistics.median(other.per_second))
    print(f"{label:<40} {ratio:.2f} (goal: at most 0.7)")
    print(f"{'saturated commands/s, this / other':<40} {speed:.2f} (goal: at least 1.5)")
    return 0
