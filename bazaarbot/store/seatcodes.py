"""One-time codes that move a seat to its owner's new address.

A seat taken without a services account is bound to the nick and the
``user@host`` it came from, so whoever takes the nick from elsewhere is a
stranger. The real owner may come back from a new address too; the code the
bot told them privately at ``/join`` proves it is them. Only a hash of each
code is kept, in a table of the store, so the codes outlive a restart and
reading the records gives none away. A code works once.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from typing import Any

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
    """The seat_codes table: (network, channel, seat identity) -> hash of its one-time code.

    The codes of the served networks are held in memory (only this process
    writes them, under its lease) and written through with the line's unit
    (``StoreWriter.write``): a code is on disk before the line that told it is
    answered, a line reads the codes its own earlier steps changed, and the
    event loop never waits for the store.
    """

    def __init__(self, conn: sqlite3.Connection, write: Any, networks: frozenset[str] | None = None) -> None:
        #: ``StoreWriter.write``: joins the current unit (group commit), or commits at once outside one
        self.write = write
        self.conn = conn
        self.networks = networks
        with conn:
            conn.execute(SCHEMA)
        #: (network, channel, seat identity) -> hash of its code
        self._codes: dict[tuple[str, str, str], str] = {}
        #: (network, hash) -> (channel, seat identity)
        self._owners: dict[tuple[str, str], tuple[str, str]] = {}
        self.reload()

    def reload(self) -> None:
        """The codes as the store has them (at start, and after a line's writes were refused)."""
        self._codes = {
            (str(network), str(channel), str(key)): str(digest)
            for network, channel, key, digest in self.conn.execute(
                "SELECT network, channel, user_key, code_hash FROM seat_codes"
            )
            if self.networks is None or network in self.networks
        }
        self._owners = {(n, d): (c, k) for (n, c, k), d in self._codes.items()}

    def _drop(self, seat: tuple[str, str, str]) -> None:
        digest = self._codes.pop(seat, None)
        if digest is not None:
            self._owners.pop((seat[0], digest), None)

    def issue(self, network: str, channel: str, key: str) -> str:
        """A fresh code for the seat of ``key`` (any older one stops working)."""
        code = secrets.token_hex(5)
        seat, digest = (network, channel.lower(), key), _digest(code)
        self.write(
            None,
            "INSERT INTO seat_codes (network, channel, user_key, code_hash) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(network, channel, user_key) DO UPDATE SET code_hash=excluded.code_hash",
            [*seat, digest],
        )
        self._drop(seat)
        self._codes[seat] = digest
        self._owners[(network, digest)] = (seat[1], key)
        return code

    def owner(self, network: str, code: str) -> tuple[str, str] | None:
        """(channel, seat identity) the code was made for; None when it is not (or no longer) valid."""
        if not code or len(code) > 64:
            return None
        return self._owners.get((network, _digest(code)))

    def move(self, network: str, channel: str, old_key: str, new_key: str) -> None:
        """The seat's identity changed (a nick change, a login): its code follows it."""
        channel = channel.lower()
        old, new = (network, channel, old_key), (network, channel, new_key)
        if new_key == old_key or old not in self._codes:
            return
        where = "network=? AND channel=? AND user_key=?"
        self.write(None, f"DELETE FROM seat_codes WHERE {where}", list(new))  # gives way to the seat's code
        self.write(None, f"UPDATE seat_codes SET user_key=? WHERE {where}", [new_key, *old])
        self._drop(new)
        digest = self._codes.pop(old)
        self._codes[new] = digest
        self._owners[(network, digest)] = (channel, new_key)

    def forget(self, network: str, channel: str, key: str | None = None) -> None:
        """Drop the code of one seat (it was used, or the seat is gone), or of a whole table."""
        channel = channel.lower()
        if key is None:
            self.write(None, "DELETE FROM seat_codes WHERE network=? AND channel=?", [network, channel])
            for seat in [s for s in self._codes if s[:2] == (network, channel)]:
                self._drop(seat)
        else:
            self.write(
                None,
                "DELETE FROM seat_codes WHERE network=? AND channel=? AND user_key=?",
                [network, channel, key],
            )
            self._drop((network, channel, key))
