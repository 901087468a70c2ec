"""The channels an IRC network's users invited the bot to (``/invite``), kept in the bot's store.

Only where the network's config says ``accept_invites``: an invitation is
joined and remembered, so the bot joins it again after a restart; a kick from
it (its operators do not want the bot) forgets it. The list is read once, as
the transport starts, and held in memory; each change is written after it
(``add`` and ``forget`` give the write to run where the event loop does not
wait for the store), so an invite or a kick is acted on at once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS irc_invited (network TEXT NOT NULL, channel TEXT NOT NULL,"
    " PRIMARY KEY (network, channel))"
)


class InvitedChannels:
    """One network's invited channels (lower-cased), in its rows of ``irc_invited`` and in memory."""

    def __init__(self, conn: sqlite3.Connection, network: str) -> None:
        self.conn = conn
        self.network = network
        with self.conn:
            self.conn.execute(SCHEMA)
        rows = self.conn.execute("SELECT channel FROM irc_invited WHERE network = ?", (self.network,))
        self._held = {row[0] for row in rows.fetchall()}

    def channels(self) -> list[str]:
        return sorted(self._held)

    def add(self, channel: str) -> Callable[[], None]:
        """Remember ``channel`` now; the write that keeps it."""
        self._held.add(channel)
        return lambda: self._write(
            "INSERT OR IGNORE INTO irc_invited (network, channel) VALUES (?, ?)", channel
        )

    def forget(self, channel: str) -> Callable[[], None]:
        """Forget ``channel`` now; the write that drops it."""
        self._held.discard(channel)
        return lambda: self._write("DELETE FROM irc_invited WHERE network = ? AND channel = ?", channel)

    def _write(self, statement: str, channel: str) -> None:
        with self.conn:
            self.conn.execute(statement, (self.network, channel))
