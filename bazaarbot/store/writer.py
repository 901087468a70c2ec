"""Group commit: the writes of many lines go to disk in one transaction, by one writer.

A *unit* holds the writes one line made (and the tables it looked at). Units
queue in arrival order; a commit takes every queued unit and writes them in
one transaction, each inside its own savepoint, so one fsync covers many
lines. ``commit_now`` does it on the calling thread (the synchronous command
path, tests, start-up); ``commit`` hands the batch to the single writer thread
so the event loop never waits on a flush, and returns once the unit is safe.

A unit that cannot be written fails, and so does every unit queued after it
that touches the same table or preferences (they were computed from the state
the failed one left in memory); the owner's ``on_failure`` then reloads those
scopes from disk, so memory is as it was and the lines answer "nothing changed".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

#: a scope is what a write changes: ("table", id) or ("prefs",)
Scope = Hashable
PREFS: Scope = ("prefs",)


def table_scope(table_id: int) -> Scope:
    return ("table", table_id)


@dataclass
class Write:
    """One statement: ``execute`` or (``many``) ``executemany``."""

    sql: str
    params: Sequence[Any]
    many: bool = False


@dataclass(eq=False)
class Unit:
    """The writes of one line and the scopes it touched; settled once on disk (or failed)."""

    writes: list[Write] = field(default_factory=list)
    scopes: set[Scope] = field(default_factory=set)
    #: (network, channel) of the table rows this unit inserts (their ids were given out from memory)
    created: list[tuple[str, str]] = field(default_factory=list)
    #: what to do once the unit is on disk (the games it ended, to be rated), kept for its owner
    after: list[Any] = field(default_factory=list)
    #: answers read from the records once the unit is on disk (``Store.read``: off the event loop)
    reads: list[Callable[[], list[Any]]] = field(default_factory=list)
    settled: bool = False
    ok: bool = True
    waiters: list[asyncio.Future[bool]] = field(default_factory=list)

    def settle(self, ok: bool) -> None:
        """Mark the unit done and wake its commits, each on its own loop (settled off it, through it)."""
        self.settled, self.ok = True, ok
        if not self.waiters:
            return
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        for waiter in self.waiters:
            if waiter.get_loop() is here:
                _resolve(waiter, ok)
            else:
                with contextlib.suppress(RuntimeError):  # that loop has closed: nobody waits
                    waiter.get_loop().call_soon_threadsafe(_resolve, waiter, ok)
        self.waiters.clear()


def _resolve(waiter: asyncio.Future[bool], ok: bool) -> None:
    if not waiter.done():
        waiter.set_result(ok)


#: ``INSERT [OR REPLACE] INTO t(cols) VALUES (?,?,...)``: the statements that can take many rows at once
_PLAIN_INSERT = re.compile(r"^(INSERT (?:OR REPLACE )?INTO \w+\([\w, ]+\) VALUES )(\((?:\?,)*\?\))$")


def _merged(batch: list[Unit]) -> list[tuple[str, list[Sequence[Any]]]]:
    """The batch's statements in order, consecutive runs of one statement as one row list."""
    runs: list[tuple[str, list[Sequence[Any]]]] = []
    for unit in batch:
        for w in unit.writes:
            rows = list(w.params) if w.many else [w.params]
            if not rows:
                continue
            if runs and runs[-1][0] == w.sql:
                runs[-1][1].extend(rows)
            else:
                runs.append((w.sql, rows))
    return runs


class StoreWriter:
    """The one writer of the sqlite file: its own connection, one thread, a queue of units."""

    def __init__(
        self, path: str, on_failure: Callable[[list[Unit]], None] | None = None, conn: Any = None
    ) -> None:
        if conn is None:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=5000")
            self._max_variables = min(conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER), 30_000)
        else:  # a PostgreSQL session: its executemany already sends the rows in one go
            self._max_variables = 0
        self.conn = conn
        #: checked first in every transaction (a PostgreSQL store: this process still holds its lease);
        #: raising ``sqlite3.Error`` fails the whole batch
        self.fence: Callable[[Any], None] | None = None
        self.on_failure = on_failure
        #: the unit collecting the current line's writes (None: each write commits at once)
        self.open: Unit | None = None
        self._depth = 0
        self.queued: list[Unit] = []
        #: scopes written outside any line (a test or a start-up step changing a table directly)
        self.outside: set[Scope] = set()
        self._inflight: list[Unit] = []
        #: scopes of queued and in-flight units, so a read-only line knows whether to wait
        self._pending_scopes: Counter[Scope] = Counter()
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        #: a batch is with the writer thread (its answer comes back through the loop)
        self._flying = False
        #: figures for the load benchmark: commits done and units they carried
        self.commits = 0
        self.units_committed = 0
        #: told (units, seconds) after every batch written (the metrics); called on the writer thread
        self.on_commit: Callable[[int, float], None] | None = None

    # --- collecting -------------------------------------------------------------------
    def begin(self) -> Unit:
        """Start (or join) the unit of the line being processed."""
        if self.open is None:
            self.open = Unit()
        self._depth += 1
        return self.open

    def end(self) -> Unit:
        """Close the line's unit and queue it; a unit that neither wrote nor waits settles at once."""
        unit = self.open
        assert unit is not None, "end() without begin()"
        self._depth -= 1
        if self._depth > 0:
            return unit
        self.open = None
        if not unit.writes and not any(self._pending_scopes[s] for s in unit.scopes):
            unit.settle(True)
            return unit
        self.queued.append(unit)
        self._pending_scopes.update(unit.scopes)
        return unit

    def touch(self, scope: Scope) -> None:
        """The current line read or changed ``scope``: its answer waits for that scope's writes."""
        if self.open is not None:
            self.open.scopes.add(scope)

    def write(self, scope: Scope | None, sql: str, params: Sequence[Any], many: bool = False) -> None:
        """Queue a statement in the current unit, or (no unit open) write it now."""
        statement = Write(sql, params, many)
        if self.open is not None:
            self.open.writes.append(statement)
            if scope is not None:
                self.open.scopes.add(scope)
            return
        unit = Unit([statement], {scope} if scope is not None else set())
        if scope is not None:
            self.outside.add(scope)
        self.queued.append(unit)
        self._pending_scopes.update(unit.scopes)
        failed = self.commit_now()
        if failed:
            raise sqlite3.OperationalError("the write could not be committed")

    @property
    def pending(self) -> bool:
        return bool(self.queued or self._inflight)

    # --- committing ---------------------------------------------------------------------
    def commit_now(self) -> list[Unit]:
        """Commit every queued unit on this thread (after any batch in flight); the failed ones."""
        with self._lock:
            batch, self.queued = self.queued, []
            if not batch:
                return []
            failed_scopes = self._timed_write(batch)
        return self._settle(batch, failed_scopes)

    async def commit(self, unit: Unit) -> bool:
        """Wait until ``unit`` is on disk (True) or failed (False); batches form while one is written."""
        if not unit.settled:
            loop = asyncio.get_running_loop()
            waiter: asyncio.Future[bool] = loop.create_future()
            unit.waiters.append(waiter)
            if not self._flying:
                self._send(loop)
            await waiter
        return unit.ok

    def _send(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand every queued unit to the writer thread; it reports back with one call on the loop.

        No task, shield or future per batch: the units' own waiters are all the
        loop keeps, so a commit costs the busy loop little besides the write.
        """
        batch, self.queued = self.queued, []
        if not batch:
            return
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="bazaarbot-store")
        try:
            self._executor.submit(self._write_off_loop, loop, batch)
        except RuntimeError:  # the interpreter is shutting down: the units stay queued for close()
            self.queued = batch + self.queued
            raise
        # set after the hand-over: the thread's answer runs on this loop, after this call
        self._inflight = batch
        self._flying = True

    def _write_off_loop(self, loop: asyncio.AbstractEventLoop, batch: list[Unit]) -> None:
        """On the writer thread: write the batch, then tell the loop (None: the thread failed)."""
        failed_scopes: set[Scope] | None
        try:
            failed_scopes = self._locked_write(batch)
        except Exception:
            log.exception("the writer thread failed")
            failed_scopes = None
        try:
            loop.call_soon_threadsafe(self._written, loop, batch, failed_scopes)
        except RuntimeError:  # the loop has closed: nobody waits for the batch; a later loop may send
            self._inflight = []
            self._flying = False

    def _written(
        self, loop: asyncio.AbstractEventLoop, batch: list[Unit], failed_scopes: set[Scope] | None
    ) -> None:
        """On the loop: settle the batch written, then send the units queued meanwhile that are awaited."""
        if failed_scopes is None:
            for unit in batch:
                unit.ok = False
            failed_scopes = set().union(*(u.scopes for u in batch)) | {None}
        self._inflight = []
        self._flying = False
        try:
            self._settle(batch, failed_scopes)
        finally:
            if any(unit.waiters for unit in self.queued):
                self._send(loop)

    def _locked_write(self, batch: list[Unit]) -> set[Scope]:
        with self._lock:
            return self._timed_write(batch)

    def _timed_write(self, batch: list[Unit]) -> set[Scope]:
        started = time.perf_counter()
        failed = self._write_batch(batch)
        if self.on_commit is not None:
            self.on_commit(len(batch), time.perf_counter() - started)
        return failed

    def _write_batch(self, batch: list[Unit]) -> set[Scope]:
        """Write the batch in one transaction; the scopes whose writes did not make it.

        The fast path merges runs of the same statement into one ``executemany``
        (few calls into sqlite, so the writer thread seldom waits for the
        interpreter lock). If anything is refused, the transaction is rolled
        back and written again unit by unit, each in a savepoint, so only the
        refused line (and the lines that build on it) fail.
        """
        conn = self.conn
        runs = _merged(batch)
        try:
            if hasattr(conn, "run_script"):  # a server: the whole batch and its commit in one round trip
                conn.execute("BEGIN IMMEDIATE")
                if self.fence is not None:
                    self.fence(conn)
                conn.run_script([(sql, row) for sql, rows in runs for row in rows], commit=True)
            else:
                statements = [s for sql, rows in runs for s in self._statements(sql, rows)]
                if len(statements) == 1 and not statements[0].many and self.fence is None:
                    # one statement is its own transaction (as durable, synchronous=FULL):
                    # one call into sqlite instead of three, one wait for the interpreter lock
                    conn.execute(statements[0].sql, statements[0].params)
                else:
                    conn.execute("BEGIN IMMEDIATE")
                    if self.fence is not None:
                        self.fence(conn)
                    for statement in statements:
                        if statement.many:
                            conn.executemany(statement.sql, statement.params)
                        else:
                            conn.execute(statement.sql, statement.params)
                    conn.execute("COMMIT")
        except sqlite3.Error:
            log.warning("a batch of %d lines was refused; writing it line by line", len(batch))
            with contextlib.suppress(sqlite3.Error):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            return self._write_units(batch)
        self.commits += 1
        self.units_committed += len(batch)
        return set()

    def _statements(self, sql: str, rows: list[Sequence[Any]]) -> list[Write]:
        """The calls that run ``sql`` once per row: a plain INSERT becomes a few multi-row INSERTs.

        Each sqlite call gives up the interpreter lock and must win it back
        from the busy event loop, so a thousand one-row inserts cost far more
        than one insert of a thousand rows.
        """
        if len(rows) == 1:
            return [Write(sql, rows[0])]
        match = _PLAIN_INSERT.match(sql) if self._max_variables else None
        if match is None or not all(isinstance(r, list | tuple) for r in rows):
            return [Write(sql, rows, many=True)]
        head, group = match.group(1), match.group(2)
        width = group.count("?")
        per_statement = max(1, self._max_variables // width)
        return [
            Write(head + ",".join([group] * len(chunk)), [v for row in chunk for v in row])
            for chunk in (rows[start : start + per_statement] for start in range(0, len(rows), per_statement))
        ]

    def _write_units(self, batch: list[Unit]) -> set[Scope]:
        conn = self.conn
        failed: set[Scope] = set()
        try:
            conn.execute("BEGIN IMMEDIATE")
            if self.fence is not None:
                self.fence(conn)
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            log.error("could not begin a transaction for %d lines: %s", len(batch), error)
            for unit in batch:
                unit.ok = False
            return set().union(*(u.scopes for u in batch)) | {None}
        for unit in batch:
            if unit.scopes & failed:
                unit.ok = False
                failed |= unit.scopes
                continue
            try:
                conn.execute("SAVEPOINT line")
                for w in unit.writes:
                    if w.many:
                        conn.executemany(w.sql, w.params)
                    else:
                        conn.execute(w.sql, w.params)
                conn.execute("RELEASE line")
            except sqlite3.Error as error:
                log.error("a line's writes were refused by the database: %s", error)
                conn.execute("ROLLBACK TO line")
                conn.execute("RELEASE line")
                unit.ok = False
                failed |= unit.scopes or {None}
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as error:
            log.error("commit of %d lines failed: %s", len(batch), error)
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for unit in batch:
                unit.ok = False
            return set().union(*(u.scopes for u in batch)) | {None}
        self.commits += 1
        self.units_committed += len(batch)
        return failed

    def _settle(self, batch: list[Unit], failed_scopes: set[Scope]) -> list[Unit]:
        """Resolve the batch; fail the queued units that depend on a failed scope; report failures."""
        failed = [u for u in batch if not u.ok]
        for unit in batch:
            self._pending_scopes.subtract(unit.scopes)
        if failed_scopes:
            keep = []
            for unit in self.queued:
                if unit.scopes & failed_scopes:
                    self._pending_scopes.subtract(unit.scopes)
                    unit.ok = False
                    failed.append(unit)
                else:
                    keep.append(unit)
            self.queued = keep
        self._pending_scopes = +self._pending_scopes
        for unit in batch:
            if unit not in failed:
                unit.settle(True)
        if failed and self.on_failure is not None:
            try:
                self.on_failure(failed)
            except Exception:
                log.exception("reloading after a failed commit went wrong")
        for unit in failed:
            unit.settle(False)
        return failed

    def close(self) -> None:
        """Write what is queued, stop the thread, close the connection."""
        if self.queued:
            self.commit_now()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.conn.close()
