"""One-time codes that move a seat to its owner's new address.

A seat taken without a services account is bound to the nick and the
``user@host`` it came from, so whoever takes the nick from elsewhere is a
stranger. The real owner may come back from a new address too; the code the
bot told them privately at ``/join`` proves it is them. Only a hash of each
code is kept, in a table of the bot's own sqlite file, so the codes outlive
a restart and reading the file gives none away. A code works once.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS seat_codes (
    network TEXT NOT NULL,
    channel TEXT NOT NULL,
    user_key TEXT NOT NULL,
    code_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (network, channel, user_key)
)
"""


def _digest(code: str) -> str:
    return hashlib.sha256(code.strip().lower().encode("utf-8", "replace")).hexdigest()


class SeatCodes:
    """The seat_codes table: (network, channel, seat identity) -> hash of its one-time code."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        with self.conn:
            self.conn.execute(SCHEMA)

    def issue(self, network: str, channel: str, key: str) -> str:
        """A fresh code for the seat of ``key`` (any older one stops working)."""
        code = secrets.token_hex(5)
        with self.conn:
            self.conn.execute(
                "INSERT INTO seat_codes (network, channel, user_key, code_hash) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(network, channel, user_key) DO UPDATE SET code_hash=excluded.code_hash",
                [network, channel.lower(), key, _digest(code)],
            )
        return code

    def owner(self, network: str, code: str) -> tuple[str, str] | None:
        """(channel, seat identity) the code was made for; None when it is not (or no longer) valid."""
        if not code or len(code) > 64:
            return None
        row = self.conn.execute(
            "SELECT channel, user_key FROM seat_codes WHERE network=? AND code_hash=?",
            [network, _digest(code)],
        ).fetchone()
        return (str(row[0]), str(row[1])) if row else None

    def move(self, network: str, channel: str, old_key: str, new_key: str) -> None:
        """The seat's identity changed (a nick change, a login): its code follows it."""
        if new_key == old_key:
            return
        channel = channel.lower()
        with self.conn:  # a code the new identity held gives way to the one that follows the seat
            self.conn.execute("BEGIN")
            where = "WHERE network=? AND channel=? AND user_key=?"
            if self.conn.execute(f"SELECT 1 FROM seat_codes {where}", [network, channel, old_key]).fetchone():
                self.conn.execute(f"DELETE FROM seat_codes {where}", [network, channel, new_key])
                self.conn.execute(
                    "UPDATE seat_codes SET user_key=? WHERE network=? AND channel=? AND user_key=?",
                    [new_key, network, channel, old_key],
                )

    def forget(self, network: str, channel: str, key: str | None = None) -> None:
        """Drop the code of one seat (it was used, or the seat is gone), or of a whole table."""
        with self.conn:
            if key is None:
                self.conn.execute(
                    "DELETE FROM seat_codes WHERE network=? AND channel=?", [network, channel.lower()]
                )
            else:
                self.conn.execute(
                    "DELETE FROM seat_codes WHERE network=? AND channel=? AND user_key=?",
                    [network, channel.lower(), key],
                )
