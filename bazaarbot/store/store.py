"""sqlite persistence: tables, seats, games, the append-only move log, snapshots, results.

Writes go through one writer (``store_writer.py``). Outside a line, each write
commits before it returns. While the hub processes a line, the line's writes
are queued in its unit and committed together with other lines' (group
commit); the hub sends the line's answers only once that commit is done, so a
move the bot has answered is on disk. Ids of new rows are given out from
memory so a queued write can return its id at once. The schema carries a
version and each migration is a function applied once, in order.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import sqlite_utils

from bazaarbot.store.seatcodes import SeatCodes
from bazaarbot.store.teaching import migrate_teaching
from bazaarbot.store.writer import PREFS, StoreWriter, Unit, table_scope
from bazaarbot.text.commandmark import render

T = TypeVar("T")


def _migrate_1(db: sqlite_utils.Database) -> None:
    db["tables"].create(
        {
            "id": int,
            "network": str,
            "channel": str,
            "game": str,
            "options": str,
            "host": str,
            "colors": int,
            "created": float,
        },
        pk="id",
        if_not_exists=True,
    )
    db["tables"].create_index(["network", "channel"], unique=True, if_not_exists=True)
    db["seats"].create(
        {"table_id": int, "seat": int, "user_key": str, "nick": str},
        pk=("table_id", "seat"),
        if_not_exists=True,
    )
    db["games"].create(
        {
            "id": int,
            "table_id": int,
            "network": str,
            "channel": str,
            "plugin": str,
            "rules_version": str,
            "seed": int,
            "options": str,
            "players": str,
            "status": str,
            "started": float,
            "ended": float,
            "result": str,
            "note": str,
        },
        pk="id",
        if_not_exists=True,
    )
    db["games"].create_index(["status"], if_not_exists=True)
    db["moves"].create(
        {"id": int, "game_id": int, "n": int, "seat": int, "author": str, "text": str, "at": float},
        pk="id",
        if_not_exists=True,
    )
    db["moves"].create_index(["game_id", "n"], unique=True, if_not_exists=True)
    db["results"].create(
        {
            "game_id": int,
            "seat": int,
            "user_key": str,
            "nick": str,
            "score": float,
            "rank": int,
            "winner": int,
        },
        pk=("game_id", "seat"),
        if_not_exists=True,
    )
    db["prefs"].create(
        {"network": str, "user_key": str, "name": str, "value": str},
        pk=("network", "user_key", "name"),
        if_not_exists=True,
    )


def _migrate_2_ratings(db: sqlite_utils.Database) -> None:
    """Ratings, derived from ``results`` (``bazaarbot ratings rebuild``), and what each game changed."""
    db["ratings"].create(
        {
            "network": str,
            "game": str,
            "identity": str,
            "nick": str,
            "mu": float,
            "sigma": float,
            "games": int,
            "wins": int,
            "last_game": int,
            "last_played": float,
        },
        pk=("network", "game", "identity"),
        if_not_exists=True,
    )
    db["rating_changes"].create(
        {
            "game_id": int,
            "seat": int,
            "network": str,
            "identity": str,
            "rated": int,
            "mu_before": float,
            "sigma_before": float,
            "mu_after": float,
            "sigma_after": float,
        },
        pk=("game_id", "seat"),
        if_not_exists=True,
    )
    db["results"].create_index(["user_key"], if_not_exists=True)
    db["games"].create_index(["status", "ended"], if_not_exists=True)


def _migrate_snapshots(db: sqlite_utils.Database) -> None:
    """The latest snapshot of each game: restart loads it and replays only the moves after it."""
    db["snapshots"].create(
        {"game_id": int, "n": int, "rules_version": str, "state": str, "at": float},
        pk="game_id",
        if_not_exists=True,
    )


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [
    _migrate_1,
    _migrate_2_ratings,
    _migrate_snapshots,
    migrate_teaching,
]
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass
class SeatRow:
    seat: int
    user_key: str
    nick: str


@dataclass
class TableRow:
    id: int
    network: str
    channel: str
    game: str
    options: dict[str, Any]
    host: str
    colors: bool
    seats: list[SeatRow]


@dataclass
class GameRow:
    id: int
    table_id: int
    plugin: str
    rules_version: str
    seed: int
    options: dict[str, Any]
    players: list[dict[str, str]]
    status: str


@dataclass
class Snapshot:
    """A game's state after its first ``n`` moves, as the plugin's ``to_json`` wrote it."""

    n: int
    rules_version: str
    state: dict[str, Any]


@dataclass
class RunningGameRow:
    """A running game with its latest snapshot and the logged moves after it (all from one load)."""

    game: GameRow
    snapshot: Snapshot | None
    tail: list[dict[str, Any]] = field(default_factory=list)


class Store:
    """The bot's one sqlite file (WAL mode, full sync: a commit is a promise).

    ``db`` is the reading connection (and the one transports keep their own
    small tables on); every write of the game records goes through ``writer``.
    """

    #: the networks whose tables this process loads and serves (None: every one in the store)
    networks: frozenset[str] | None = None
    #: whether reads cross a network to a server (``read`` then runs them off the event loop)
    remote = False

    def __init__(self, path: str | Path, networks: frozenset[str] | None = None) -> None:
        self.path = str(path)
        self.networks = networks
        self.db = self._open_reader()
        self._migrate()
        self.writer = self._open_writer()
        self._load_ids()

    @functools.cached_property
    def seat_codes(self) -> SeatCodes:
        """The seat claim codes of the served networks, in memory and written with the line (group commit)."""
        return SeatCodes(self.db.conn, self.writer.write, self.networks)

    def _open_reader(self) -> Any:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=5000")
        return sqlite_utils.Database(conn)

    def _open_writer(self) -> StoreWriter:
        return StoreWriter(self.path)

    def _served(self, column: str) -> tuple[str, list[str]]:
        """A WHERE condition keeping the rows of the networks this process serves (and its parameters)."""
        if self.networks is None:
            return "1=1", []
        names = sorted(self.networks)
        return f"{column} IN ({','.join('?' * len(names))})", names

    def _load_ids(self) -> None:
        """Next ids and the (network, channel) -> table id map, so queued inserts know their ids."""
        conn = self.db.conn
        served, names = self._served("network")
        self._table_ids: dict[tuple[str, str], int] = {
            (n, c): i
            for i, n, c in conn.execute(f"SELECT id, network, channel FROM tables WHERE {served}", names)
        }
        self._table_keys: dict[int, tuple[str, str]] = {i: k for k, i in self._table_ids.items()}
        self._next_table = int(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM tables").fetchone()[0])
        self._next_game = int(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0])
        #: game id -> table id, for the scope of a game's writes (live games only)
        self._game_tables: dict[int, int] = {
            g: t
            for g, t in conn.execute(
                f"SELECT id, table_id FROM games WHERE status='running' AND {served}", names
            )
        }

    def _new_table_id(self) -> int:
        table_id = self._next_table
        self._next_table += 1
        return table_id

    def _new_game_id(self) -> int:
        game_id = self._next_game
        self._next_game += 1
        return game_id

    def close(self) -> None:
        self.writer.close()
        self.db.conn.close()

    async def read(self, work: Callable[[], T]) -> T:
        """``work`` (reads of the records, and the writes of ratings beside them) for the event loop.

        A sqlite file answers from its page cache while the loop waits a
        moment: ``work`` runs here, at once. A server's store runs it where the
        loop does not wait for the server (see ``postgres.store``).
        """
        return work()

    # --- units of work (group commit) -----------------------------------------------------
    def begin(self) -> Unit:
        """Collect the writes of the line being processed into one unit (see ``store_writer``)."""
        return self.writer.begin()

    def end(self) -> Unit:
        return self.writer.end()

    def commit_now(self) -> list[Unit]:
        """Write every queued unit on this thread; the units that failed."""
        return self.writer.commit_now()

    async def commit(self, unit: Unit) -> bool:
        """Wait (without blocking the loop) until ``unit`` is on disk; False if it failed."""
        return await self.writer.commit(unit)

    def touch_table(self, table_id: int | None) -> None:
        """The current line's answer depends on this table: it waits for the table's queued writes."""
        if table_id is not None:
            self.writer.touch(table_scope(table_id))

    @contextlib.contextmanager
    def _atomic(self, what: str) -> Iterator[None]:
        """Several writes as one transaction: the line's unit, or (outside a line) one of their own."""
        if self.writer.open is not None:
            yield
            return
        self.begin()
        try:
            yield
        finally:
            self.end()
        if self.commit_now():
            raise sqlite3.OperationalError(what)

    def _settled_reads(self) -> None:
        """Reads of game records must see every accepted write: commit the queue first."""
        if self.writer.queued:
            self.writer.commit_now()

    def table_key(self, table_id: int) -> tuple[str, str] | None:
        """The (network, channel) of a table id this store gave out or loaded."""
        return self._table_keys.get(table_id)

    def forget_created(self, units: list[Unit]) -> None:
        """Units that never reached the disk: the table ids they gave out are free again, and the
        seat codes they changed in memory are as the store has them.

        (Ids are never reused: the counters only grow. A running game the
        reload brings back registers its table again in ``running_games``.)
        """
        for unit in units:
            for key in unit.created:
                table_id = self._table_ids.pop(key, None)
                if table_id is not None:
                    self._table_keys.pop(table_id, None)
        if units and "seat_codes" in self.__dict__:  # made (cached) already
            self.seat_codes.reload()

    # --- schema ---------------------------------------------------------------
    def schema_version(self) -> int:
        return int(self.db.conn.execute("PRAGMA user_version").fetchone()[0])

    def _set_schema_version(self, version: int) -> None:
        self.db.conn.execute(f"PRAGMA user_version={int(version)}")

    def _migrate(self) -> None:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this bot ({SCHEMA_VERSION})")
        for number in range(version, SCHEMA_VERSION):
            MIGRATIONS[number](self.db)
            self._set_schema_version(number + 1)

    # --- tables and seats -------------------------------------------------------
    def ensure_table(self, network: str, channel: str, game: str) -> int:
        known = self._table_ids.get((network, channel))
        if known is not None:
            return known
        table_id = self._new_table_id()
        self._table_ids[(network, channel)] = table_id
        self._table_keys[table_id] = (network, channel)
        if self.writer.open is not None:
            self.writer.open.created.append((network, channel))
        self.writer.write(
            table_scope(table_id),
            "INSERT INTO tables(id, network, channel, game, options, host, colors, created) "
            "VALUES (?,?,?,?,?,?,?,?)",
            [table_id, network, channel, game, "{}", "", 0, time.time()],
        )
        return table_id

    def save_lobby(
        self, table_id: int, game: str, options: dict[str, Any], host: str, seats: list[SeatRow], colors: bool
    ) -> None:
        """Replace the table's lobby state (in one transaction)."""
        with self._atomic("the lobby could not be saved"):
            self._save_lobby(table_scope(table_id), table_id, game, options, host, seats, colors)

    def _save_lobby(
        self,
        scope: Any,
        table_id: int,
        game: str,
        options: dict[str, Any],
        host: str,
        seats: list[SeatRow],
        colors: bool,
    ) -> None:
        write = self.writer.write
        write(
            scope,
            "UPDATE tables SET game=?, options=?, host=?, colors=? WHERE id=?",
            [game, json.dumps(options, sort_keys=True), host, int(colors), table_id],
        )
        write(scope, "DELETE FROM seats WHERE table_id=?", [table_id])
        if seats:
            write(
                scope,
                "INSERT INTO seats(table_id, seat, user_key, nick) VALUES (?,?,?,?)",
                [(table_id, s.seat, s.user_key, s.nick) for s in seats],
                many=True,
            )

    def load_tables(self, table_id: int | None = None) -> list[TableRow]:
        """Every table with its seats (two queries), or just one table."""
        served, names = self._served("network")
        where, params = ("WHERE id=?", [table_id]) if table_id is not None else (f"WHERE {served}", names)
        seat_where = (
            "WHERE table_id=?"
            if table_id is not None
            else f"WHERE table_id IN (SELECT id FROM tables WHERE {served})"
        )
        seats: dict[int, list[SeatRow]] = {}
        for tid, seat, key, nick in self.db.conn.execute(
            f"SELECT table_id, seat, user_key, nick FROM seats {seat_where} ORDER BY table_id, seat", params
        ):
            seats.setdefault(tid, []).append(SeatRow(seat, key, nick))
        tables = []
        for row in self.db.query(f"SELECT * FROM tables {where} ORDER BY id", params):
            tables.append(
                TableRow(
                    row["id"],
                    row["network"],
                    row["channel"],
                    row["game"],
                    json.loads(row["options"] or "{}"),
                    row["host"] or "",
                    bool(row["colors"]),
                    seats.get(row["id"], []),
                )
            )
        return tables

    # --- games --------------------------------------------------------------------
    def next_game_number(self) -> int:
        return self._next_game

    def start_game(
        self,
        table_id: int,
        network: str,
        channel: str,
        plugin: str,
        rules_version: str,
        seed: int,
        options: dict[str, Any],
        players: list[dict[str, str]],
    ) -> int:
        game_id = self._new_game_id()
        self._game_tables[game_id] = table_id
        self.writer.write(
            table_scope(table_id),
            "INSERT INTO games(id, table_id, network, channel, plugin, rules_version, seed, options, "
            "players, status, started) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [
                game_id,
                table_id,
                network,
                channel,
                plugin,
                rules_version,
                seed,
                json.dumps(options, sort_keys=True),
                json.dumps(players),
                "running",
                time.time(),
            ],
        )
        return game_id

    def _game_scope(self, game_id: int) -> Any:
        table_id = self._game_tables.get(game_id)
        return table_scope(table_id) if table_id is not None else None

    def append_move(self, game_id: int, n: int, seat: int, author: str, text: str) -> None:
        """Record an accepted command: committed at once outside a line, else with the line's unit."""
        self.writer.write(
            self._game_scope(game_id),
            "INSERT INTO moves(game_id, n, seat, author, text, at) VALUES (?,?,?,?,?,?)",
            [game_id, n, seat, author, text, time.time()],
        )

    def rename_player(self, game_id: int, seat: int, nick: str, user_key: str) -> None:
        self.writer.write(
            self._game_scope(game_id),
            "UPDATE games SET players=json_set(players, ?, ?, ?, ?) WHERE id=?",
            [f"$[{int(seat)}].key", user_key, f"$[{int(seat)}].nick", nick, game_id],
        )

    def set_players(self, game_id: int, players: list[dict[str, object]]) -> None:
        """Who holds each seat of a running game now (a person or an AI), as ``Seat.record`` gives it."""
        self.writer.write(
            self._game_scope(game_id), "UPDATE games SET players=? WHERE id=?", [json.dumps(players), game_id]
        )

    def save_snapshot(self, game_id: int, n: int, rules_version: str, state: dict[str, Any]) -> None:
        """Keep the game's state after ``n`` moves (replacing the older snapshot)."""
        self.writer.write(
            self._game_scope(game_id),
            "INSERT OR REPLACE INTO snapshots(game_id, n, rules_version, state, at) VALUES (?,?,?,?,?)",
            [game_id, n, rules_version, json.dumps(state, separators=(",", ":")), time.time()],
        )

    def set_rules_version(self, game_id: int, rules_version: str, note: str) -> None:
        """A game replayed under newer rules carries on under them; the note says from which."""
        self.writer.write(
            self._game_scope(game_id),
            "UPDATE games SET rules_version=?, note=? WHERE id=?",
            [rules_version, note, game_id],
        )

    def finish_game(
        self,
        game_id: int,
        status: str,
        result: dict[str, Any] | None,
        rows: list[dict[str, Any]],
        note: str = "",
    ) -> None:
        """Close a game as finished or abandoned, with its result rows, atomically."""
        scope = self._game_scope(game_id)
        with self._atomic("the end of the game could not be saved"):
            self.writer.write(
                scope,
                "UPDATE games SET status=?, ended=?, result=?, note=? WHERE id=?",
                # a note names commands with a slash on disk, whoever reads it later
                [status, time.time(), json.dumps(result) if result else None, render(note), game_id],
            )
            if rows:
                self.writer.write(
                    scope,
                    "INSERT OR REPLACE INTO results(game_id, seat, user_key, nick, score, rank, winner) "
                    "VALUES (:game_id, :seat, :user_key, :nick, :score, :rank, :winner)",
                    [dict(r, game_id=game_id) for r in rows],
                    many=True,
                )
            self.writer.write(scope, "DELETE FROM snapshots WHERE game_id=?", [game_id])
        self._game_tables.pop(game_id, None)

    def running_game(self, table_id: int) -> GameRow | None:
        self._settled_reads()
        found = self.running_games(table_id)
        return found[0].game if found else None

    def running_games(self, table_id: int | None = None) -> list[RunningGameRow]:
        """Every running game (or one table's) with its latest snapshot and the moves after it.

        Two queries whatever the number of games: the games joined with their
        snapshots, then every tail move of all of them.
        """
        served, names = self._served("g.network")
        where = "AND g.table_id=?" if table_id is not None else f"AND {served}"
        params = [table_id] if table_id is not None else names
        found: dict[int, RunningGameRow] = {}
        for row in self.db.conn.execute(
            "SELECT g.id, g.table_id, g.plugin, g.rules_version, g.seed, g.options, g.players, g.status, "
            "s.n, s.rules_version, s.state FROM games g LEFT JOIN snapshots s ON s.game_id = g.id "
            f"WHERE g.status='running' {where} ORDER BY g.id DESC",
            params,
        ):
            game = GameRow(
                row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), json.loads(row[6]), row[7]
            )
            snapshot = Snapshot(row[8], row[9], json.loads(row[10])) if row[8] is not None else None
            found[game.id] = RunningGameRow(game, snapshot)
            self._game_tables[game.id] = game.table_id
        for game_id, n, seat, author, text, at in self.db.conn.execute(
            "SELECT m.game_id, m.n, m.seat, m.author, m.text, m.at FROM games g "
            "LEFT JOIN snapshots s ON s.game_id = g.id "
            "JOIN moves m ON m.game_id = g.id AND m.n >= COALESCE(s.n, 0) "
            f"WHERE g.status='running' {where} ORDER BY m.game_id, m.n",
            params,
        ):
            found[game_id].tail.append({"n": n, "seat": seat, "author": author, "text": text, "at": at})
        return list(found.values())

    def last_game(self, table_id: int) -> GameRow | None:
        """The table's latest game, whatever its status (a finished one stays on the web board)."""
        self._settled_reads()
        row = self.db.execute(
            "SELECT id, table_id, plugin, rules_version, seed, options, players, status FROM games "
            "WHERE table_id=? ORDER BY id DESC LIMIT 1",
            [table_id],
        ).fetchone()
        if not row:
            return None
        return GameRow(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), json.loads(row[6]), row[7])

    def moves(self, game_id: int, start: int = 0) -> list[dict[str, Any]]:
        self._settled_reads()
        return list(
            self.db.query(
                "SELECT n, seat, author, text, at FROM moves WHERE game_id=? AND n>=? ORDER BY n",
                [game_id, start],
            )
        )

    def game_record(self, game_id: int) -> dict[str, Any] | None:
        """A whole game as plain data, for ``bazaarbot export``."""
        self._settled_reads()
        rows = list(self.db.query("SELECT * FROM games WHERE id=?", [game_id]))
        if not rows:
            return None
        g = rows[0]
        return {
            "id": g["id"],
            "network": g["network"],
            "channel": g["channel"],
            "game": g["plugin"],
            "rules_version": g["rules_version"],
            "seed": g["seed"],
            "options": json.loads(g["options"]),
            "players": json.loads(g["players"]),
            "status": g["status"],
            "started": g["started"],
            "ended": g["ended"],
            "result": json.loads(g["result"]) if g["result"] else None,
            "note": g["note"],
            "moves": [
                {"n": m["n"], "seat": m["seat"], "author": m["author"], "text": m["text"], "at": m["at"]}
                for m in self.moves(game_id)
            ],
        }

    # --- preferences --------------------------------------------------------------
    def set_pref(self, network: str, user_key: str, name: str, value: str) -> None:
        self.writer.write(
            PREFS,
            "INSERT OR REPLACE INTO prefs(network, user_key, name, value) VALUES (?,?,?,?)",
            [network, user_key, name, value],
        )

    def prefs(self) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT * FROM prefs"))
