"""Reading a test's store from outside the bot, whether it is a sqlite file or a PostgreSQL database."""

from __future__ import annotations

import sqlite3
from typing import Any

from bazaarbot.store.postgres import is_postgres_url


def read_rows(target: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (``?`` parameters) read on a connection of its own, as another process would."""
    if is_postgres_url(target):
        import psycopg

        with psycopg.connect(target) as conn:
            return [tuple(r) for r in conn.execute(sql.replace("?", "%s"), list(params)).fetchall()]
    conn = sqlite3.connect(target)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def store_args(target: str) -> list[str]:
    """The command-line option that points a ``bazaarbot`` command at ``target``."""
    return ["--store", target] if is_postgres_url(target) else ["--db", target]
