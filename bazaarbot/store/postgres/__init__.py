"""The store on a PostgreSQL server: the same records as the sqlite file, on a server that replicates.

Owns: the connection that takes the sqlite3 calls the bot's records make
(``connection``), the store on it (``store``), the lease that lets one process
at a time serve a network (``lease``), and the standby that waits for it
(``standby``). May import the rest of ``bazaarbot.store`` (whose design it
shares: one writer thread, group commit), psycopg, and the web server library
for the standby's health answer; nothing of the hub, the tables or the games.
"""

from __future__ import annotations


def is_postgres_url(target: str) -> bool:
    """Whether a store target names a PostgreSQL server rather than a sqlite file."""
    return target.startswith(("postgresql://", "postgres://"))


def shown(target: str) -> str:
    """A store target fit for a log line or a message: a URL's password is left out."""
    if not is_postgres_url(target):
        return target
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(target)
    if parts.password is None:
        return target
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
