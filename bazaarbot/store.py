"""sqlite persistence: tables, seats, games, the append-only move log, results.

Every write commits before it returns, so a move the bot has answered is
already on disk. The schema carries a version and each migration is a
function applied once, in order.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils


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


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [_migrate_1, _migrate_2_ratings]
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


class Store:
    """The bot's one sqlite file (WAL mode, full sync: a commit is a promise)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=5000")
        self.db = sqlite_utils.Database(conn)
        self._migrate()

    def close(self) -> None:
        self.db.conn.close()

    # --- schema ---------------------------------------------------------------
    def schema_version(self) -> int:
        return int(self.db.conn.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this bot ({SCHEMA_VERSION})")
        for number in range(version, SCHEMA_VERSION):
            MIGRATIONS[number](self.db)
            self.db.conn.execute(f"PRAGMA user_version={number + 1}")

    # --- tables and seats -------------------------------------------------------
    def ensure_table(self, network: str, channel: str, game: str) -> int:
        row = self.db.execute(
            "SELECT id FROM tables WHERE network=? AND channel=?", [network, channel]
        ).fetchone()
        if row:
            return int(row[0])
        with self.db.conn:
            cursor = self.db.conn.execute(
                "INSERT INTO tables(network, channel, game, options, host, colors, created) "
                "VALUES (?,?,?,?,?,?,?)",
                [network, channel, game, "{}", "", 0, time.time()],
            )
            return int(cursor.lastrowid or 0)

    def save_lobby(
        self, table_id: int, game: str, options: dict[str, Any], host: str, seats: list[SeatRow], colors: bool
    ) -> None:
        """Replace the table's lobby state in one transaction."""
        conn = self.db.conn
        with conn:
            conn.execute("BEGIN")
            conn.execute(
                "UPDATE tables SET game=?, options=?, host=?, colors=? WHERE id=?",
                [game, json.dumps(options, sort_keys=True), host, int(colors), table_id],
            )
            conn.execute("DELETE FROM seats WHERE table_id=?", [table_id])
            conn.executemany(
                "INSERT INTO seats(table_id, seat, user_key, nick) VALUES (?,?,?,?)",
                [(table_id, s.seat, s.user_key, s.nick) for s in seats],
            )

    def load_tables(self) -> list[TableRow]:
        tables = []
        for row in self.db.query("SELECT * FROM tables ORDER BY id"):
            seats = [
                SeatRow(r["seat"], r["user_key"], r["nick"])
                for r in self.db.query("SELECT * FROM seats WHERE table_id=? ORDER BY seat", [row["id"]])
            ]
            tables.append(
                TableRow(
                    row["id"],
                    row["network"],
                    row["channel"],
                    row["game"],
                    json.loads(row["options"] or "{}"),
                    row["host"] or "",
                    bool(row["colors"]),
                    seats,
                )
            )
        return tables

    # --- games --------------------------------------------------------------------
    def next_game_number(self) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()
        return int(row[0])

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
        with self.db.conn:
            cursor = self.db.conn.execute(
                "INSERT INTO games(table_id, network, channel, plugin, rules_version, seed, options, "
                "players, status, started) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [
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
            return int(cursor.lastrowid or 0)

    def append_move(self, game_id: int, n: int, seat: int, author: str, text: str) -> None:
        """Record an accepted command; returns only once it is committed."""
        with self.db.conn:
            self.db.conn.execute("BEGIN")
            self.db.conn.execute(
                "INSERT INTO moves(game_id, n, seat, author, text, at) VALUES (?,?,?,?,?,?)",
                [game_id, n, seat, author, text, time.time()],
            )

    def rename_player(self, game_id: int, seat: int, nick: str, user_key: str) -> None:
        row = self.db.execute("SELECT players FROM games WHERE id=?", [game_id]).fetchone()
        if not row:
            return
        players = json.loads(row[0])
        players[seat] = {**players[seat], "key": user_key, "nick": nick}
        with self.db.conn:
            self.db.conn.execute("BEGIN")
            self.db.conn.execute("UPDATE games SET players=? WHERE id=?", [json.dumps(players), game_id])

    def set_players(self, game_id: int, players: list[dict[str, object]]) -> None:
        """Who holds each seat of a running game now (a person or an AI), as ``Seat.record`` gives it."""
        with self.db.conn:
            self.db.conn.execute("BEGIN")
            self.db.conn.execute("UPDATE games SET players=? WHERE id=?", [json.dumps(players), game_id])

    def finish_game(
        self,
        game_id: int,
        status: str,
        result: dict[str, Any] | None,
        rows: list[dict[str, Any]],
        note: str = "",
    ) -> None:
        """Close a game as finished or abandoned, with its result rows, atomically."""
        with self.db.conn:
            self.db.conn.execute("BEGIN")
            self.db.conn.execute(
                "UPDATE games SET status=?, ended=?, result=?, note=? WHERE id=?",
                [status, time.time(), json.dumps(result) if result is not None else None, note, game_id],
            )
            self.db.conn.executemany(
                "INSERT OR REPLACE INTO results(game_id, seat, user_key, nick, score, rank, winner) "
                "VALUES (:game_id, :seat, :user_key, :nick, :score, :rank, :winner)",
                [dict(r, game_id=game_id) for r in rows],
            )

    def running_game(self, table_id: int) -> GameRow | None:
        row = self.db.execute(
            "SELECT id, table_id, plugin, rules_version, seed, options, players, status FROM games "
            "WHERE table_id=? AND status='running' ORDER BY id DESC LIMIT 1",
            [table_id],
        ).fetchone()
        if not row:
            return None
        return GameRow(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), json.loads(row[6]), row[7])

    def moves(self, game_id: int) -> list[dict[str, Any]]:
        return list(
            self.db.query("SELECT n, seat, author, text, at FROM moves WHERE game_id=? ORDER BY n", [game_id])
        )

    def game_record(self, game_id: int) -> dict[str, Any] | None:
        """A whole game as plain data, for ``bazaarbot export``."""
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
        with self.db.conn:
            self.db.conn.execute("BEGIN")
            self.db.conn.execute(
                "INSERT OR REPLACE INTO prefs(network, user_key, name, value) VALUES (?,?,?,?)",
                [network, user_key, name, value],
            )

    def prefs(self) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT * FROM prefs"))
