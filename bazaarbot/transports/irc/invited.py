"""The channels an IRC network's users invited the bot to (``/invite``), kept in the bot's sqlite file.

Only where the network's config says ``accept_invites``: an invitation is
joined and remembered, so the bot joins it again after a restart; a kick from
it (its operators do not want the bot) forgets it.
"""

from __future__ import annotations

import sqlite3

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS irc_invited (network TEXT NOT NULL, channel TEXT NOT NULL,"
    " PRIMARY KEY (network, channel))"
)


class InvitedChannels:
    """One network's invited channels (lower-cased), in its rows of ``irc_invited``."""

    def __init__(self, conn: sqlite3.Connection, network: str) -> None:
        self.conn = conn
        self.network = network
        with self.conn:
            self.conn.execute(SCHEMA)

    def channels(self) -> list[str]:
        rows = self.conn.execute(
            "SELECT channel FROM irc_invited WHERE network = ? ORDER BY channel", (self.network,)
        )
        return [row[0] for row in rows.fetchall()]

    def add(self, channel: str) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR IGNORE INTO irc_invited (network, channel) VALUES (?, ?)", (self.network, channel)
            )

    def forget(self, channel: str) -> None:
        with self.conn:
            self.conn.execute(
                "DELETE FROM irc_invited WHERE network = ? AND channel = ?", (self.network, channel)
            )
