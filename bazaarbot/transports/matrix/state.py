"""What the Matrix transport keeps in the bot's sqlite file: sync token, rooms, DM rooms, board messages.

The sync token is written after the events of a batch have been handled, so
a restart neither replays old lines nor misses new ones. A room's channel name
is fixed the first time the bot sees the room (its alias then, else its ID),
so its table stays the same table when an alias changes. A player's direct
room is kept, so the bot reuses it instead of opening a new one per restart.
A game's board message is kept with the game and the text it shows now, so a
restarted bot edits the same one, only when the board changed, and the next game
gets a new one.
"""

from __future__ import annotations

import sqlite3

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS matrix_sync (account TEXT PRIMARY KEY, next_batch TEXT NOT NULL,"
    " device_id TEXT)",
    "CREATE TABLE IF NOT EXISTS matrix_rooms (account TEXT NOT NULL, room_id TEXT NOT NULL,"
    " channel TEXT NOT NULL, PRIMARY KEY (account, room_id))",
    "CREATE TABLE IF NOT EXISTS matrix_dms (account TEXT NOT NULL, user_id TEXT NOT NULL,"
    " room_id TEXT NOT NULL, PRIMARY KEY (account, user_id))",
    "CREATE TABLE IF NOT EXISTS matrix_boards (account TEXT NOT NULL, room_id TEXT NOT NULL,"
    " event_id TEXT NOT NULL, PRIMARY KEY (account, room_id))",
)


class MatrixState:
    """The transport's small tables, one account's rows (``account`` is the network name)."""

    def __init__(self, conn: sqlite3.Connection, account: str) -> None:
        self.conn = conn
        self.account = account
        with self.conn:
            for statement in SCHEMA:
                self.conn.execute(statement)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(matrix_boards)")}
            if "game_id" not in columns:  # a board message belongs to one game (older files: unknown)
                self.conn.execute("ALTER TABLE matrix_boards ADD COLUMN game_id INTEGER")
            if "board_text" not in columns:  # what it shows (older files: unknown, so edited once)
                self.conn.execute("ALTER TABLE matrix_boards ADD COLUMN board_text TEXT")

    # --- sync ---------------------------------------------------------------------------------
    def next_batch(self) -> str | None:
        row = self.conn.execute(
            "SELECT next_batch FROM matrix_sync WHERE account = ?", (self.account,)
        ).fetchone()
        return row[0] if row else None

    def device_id(self) -> str | None:
        row = self.conn.execute(
            "SELECT device_id FROM matrix_sync WHERE account = ?", (self.account,)
        ).fetchone()
        return row[0] if row else None

    def save_sync(self, next_batch: str, device_id: str | None) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO matrix_sync (account, next_batch, device_id) VALUES (?, ?, ?)"
                " ON CONFLICT(account) DO UPDATE SET next_batch = excluded.next_batch,"
                " device_id = excluded.device_id",
                (self.account, next_batch, device_id),
            )

    # --- rooms --------------------------------------------------------------------------------
    def rooms(self) -> dict[str, str]:
        """room ID -> channel name."""
        rows = self.conn.execute(
            "SELECT room_id, channel FROM matrix_rooms WHERE account = ?", (self.account,)
        )
        return dict(rows.fetchall())

    def add_room(self, room_id: str, channel: str) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR IGNORE INTO matrix_rooms (account, room_id, channel) VALUES (?, ?, ?)",
                (self.account, room_id, channel),
            )

    # --- direct rooms -------------------------------------------------------------------------
    def dms(self) -> dict[str, str]:
        """user ID -> their direct room's ID."""
        rows = self.conn.execute("SELECT user_id, room_id FROM matrix_dms WHERE account = ?", (self.account,))
        return dict(rows.fetchall())

    def set_dm(self, user_id: str, room_id: str) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO matrix_dms (account, user_id, room_id) VALUES (?, ?, ?)"
                " ON CONFLICT(account, user_id) DO UPDATE SET room_id = excluded.room_id",
                (self.account, user_id, room_id),
            )

    def forget_dm(self, user_id: str) -> None:
        with self.conn:
            self.conn.execute(
                "DELETE FROM matrix_dms WHERE account = ? AND user_id = ?", (self.account, user_id)
            )

    # --- board messages -----------------------------------------------------------------------
    def boards(self) -> dict[str, tuple[str, int | None, str]]:
        """room ID -> the event ID of its board message, the game it shows and its text now."""
        rows = self.conn.execute(
            "SELECT room_id, event_id, game_id, board_text FROM matrix_boards WHERE account = ?",
            (self.account,),
        )
        return {room: (event, game, text or "") for room, event, game, text in rows.fetchall()}

    def set_board(self, room_id: str, event_id: str, game_id: int | None, text: str) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO matrix_boards (account, room_id, event_id, game_id, board_text)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(account, room_id) DO UPDATE SET event_id = excluded.event_id,"
                " game_id = excluded.game_id, board_text = excluded.board_text",
                (self.account, room_id, event_id, game_id, text),
            )

    def set_board_text(self, room_id: str, event_id: str, text: str) -> None:
        """The board message ``event_id`` was edited to show ``text``."""
        with self.conn:
            self.conn.execute(
                "UPDATE matrix_boards SET board_text = ? WHERE account = ? AND room_id = ? AND event_id = ?",
                (text, self.account, room_id, event_id),
            )
