"""The store on a PostgreSQL server: the sqlite store's schema, migrations, move log and group commit.

Everything the sqlite store does, it does here through ``PgConnection`` (the
same SQL, translated): one reading session for the event loop's short reads
and the transports' small tables, one writer session on the writer thread that
commits the queued units in one transaction. What differs: the schema version
lives in a table (there is no ``PRAGMA user_version``), migrations run under
an advisory lock (two processes starting together migrate once), and new table
and game ids come from sequences, because processes that serve different
networks create tables and games in the same database at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bazaarbot.store.postgres.connection import PgConnection, PgDatabase
from bazaarbot.store.store import Store
from bazaarbot.store.writer import StoreWriter

#: the advisory lock (two int4 keys) held while the schema is migrated
MIGRATION_LOCK = (0x6BA2, 1)

_SEQUENCES = (("bazaarbot_table_ids", "tables"), ("bazaarbot_game_ids", "games"))


class PostgresStore(Store):
    """``Store`` on the database at ``url`` (``postgresql://user@host:port/db``)."""

    def __init__(self, url: str, networks: frozenset[str] | None = None) -> None:
        self._reserved_game: int | None = None
        super().__init__(url, networks)

    def _open_reader(self) -> Any:
        return PgDatabase(PgConnection(self.path))

    def _open_writer(self) -> StoreWriter:
        return StoreWriter(self.path, conn=PgConnection(self.path))

    def fence_with(self, check: Callable[[Any], None]) -> None:
        """Check ``check`` (the lease) before every write: the move log's commits and the small
        tables the transports, ratings and seat codes write on the reading session alike."""
        self.writer.fence = check
        self.db.conn.fence = check

    # --- schema ------------------------------------------------------------------------------
    def schema_version(self) -> int:
        raw = self.db.conn.raw
        raw.execute("CREATE TABLE IF NOT EXISTS bazaarbot_schema (version BIGINT NOT NULL)")
        row = raw.execute("SELECT max(version) FROM bazaarbot_schema").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def _set_schema_version(self, version: int) -> None:
        raw = self.db.conn.raw
        raw.execute("DELETE FROM bazaarbot_schema")
        raw.execute("INSERT INTO bazaarbot_schema(version) VALUES (%s)", [int(version)])

    def _migrate(self) -> None:
        raw = self.db.conn.raw
        raw.execute("SELECT pg_advisory_lock(%s, %s)", list(MIGRATION_LOCK))
        try:
            super()._migrate()
            for sequence, table in _SEQUENCES:
                raw.execute(f"CREATE SEQUENCE IF NOT EXISTS {sequence}")
                raw.execute(  # a database filled before the sequences: start above its ids
                    f"SELECT setval('{sequence}', m) FROM (SELECT COALESCE(MAX(id), 0) AS m FROM {table}) x, "
                    f"{sequence} s WHERE x.m > s.last_value OR (x.m > 0 AND NOT s.is_called)"
                )
        finally:
            raw.execute("SELECT pg_advisory_unlock(%s, %s)", list(MIGRATION_LOCK))

    # --- ids -------------------------------------------------------------------------------------
    def _next_id(self, sequence: str) -> int:
        return int(self.db.conn.raw.execute(f"SELECT nextval('{sequence}')").fetchone()[0])

    def _new_table_id(self) -> int:
        return self._next_id("bazaarbot_table_ids")

    def next_game_number(self) -> int:
        """The id the next game will get (kept for it, so the seed made from it is the game's)."""
        if self._reserved_game is None:
            self._reserved_game = self._next_id("bazaarbot_game_ids")
        return self._reserved_game

    def _new_game_id(self) -> int:
        game_id = self.next_game_number()
        self._reserved_game = None
        return game_id

    # --- statements sqlite says its own way ----------------------------------------------------
    def rename_player(self, game_id: int, seat: int, nick: str, user_key: str) -> None:
        self.writer.write(
            self._game_scope(game_id),
            "UPDATE games SET players=jsonb_set(jsonb_set(players::jsonb, ?::text[], to_jsonb(?::text)), "
            "?::text[], to_jsonb(?::text))::text WHERE id=?",
            [
                "{" + str(int(seat)) + ",key}",
                user_key,
                "{" + str(int(seat)) + ",nick}",
                nick,
                game_id,
            ],
        )
