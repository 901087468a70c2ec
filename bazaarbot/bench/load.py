"""``bazaarbot bench load``: many live tables through the real hub, tables and store.

The bot runs in-process on a temporary sqlite file, fed through a recording
transport: each table's player to act asks ``/moves all`` privately and says
one of the listed commands at random in the channel, a finished game is
restarted with ``/start``. Phases:

* closed loop — every table sends its next line as soon as the last is
  answered (throughput, CPU per command);
* paced — a fixed rate of lines over all tables (latency of moves and of
  ``/moves all`` when the bot is not saturated);
* restore — the time to open the file again and bring every table back,
  after a clean stop (shutdown snapshots) and as a crash would leave it
  (snapshots up to ``snapshot_every`` moves old);
* with ``--bots`` — 8 of the tables seat a person against a ``hard`` AI
  whose searches run in the AI worker processes; the other tables are paced
  meanwhile, and their latency shows what thinking AIs cost everybody else;
* store-free — the same closed loop on a file that is never flushed, the
  ceiling the shell could reach without the disk.

With ``--store postgresql://...`` the phases run on that PostgreSQL server
(in a schema of their own, dropped afterwards), and the closed loop runs once
more on a durable sqlite file, so the three stores are measured side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bazaarbot.collector import CollectorPolicy
from bazaarbot.config import AiSettings, BotSettings, RateLimit
from bazaarbot.hub.hub import Hub
from bazaarbot.messages import Incoming, Outgoing, Say, Tell, User
from bazaarbot.store import open_store
from bazaarbot.store.postgres import is_postgres_url, shown

NETWORK = "bench"


@dataclass
class RecordingTransport:
    """A network that keeps only what the benchmark needs: each nick's last listing, line counts."""

    network: str = NETWORK
    listings: dict[str, str] = field(default_factory=dict)
    said: int = 0
    told: int = 0

    async def start(self, hub: object) -> None:
        hub.attach(self)

    async def stop(self) -> None:
        return None

    async def send(self, message: Outgoing) -> None:
        if isinstance(message, Tell):
            self.told += 1
            if message.listing or message.text == "(no moves)":
                self.listings[message.nick] = message.text
        elif isinstance(message, Say):
            self.said += 1


@dataclass
class Latencies:
    """Seconds per answered line, by kind."""

    moves: list[float] = field(default_factory=list)
    listings: list[float] = field(default_factory=list)
    other: list[float] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.moves) + len(self.listings) + len(self.other)


@dataclass
class Player:
    """One table of the benchmark and the nicks seated at it."""

    channel: str
    nicks: list[str]
    rng: random.Random
    #: the next step: ask for the moves, or play one of them
    asked: bool = False


def rss_bytes() -> int:
    """The process's resident set size now (Linux), else its peak."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1]


@dataclass(eq=False)
class LoadBench:
    """One benchmark run on one store (a sqlite file, or a PostgreSQL database)."""

    path: Path | str
    tables: int
    game: str
    seed: int
    durable: bool = True
    #: the first ``bots`` tables seat one person against a ``hard`` AI
    bots: int = 0
    settings: BotSettings = field(init=False)
    hub: Hub = field(init=False)
    transport: RecordingTransport = field(init=False, default_factory=RecordingTransport)
    players: list[Player] = field(init=False)

    def __post_init__(self) -> None:
        self.settings = BotSettings(
            default_game=self.game, seed=self.seed, rate_limit=RateLimit(commands=10**9, per_seconds=1)
        )
        self.hub = self._open()
        self.hub.attach(self.transport)
        rng = random.Random(self.seed)
        self.players = [
            Player(f"#t{i}", [f"p{i}x{s}" for s in range(self._seats())], random.Random(rng.random()))
            for i in range(self.tables)
        ]

    def _open(self) -> Hub:
        store = open_store(self.path)
        if not self.durable:
            store.writer.conn.execute("PRAGMA synchronous=OFF")
        return Hub(
            store,
            settings=self.settings,
            unlimited_networks=frozenset({NETWORK}),
            ai=AiSettings(move_delay=0.0, review_after_game=0.0),
        )

    def _seats(self) -> int:
        plugin = self.hub.games[self.game]
        return max(plugin.min_players, min(2, plugin.max_players))

    async def say(self, nick: str, text: str, channel: str | None) -> None:
        await self.hub.handle(Incoming(NETWORK, channel, User(nick), text))

    async def setup(self) -> None:
        """Seat everybody and start every game (all tables at once, so their commits group)."""

        async def one(index: int, player: Player) -> None:
            await self.say(player.nicks[0], f"/new {self.game}", player.channel)
            if index < self.bots:
                await self.say(player.nicks[0], "/addbot hard", player.channel)
            else:
                for nick in player.nicks[1:]:
                    await self.say(nick, "/join", player.channel)
            await self.say(player.nicks[0], "/start", player.channel)

        await asyncio.gather(*(one(i, p) for i, p in enumerate(self.players)))

    async def step(self, player: Player, latencies: Latencies) -> None:
        """The table's next line: ask for the moves, or play one, or start a rematch."""
        table = self.hub.tables[(NETWORK, player.channel)]
        start = time.perf_counter()
        if not table.running:
            await self.say(player.nicks[0], "/start", player.channel)
            latencies.other.append(time.perf_counter() - start)
            player.asked = False
            return
        seat = table.plugin.to_act(table.state)[0]
        if table.players[seat].ai is not None or table.players[seat].is_bot:
            await asyncio.sleep(0.01)  # the AI is thinking; its move arrives by itself
            return
        nick = table.players[seat].nick
        if not player.asked:
            await self.say(nick, "/moves all", None)
            latencies.listings.append(time.perf_counter() - start)
            player.asked = True
            return
        listing = self.transport.listings.pop(nick, "(no moves)")
        player.asked = False
        if listing == "(no moves)":
            return
        await self.say(nick, player.rng.choice(listing.split("\n")), player.channel)
        latencies.moves.append(time.perf_counter() - start)

    async def closed_loop(self, seconds: float) -> tuple[Latencies, float, float]:
        """Every table sends its next line once the last is answered; (latencies, wall s, CPU s)."""
        latencies = Latencies()
        deadline = time.perf_counter() + seconds

        async def run(player: Player) -> None:
            while time.perf_counter() < deadline:
                await self.step(player, latencies)

        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(run(p) for p in self.players))
        return latencies, time.perf_counter() - wall, time.process_time() - cpu

    async def paced(self, seconds: float, rate: float, players: list[Player] | None = None) -> Latencies:
        """``rate`` lines a second over the tables: turns (two lines each) at the tables in turn."""
        players = self.players if players is None else players
        latencies = Latencies()
        busy: set[int] = set()
        tasks: set[asyncio.Task[None]] = set()
        loop = asyncio.get_running_loop()
        start = loop.time()
        sent = 0
        turn = 0
        while loop.time() - start < seconds:
            due = start + sent / rate
            await asyncio.sleep(max(0.0, due - loop.time()))
            for _attempt in range(len(players)):
                index = turn % len(players)
                turn += 1
                if index not in busy:
                    break
            else:
                sent += 1
                continue
            busy.add(index)

            async def one(i: int = index) -> None:
                try:  # a whole turn: the moves, then one of them
                    await self.step(players[i], latencies)
                    await asyncio.sleep(1 / rate)
                    await self.step(players[i], latencies)
                finally:
                    busy.discard(i)

            task = loop.create_task(one())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            sent += 2
        if tasks:
            await asyncio.gather(*tasks)
        return latencies

    async def with_ais(self, seconds: float, rate: float) -> tuple[Latencies, int]:
        """The AI tables' people move as fast as their AIs answer; the other tables paced.

        Returns the other tables' latencies and how many AI moves were played.
        """
        ai_tables = self.players[: self.bots]
        others = self.players[self.bots :]
        before = self._logged_ai_moves()
        deadline = time.perf_counter() + seconds
        ignored = Latencies()

        async def keep_thinking(player: Player) -> None:
            while time.perf_counter() < deadline:
                await self.step(player, ignored)

        busy = [asyncio.create_task(keep_thinking(p)) for p in ai_tables]
        latencies = await self.paced(seconds, rate, others)
        await asyncio.gather(*busy)
        return latencies, self._logged_ai_moves() - before

    def _logged_ai_moves(self) -> int:
        self.hub.store.commit_now()
        row = self.hub.store.db.conn.execute("SELECT COUNT(*) FROM moves WHERE author LIKE 'ai:%'").fetchone()
        return int(row[0])

    async def close(self) -> None:
        await self.hub.close()


@dataclass
class Figures:
    lines: list[str] = field(default_factory=list)

    def add(self, label: str, value: str) -> None:
        self.lines.append(f"{label:<34} {value}")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _latency_line(values: list[float]) -> str:
    if not values:
        return "-"
    return (
        f"p50 {_ms(_percentile(values, 0.50))}  p95 {_ms(_percentile(values, 0.95))}  "
        f"p99 {_ms(_percentile(values, 0.99))}  ({len(values):,} lines)"
    )


async def run_load(
    tables: int,
    seconds: float,
    game: str,
    rate: float = 60.0,
    seed: int = 1,
    say: Callable[[str], None] = print,
    bots: int = 0,
    store: str | None = None,
) -> dict[str, float]:
    """Run every phase and print the figures; returns them for a caller (and the tests).

    ``store``: a PostgreSQL URL to run the phases on instead of a sqlite file.
    """
    if store is not None:
        with scratch_schema(store) as scratch:
            return await _run_load(tables, seconds, game, rate, seed, say, bots, scratch, shown(store))
    return await _run_load(tables, seconds, game, rate, seed, say, bots, None, "sqlite file, full sync")


@contextlib.contextmanager
def scratch_schema(url: str) -> Iterator[str]:
    """A URL to the same database whose tables go to a new schema, dropped afterwards."""
    import psycopg

    name = f"bazaarbot_bench_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    joiner = "&" if "?" in url else "?"
    try:
        yield f"{url}{joiner}options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


async def _run_load(
    tables: int,
    seconds: float,
    game: str,
    rate: float,
    seed: int,
    say: Callable[[str], None],
    bots: int,
    server: str | None,
    where: str,
) -> dict[str, float]:
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bazaarbot-bench-") as tmp:
        path: Path | str = server if server is not None else Path(tmp) / "load.sqlite"
        rss_before = rss_bytes()
        bench = LoadBench(path, tables, game, seed, bots=bots)
        await bench.setup()
        rss_tables = rss_bytes() - rss_before
        collector = CollectorPolicy()  # what ``bazaarbot run`` does once its tables are restored
        collector.install()
        try:
            say(f"bench load: {tables:,} live {game} tables, {seconds:g} s per phase, {where}")
            figures = Figures()
            latencies, wall, cpu = await bench.closed_loop(seconds)
            writer = bench.hub.store.writer
            rate_closed = latencies.count / wall
            results.update(
                closed_commands_per_s=rate_closed,
                closed_moves_per_s=len(latencies.moves) / wall,
                cpu_ms_per_command=cpu * 1000 / max(1, latencies.count),
                # a turn: the player asks for the moves, then plays one
                cpu_ms_per_move=cpu * 1000 / max(1, len(latencies.moves)),
                rss_per_table=rss_tables / max(1, tables),
            )
            figures.add(
                "closed loop", f"{rate_closed:,.0f} commands/s ({len(latencies.moves) / wall:,.0f} moves/s)"
            )
            figures.add("  moves", _latency_line(latencies.moves))
            figures.add("  /moves all", _latency_line(latencies.listings))
            figures.add("  CPU per command", f"{results['cpu_ms_per_command']:.3f} ms")
            figures.add(
                "  lines per commit",
                f"{writer.units_committed / max(1, writer.commits):.1f} ({writer.commits:,} commits)",
            )
            paced = await bench.paced(seconds, rate, bench.players[bots:])
            results.update(
                paced_move_p99_ms=_percentile(paced.moves, 0.99) * 1000,
                paced_listing_p99_ms=_percentile(paced.listings, 0.99) * 1000,
            )
            figures.add(f"paced at {rate:g}/s: moves", _latency_line(paced.moves))
            figures.add("  /moves all", _latency_line(paced.listings))
            if bots:
                others, ai_moves = await bench.with_ais(seconds, rate)
                results["ai_other_p99_ms"] = _percentile(others.moves + others.listings, 0.99) * 1000
                figures.add(
                    f"paced beside {bots} hard AIs",
                    _latency_line(others.moves + others.listings) + f", {ai_moves:,} AI moves",
                )
            figures.add("RSS per live table", f"{rss_tables / max(1, tables) / 1024:,.1f} KiB")
            logged = int(bench.hub.store.db.conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
            bench.hub.store.commit_now()
            restores: list[tuple[str, Path | str]] = []
            if server is None:
                # the file as a crash would leave it: no shutdown snapshots, tails up to snapshot_every moves
                crashed_path = Path(tmp) / "crashed.sqlite"
                crashed = sqlite3.connect(crashed_path)
                bench.hub.store.db.conn.backup(crashed)
                crashed.close()
                restores = [("restore all tables", path), ("  after a crash", crashed_path)]
            else:  # a standby taking over restores the tables the way a restart does
                restores = [("restore all tables (takeover)", path)]
            await bench.close()
            for label, file in restores:
                start = time.perf_counter()
                hub = Hub(open_store(file), settings=bench.settings)
                restore = time.perf_counter() - start
                running = sum(1 for t in hub.tables.values() if t.running)
                hub.store.close()
                results.setdefault("restore_s", restore)
                results["restore_after_crash_s"] = restore
                figures.add(
                    label, f"{restore * 1000:,.0f} ms ({running:,} running games, {logged:,} logged moves)"
                )
            if server is not None:
                on_file = LoadBench(Path(tmp) / "durable.sqlite", tables, game, seed)
                await on_file.setup()
                file_latencies, file_wall, file_cpu = await on_file.closed_loop(seconds)
                await on_file.close()
                file_rate = file_latencies.count / file_wall
                results["sqlite_commands_per_s"] = file_rate
                file_cpu_ms = file_cpu * 1000 / max(1, file_latencies.count)
                figures.add(
                    "sqlite closed loop (full sync)",
                    f"{file_rate:,.0f} commands/s, CPU {file_cpu_ms:.3f} ms/command",
                )
            free_path = Path(tmp) / "free.sqlite"
            free = LoadBench(free_path, tables, game, seed, durable=False)
            await free.setup()
            free_latencies, free_wall, free_cpu = await free.closed_loop(seconds)
            await free.close()
            free_rate = free_latencies.count / free_wall
            free_cpu_ms = free_cpu * 1000 / max(1, free_latencies.count)
            results["store_free_commands_per_s"] = free_rate
            figures.add(
                "store-free closed loop",
                f"{free_rate:,.0f} commands/s, CPU {free_cpu_ms:.3f} ms/command"
                f" (durable/free {rate_closed / free_rate:.2f})",
            )
        finally:
            collector.uninstall()
        for line in figures.lines:
            say(line)
    return results


#: tables whose person plays a ``hard`` AI with ``--bots``
BOT_TABLES = 8


def chosen_game(args: argparse.Namespace) -> str | None:
    """The game the load plays (Jaipur unless named); None, said on stderr, when it is not installed."""
    from bazaarbot.registry import discover

    games = discover()
    game = args.load_game or args.game or "jaipur"
    if game not in games:
        print(f"no game {game!r}; installed: {', '.join(sorted(games))}", file=sys.stderr)
        return None
    return game


def main(args: argparse.Namespace) -> int:
    """``bazaarbot bench load``: checks the game and the tables, then runs every phase."""
    game = chosen_game(args)
    if game is None:
        return 2
    if args.bots and args.tables <= BOT_TABLES:
        print(f"bench load --bots needs more than {BOT_TABLES} tables.", file=sys.stderr)
        return 2
    store = getattr(args, "store", None)
    if store is not None and not is_postgres_url(store):
        print("bench load --store takes a postgresql:// URL", file=sys.stderr)
        return 2
    asyncio.run(run_load(args.tables, args.seconds, game, bots=BOT_TABLES if args.bots else 0, store=store))
    return 0
