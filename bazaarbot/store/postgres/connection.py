"""A PostgreSQL connection that takes the sqlite3 calls the bot's records are written in.

The store, the ratings, the seat codes, the web claims and the transports'
small tables all talk to their database through the DB-API calls of Python's
``sqlite3`` (``execute`` with ``?`` or ``:name`` parameters, ``executemany``,
``with conn:`` as a transaction). Rather than write every query twice, this
connection takes those calls and their SQL and hands PostgreSQL its own
dialect: ``%s`` parameters, ``INSERT OR REPLACE`` as an upsert on the table's
primary key, ``INSERT OR IGNORE`` as ``ON CONFLICT DO NOTHING``, a
case-insensitive ``LIKE`` as ``ILIKE``, ``PRAGMA table_info`` from the
catalogue, ``REAL``/``INTEGER`` columns as double precision/bigint. Its errors
are the ``sqlite3`` ones the callers already catch (an integrity error stays an
integrity error), so the records' code does not know which server it runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import pq
from psycopg.rows import dict_row
from psycopg.types.numeric import FloatLoader

#: a quoted SQL string (kept as it is, apart from doubling ``%`` for the driver)
_STRING = re.compile(r"('(?:[^']|'')*')")
#: ``?`` or ``:name`` parameters (not ``::`` casts)
_PARAM = re.compile(r"\?|(?<![:\w]):([A-Za-z_]\w*)")
_REPLACE = re.compile(r"^\s*INSERT\s+OR\s+REPLACE\s+INTO\s+(\w+)\s*\(([^)]*)\)(.*)$", re.S | re.I)
_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\s", re.I)
_TABLE_INFO = re.compile(r"^\s*PRAGMA\s+table_info\((\w+)\)\s*$", re.I)
_CREATE = re.compile(r"^\s*CREATE\s+(TABLE|INDEX|UNIQUE\s+INDEX)\s", re.I)
#: statements that change rows (the ones a fenced connection checks the lease for)
_CHANGE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.I)


def _outside_strings(sql: str, change: Any) -> str:
    """Apply ``change`` to the parts of ``sql`` outside quoted strings; double every ``%``."""
    parts = _STRING.split(sql)
    out = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append(part.replace("%", "%%"))
        else:
            out.append(change(part.replace("%", "%%")))
    return "".join(out)


def _parameters(part: str) -> str:
    return _PARAM.sub(lambda m: "%s" if m.group(0) == "?" else f"%({m.group(1)})s", part)


def _words(part: str) -> str:
    part = re.sub(r"\bBEGIN\s+IMMEDIATE\b", "BEGIN", part, flags=re.I)
    part = re.sub(r"\bNOT\s+LIKE\b", "NOT ILIKE", part, flags=re.I)
    part = re.sub(r"(?<!NOT )\bLIKE\b", "ILIKE", part, flags=re.I)
    return _parameters(part)


def _ddl(part: str) -> str:
    part = re.sub(r"\bREAL\b", "DOUBLE PRECISION", part, flags=re.I)
    part = re.sub(r"\bINTEGER\b", "BIGINT", part, flags=re.I)
    return part


@lru_cache(maxsize=2048)
def translate(sql: str, primary_key: tuple[str, ...] | None = None) -> str:
    """PostgreSQL's text for a statement written for sqlite (``primary_key``: an upsert's table's)."""
    if _CREATE.match(sql):
        return _outside_strings(sql, _ddl)
    info = _TABLE_INFO.match(sql)
    if info:
        return (
            "SELECT ordinal_position - 1, column_name, data_type, is_nullable = 'NO', column_default, 0 "
            f"FROM information_schema.columns WHERE table_name = '{info.group(1).lower()}' "
            "AND table_schema = current_schema() ORDER BY ordinal_position"
        )
    replace = _REPLACE.match(sql)
    if replace:
        table, columns, rest = replace.group(1), replace.group(2), replace.group(3)
        names = [c.strip() for c in columns.split(",")]
        keys = primary_key or ()
        others = [c for c in names if c not in keys]
        conflict = (
            f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET "
            + ", ".join(f"{c}=EXCLUDED.{c}" for c in others)
            if others
            else f" ON CONFLICT ({', '.join(keys)}) DO NOTHING"
        )
        return _outside_strings(f"INSERT INTO {table}({columns}){rest.rstrip()}", _words) + conflict
    if _IGNORE.match(sql):
        plain = _IGNORE.sub("INSERT INTO ", sql, count=1).rstrip()
        return _outside_strings(plain, _words) + " ON CONFLICT DO NOTHING"
    return _outside_strings(sql, _words)


def _plain(value: Any) -> Any:
    """sqlite stores a bool as an integer; so does this connection (columns are bigint)."""
    return int(value) if isinstance(value, bool) else value


def _params(params: Any) -> Any:
    if params is None:
        return None
    if isinstance(params, dict):
        return {k: _plain(v) for k, v in params.items()}
    return [_plain(v) for v in params]


def _as_sqlite_error(error: psycopg.Error) -> sqlite3.Error:
    """The sqlite3 exception the callers catch for the same kind of refusal."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if isinstance(error, psycopg.IntegrityError):
        return sqlite3.IntegrityError(message)
    return sqlite3.OperationalError(message)


class _Session(psycopg.Connection[Any]):
    """A psycopg connection that, like a sqlite3 one, just ends its session when dropped unclosed."""

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            self.close()


def connect_raw(url: str) -> psycopg.Connection[Any]:
    """A psycopg connection in autocommit mode (transactions are explicit, as on the sqlite file)."""
    try:
        raw = _Session.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.Error as error:
        raise _as_sqlite_error(error) from error
    raw.adapters.register_loader("numeric", FloatLoader)  # SUM over integers: a number, not a Decimal
    return raw


class PgConnection:
    """A ``sqlite3.Connection`` look-alike on one PostgreSQL session (safe to share between threads)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.raw = connect_raw(url)
        self._keys: dict[str, tuple[str, ...]] = {}
        self._lock = threading.RLock()
        #: checked in the transaction of every statement that changes rows (the lease: a process
        #: that no longer serves its networks cannot write even the transports' small tables);
        #: raises a ``sqlite3.Error`` to refuse the write
        self.fence: Callable[[PgConnection], None] | None = None
        #: statements sent from a thread running an event loop (the running bot should send none)
        self.loop_calls = 0

    def count_call(self) -> None:
        """Count a round trip made on an event loop's thread (the loop waited on the server)."""
        if asyncio._get_running_loop() is not None:
            self.loop_calls += 1

    # --- the sqlite3 calls --------------------------------------------------------------
    def execute(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
        self.count_call()
        query = self._query(sql)
        with self._fenced(sql):
            try:
                return self.raw.execute(query, _params(params) if params is not None else None)  # type: ignore[arg-type]
            except psycopg.Error as error:
                raise _as_sqlite_error(error) from error

    def executemany(self, sql: str, rows: Iterable[Any]) -> psycopg.Cursor[Any]:
        self.count_call()
        query = self._query(sql)
        with self._fenced(sql):
            cursor = self.raw.cursor()
            try:
                cursor.executemany(query, [_params(r) for r in rows])  # type: ignore[arg-type]
            except psycopg.Error as error:
                raise _as_sqlite_error(error) from error
            return cursor

    @contextlib.contextmanager
    def _fenced(self, sql: str) -> Iterator[None]:
        """A change of rows runs only after the fence passed in its transaction (one of its own if none).

        The fence's row lock lasts until the commit, so a takeover waits for the
        write or refuses it; a write outside a transaction commits with it.
        """
        if self.fence is None or not _CHANGE.match(sql):
            yield
            return
        with self._lock:
            own = not self.in_transaction
            if own:
                self.raw.execute("BEGIN")
            try:
                self.fence(self)
                yield
            except BaseException:
                if own and self.in_transaction:
                    with contextlib.suppress(psycopg.Error):
                        self.raw.execute("ROLLBACK")
                raise
            if own:
                try:
                    self.raw.execute("COMMIT")
                except psycopg.Error as error:
                    raise _as_sqlite_error(error) from error

    def run_script(self, statements: list[tuple[str, Any]], commit: bool = False) -> None:
        """Many statements (and the COMMIT) sent as one query: one round trip to the server.

        The writer thread calls this for a whole batch. Each round trip gives
        up the interpreter lock and must win it back from the busy event loop,
        so hundreds of small statements would cost far more than one script.
        """
        cursor = psycopg.ClientCursor(self.raw)
        try:
            parts = [
                cursor.mogrify(self._query(sql), _params(params) if params is not None else None)  # type: ignore[arg-type]
                for sql, params in statements
            ]
            if commit:
                parts.append("COMMIT")
            if parts:
                cursor.execute(";\n".join(parts))
        except psycopg.Error as error:
            raise _as_sqlite_error(error) from error
        finally:
            cursor.close()

    def lock_transaction(self, key: tuple[int, int]) -> None:
        """Wait for the transaction lock ``key`` (two int4 keys), held until this transaction ends.

        Processes sharing the database queue on it where sqlite's one writer
        would queue them (a read, then a write of the same rows).
        """
        try:
            self.raw.execute("SELECT pg_advisory_xact_lock(%s, %s)", list(key))
        except psycopg.Error as error:
            raise _as_sqlite_error(error) from error

    def __enter__(self) -> PgConnection:
        self._lock.acquire()
        return self

    def __exit__(self, kind: Any, value: Any, trace: Any) -> None:
        """As ``with sqlite_conn:``: commit an open transaction, or roll it back on an error."""
        try:
            if self.in_transaction:
                self.raw.execute("ROLLBACK" if kind is not None else "COMMIT")
        except psycopg.Error as error:
            if kind is None:
                raise _as_sqlite_error(error) from error
        finally:
            self._lock.release()

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != pq.TransactionStatus.IDLE

    def commit(self) -> None:
        if self.in_transaction:
            self.execute("COMMIT")

    def close(self) -> None:
        self.raw.close()

    @property
    def closed(self) -> bool:
        return bool(self.raw.closed)

    # --- translation ------------------------------------------------------------------------
    def _query(self, sql: str) -> str:
        replace = _REPLACE.match(sql)
        return translate(sql, self.primary_key(replace.group(1)) if replace else None)

    def primary_key(self, table: str) -> tuple[str, ...]:
        """The primary-key columns of ``table`` (read from the catalogue once)."""
        known = self._keys.get(table)
        if known is None:
            rows = self.raw.execute(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a "
                "ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
                "WHERE i.indrelid = to_regclass(%s) AND i.indisprimary "
                "ORDER BY array_position(i.indkey, a.attnum)",
                [table],
            ).fetchall()
            known = tuple(str(r[0]) for r in rows)
            self._keys[table] = known
        return known


_TYPES = {int: "BIGINT", str: "TEXT", float: "DOUBLE PRECISION", bytes: "BYTEA", bool: "BIGINT"}


class PgTable:
    """The two table calls of sqlite_utils that the schema migrations make."""

    def __init__(self, db: PgDatabase, name: str) -> None:
        self.db, self.name = db, name

    def create(
        self, columns: dict[str, Any], pk: Any = None, if_not_exists: bool = False, **_ignored: Any
    ) -> PgTable:
        keys = [pk] if isinstance(pk, str) else list(pk or [])
        body = [f'"{name}" {_TYPES.get(kind, "TEXT")}' for name, kind in columns.items()]
        if len(keys) == 1 and columns.get(keys[0]) is int:  # sqlite's rowid: numbered when not given
            body[list(columns).index(keys[0])] += " GENERATED BY DEFAULT AS IDENTITY"
        if keys:
            body.append("PRIMARY KEY (" + ", ".join(f'"{k}"' for k in keys) + ")")
        exists = "IF NOT EXISTS " if if_not_exists else ""
        self.db.conn.raw.execute(f'CREATE TABLE {exists}"{self.name}" ({", ".join(body)})')
        return self

    def create_index(
        self,
        columns: Sequence[str],
        index_name: str | None = None,
        unique: bool = False,
        if_not_exists: bool = False,
        **_ignored: Any,
    ) -> PgTable:
        name = index_name or f"idx_{self.name}_{'_'.join(columns)}"
        kind = "UNIQUE INDEX" if unique else "INDEX"
        exists = "IF NOT EXISTS " if if_not_exists else ""
        cols = ", ".join(f'"{c}"' for c in columns)
        self.db.conn.raw.execute(f'CREATE {kind} {exists}"{name}" ON "{self.name}" ({cols})')
        return self


class PgDatabase:
    """What the store uses of ``sqlite_utils.Database``: ``conn``, ``query``, ``execute``, ``db[name]``."""

    def __init__(self, conn: PgConnection) -> None:
        self.conn = conn

    def __getitem__(self, name: str) -> PgTable:
        return PgTable(self, name)

    def execute(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
        return self.conn.execute(sql, params)

    def query(self, sql: str, params: Any = None) -> Iterator[dict[str, Any]]:
        self.conn.count_call()
        query = self.conn._query(sql)
        try:
            with self.conn.raw.cursor(row_factory=dict_row) as cursor:
                cursor.execute(query, _params(params) if params is not None else None)  # type: ignore[arg-type]
                rows = cursor.fetchall()
        except psycopg.Error as error:
            raise _as_sqlite_error(error) from error
        yield from rows
