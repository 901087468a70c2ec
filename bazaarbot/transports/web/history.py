"""The recent public lines of each web room, kept across a restart.

A newcomer, a spectator or a reloaded page sees what was said lately in a
room. Only public lines are ever kept here (what everybody in the room
saw); the lines live in memory and are written to the bot's sqlite file
when the server stops, so a restart shows the rooms as they were.
"""

from __future__ import annotations

import json
import sqlite3
from collections import deque
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_history (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (room, n)
)
"""


class History:
    """Room -> its last ``size`` public lines (JSON-ready dicts)."""

    def __init__(self, conn: sqlite3.Connection, size: int = 100, max_rooms: int = 500) -> None:
        self.conn = conn
        self.size = size
        self.max_rooms = max_rooms
        self.rooms: dict[str, deque[dict[str, Any]]] = {}
        with self.conn:
            self.conn.execute(SCHEMA)
        for room, line in self.conn.execute("SELECT room, line FROM web_history ORDER BY room, n"):
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                self.add(room, record)

    def add(self, room: str, record: dict[str, Any]) -> None:
        lines = self.rooms.pop(room, None)
        if lines is None:
            lines = deque(maxlen=self.size)
            while len(self.rooms) >= self.max_rooms:  # forget the room quiet for longest
                del self.rooms[next(iter(self.rooms))]
        lines.append(record)
        self.rooms[room] = lines  # the most recently active room goes last

    def lines(self, room: str) -> list[dict[str, Any]]:
        return list(self.rooms.get(room, ()))

    def save(self) -> None:
        """Replace the stored lines with the ones in memory (one transaction)."""
        self.write(self.rows())

    def rows(self) -> list[tuple[str, int, str]]:
        """The lines in memory as rows of ``web_history``, taken at once (the rooms may change after)."""
        return [
            (room, n, json.dumps(record, ensure_ascii=False))
            for room, lines in self.rooms.items()
            for n, record in enumerate(lines)
        ]

    def write(self, rows: list[tuple[str, int, str]]) -> None:
        """Replace the stored lines with ``rows`` (one transaction)."""
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("DELETE FROM web_history")
            self.conn.executemany("INSERT INTO web_history (room, n, line) VALUES (?, ?, ?)", rows)
