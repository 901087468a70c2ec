"""What the Discord transport keeps in the bot's sqlite file: each room's board message.

A game's board message is kept with the game and the text it shows, so a
restarted bot edits the same message, only when the board changed, and the
next game gets a new one.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS discord_boards (network TEXT NOT NULL, channel_id TEXT NOT NULL,"
    " message_id TEXT NOT NULL, game_id INTEGER, board_text TEXT NOT NULL DEFAULT '',"
    " PRIMARY KEY (network, channel_id))",
)


@dataclass
class BoardMessage:
    """The message that shows a room's board: edited in place as the game goes on."""

    channel_id: int
    game_id: int | None
    text: str
    #: None until Discord answered the first send
    message_id: int | None = None


class DiscordState:
    """The transport's small table, one bot's rows (``network`` is the bot's name)."""

    def __init__(self, conn: sqlite3.Connection, network: str) -> None:
        self.conn = conn
        self.network = network
        with self.conn:
            for statement in SCHEMA:
                self.conn.execute(statement)

    def boards(self) -> dict[int, BoardMessage]:
        rows = self.conn.execute(
            "SELECT channel_id, message_id, game_id, board_text FROM discord_boards WHERE network = ?",
            (self.network,),
        ).fetchall()
        return {
            int(channel): BoardMessage(int(channel), game, text, int(message))
            for channel, message, game, text in rows
        }

    def set_board(self, board: BoardMessage) -> None:
        if board.message_id is None:
            return
        with self.conn:
            self.conn.execute(
                "INSERT INTO discord_boards (network, channel_id, message_id, game_id, board_text)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT(network, channel_id) DO UPDATE SET"
                " message_id = excluded.message_id, game_id = excluded.game_id,"
                " board_text = excluded.board_text",
                (self.network, str(board.channel_id), str(board.message_id), board.game_id, board.text),
            )
