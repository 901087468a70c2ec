"""What teaching leaves in the bot's sqlite file: the hints given (such a game is not rated) and reviews.

A hint is written in the unit of the work that sends it, so a hint a player
read is on disk and the game it was given in is never rated. A review is
kept whole, as JSON, so a second ``/review`` (also after a restart) answers
at once and the web page draws the same graph.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

import sqlite_utils

#: the scope of a review's write (no table's state depends on it)
REVIEW_SCOPE = ("reviews",)


def migrate_teaching(db: sqlite_utils.Database) -> None:
    """The ``hints`` given per game and the stored ``reviews`` (a schema migration of ``store.py``)."""
    db["hints"].create({"game_id": int, "n": int, "seat": int, "at": float}, if_not_exists=True)
    db["hints"].create_index(["game_id"], if_not_exists=True)
    db["reviews"].create(
        {"game_id": int, "review": str, "iterations": int, "at": float}, pk="game_id", if_not_exists=True
    )


#: the games in which somebody was given a hint (the ratings leave them out)
HINTED_GAMES = "SELECT game_id FROM hints"


class TeachingRecords:
    """Reads and queued writes of the ``hints`` and ``reviews`` tables."""

    def __init__(self, conn: sqlite3.Connection, write: Any) -> None:
        self.conn = conn
        #: ``StoreWriter.write``: joins the current unit (group commit), or commits at once outside one
        self.write = write

    def hint_given(self, scope: Any, game_id: int, n: int, seat: int) -> None:
        self.write(
            scope, "INSERT INTO hints(game_id, n, seat, at) VALUES (?,?,?,?)", [game_id, n, seat, time.time()]
        )

    def hinted(self, game_id: int) -> bool:
        return (
            self.conn.execute("SELECT 1 FROM hints WHERE game_id=? LIMIT 1", [game_id]).fetchone() is not None
        )

    def save_review(self, game_id: int, review: dict[str, Any], iterations: int) -> None:
        self.write(
            REVIEW_SCOPE,
            "INSERT OR REPLACE INTO reviews(game_id, review, iterations, at) VALUES (?,?,?,?)",
            [game_id, json.dumps(review, separators=(",", ":")), iterations, time.time()],
        )

    def review(self, game_id: int) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT review FROM reviews WHERE game_id=?", [game_id]).fetchone()
        return json.loads(row[0]) if row else None
