"""Opening the store a command or a config names: a sqlite file, or a PostgreSQL server by its URL."""

from __future__ import annotations

from pathlib import Path

from bazaarbot.store.postgres import is_postgres_url
from bazaarbot.store.store import Store


def open_store(target: str | Path, networks: frozenset[str] | None = None) -> Store:
    """The store at ``target``: a sqlite file, or a PostgreSQL server for a ``postgresql://`` URL.

    ``networks``: the networks this process serves (only their tables are loaded).
    """
    if is_postgres_url(str(target)):
        from bazaarbot.store.postgres.store import PostgresStore

        return PostgresStore(str(target), networks)
    return Store(target, networks)
