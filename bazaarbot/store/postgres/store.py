"""The store on a PostgreSQL server: the sqlite store's schema, migrations, move log and group commit.

Everything the sqlite store does, it does here through ``PgConnection`` (the
same SQL, translated): one reading session for the event loop's short reads
and the transports' small tables, one writer session on the writer thread that
commits the queued units in one transaction. What differs: the schema version
lives in a table (there is no ``PRAGMA user_version``), migrations run under
an advisory lock (two processes starting together migrate once), and new table
and game ids come from sequences, because processes that serve different
networks create tables and games in the same database at once.

The event loop never waits on the server: ``read`` runs the running bot's
reads of the records (ratings, histories, reviews, the web chat's claims) on
the reading session's own thread, and the ids of new tables and games are
taken from the sequences a block ahead, topped up on that thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bazaarbot.store.postgres.connection import PgConnection, PgDatabase
from bazaarbot.store.store import Store
from bazaarbot.store.writer import StoreWriter

#: the advisory lock (two int4 keys) held while the schema is migrated
MIGRATION_LOCK = (0x6BA2, 1)

_SEQUENCES = (("bazaarbot_table_ids", "tables"), ("bazaarbot_game_ids", "games"))

#: ids of new tables (and of games) taken from a sequence at once; topped up when half are used
ID_BLOCK = 16

T = TypeVar("T")


class PostgresStore(Store):
    """``Store`` on the database at ``url`` (``postgresql://user@host:port/db``)."""

    remote = True

    def __init__(self, url: str, networks: frozenset[str] | None = None) -> None:
        self._reserved_game: int | None = None
        #: sequence -> ids taken from it and not given out yet
        self._ids: dict[str, deque[int]] = {sequence: deque() for sequence, _table in _SEQUENCES}
        self._topping_up: set[str] = set()
        self._reads: ThreadPoolExecutor | None = None
        self._on_reads_thread = threading.local()
        super().__init__(url, networks)
        for sequence, _table in _SEQUENCES:  # before the loop serves: the first block in hand
            self._ids[sequence].extend(self._take_ids(sequence))

    # --- off the event loop ------------------------------------------------------------------
    async def read(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the reading session's thread (in the caller's language); the loop goes on."""
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self._reading_thread(), context.run, work)

    def _reading_thread(self) -> ThreadPoolExecutor:
        if self._reads is None:
            self._reads = ThreadPoolExecutor(
                1, thread_name_prefix="bazaarbot-reads", initializer=self._mark_reads_thread
            )
        return self._reads

    def _mark_reads_thread(self) -> None:
        self._on_reads_thread.yes = True

    def _settled_reads(self) -> None:
        """On the reading thread the queue is the loop's: a read there waits for nothing it queued."""
        if not getattr(self._on_reads_thread, "yes", False):
            super()._settled_reads()

    def close(self) -> None:
        if self._reads is not None:
            self._reads.shutdown(wait=True)
            self._reads = None
        super().close()

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
    def _take_ids(self, sequence: str) -> list[int]:
        rows = self.db.conn.raw.execute(
            f"SELECT nextval('{sequence}') FROM generate_series(1, {ID_BLOCK})"
        ).fetchall()
        return sorted(int(r[0]) for r in rows)

    def _next_id(self, sequence: str) -> int:
        """The next id of ``sequence`` from the block in hand; the block is topped up off the loop."""
        ids = self._ids[sequence]
        if not ids:  # a burst used the block up before its top-up came (or no loop runs): take one now
            self.db.conn.count_call()
            ids.extend(self._take_ids(sequence))
        if len(ids) <= ID_BLOCK // 2 and sequence not in self._topping_up:
            self._top_up(sequence)
        return ids.popleft()

    def _top_up(self, sequence: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._topping_up.add(sequence)
        taking = loop.run_in_executor(self._reading_thread(), self._take_ids, sequence)

        def arrived(done: asyncio.Future[list[int]]) -> None:
            self._topping_up.discard(sequence)
            if not done.cancelled() and done.exception() is None:
                self._ids[sequence].extend(done.result())

        taking.add_done_callback(arrived)

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
