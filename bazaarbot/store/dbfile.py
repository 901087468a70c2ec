"""The sqlite file a command is given, checked before anything opens it: one line when it will not do.

A missing folder, a directory, a file that is not a database, or one the bot
may not write would otherwise surface as a traceback (or, for ``run``, as
tracebacks every few seconds after it said it was serving). ``export`` and
``ratings`` only read: they never create a file that is not there.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from urllib.parse import quote


class DbFileError(Exception):
    """The database file cannot be used; the message names it and says what would do."""


def check_db(path: str, *, must_exist: bool = False, write: bool = True) -> None:
    """Raise ``DbFileError`` unless ``path`` is a sqlite file this command can use (or create)."""
    file = Path(path)
    if file.is_dir():
        raise DbFileError(f"database {path} is a directory; give the path of a sqlite file (--db, [bot] db)")
    if not file.exists():
        if must_exist:
            raise DbFileError(f"no database {path}: the file does not exist (check --db or [bot] db)")
        folder = file.parent
        if not folder.is_dir():
            raise DbFileError(f"cannot create the database {path}: the folder {folder} does not exist")
        return
    try:
        conn = sqlite3.connect(f"file:{quote(str(file.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise DbFileError(f"cannot open the database {path}: {error}") from None
    try:
        conn.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError:
        raise DbFileError(f"{path} is not a sqlite database; give a bazaarbot database file") from None
    finally:
        conn.close()
    if write:
        _check_writable(path)


def _check_writable(path: str) -> None:
    """Write the database's header once (its own version number again): proof the bot can save."""
    conn = sqlite3.connect(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute(f"PRAGMA user_version = {int(version)}")
    except sqlite3.OperationalError as error:
        if "readonly" in str(error) or "read-only" in str(error):
            raise DbFileError(
                f"the database {path} is read-only: the bot must be able to write it and its folder"
            ) from None
        if "locked" not in str(error):  # a running bot holds it: that is not this file's fault
            raise DbFileError(f"cannot write the database {path}: {error}") from None
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.close()


def check_server(url: str, reach: bool = True) -> None:
    """Raise ``DbFileError`` unless the PostgreSQL store at ``url`` answers (one line: where and why).

    ``reach=False`` checks only that the driver is installed: ``run`` on a lease waits for a database
    that is away at start-up as it does for one that goes away later.
    """
    from bazaarbot.store.postgres import shown

    try:
        import psycopg
    except ImportError:
        raise DbFileError("a postgresql:// store needs psycopg: pip install 'bazaarbot[postgres]'") from None
    if not reach:
        return
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as error:
        reason = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
        raise DbFileError(f"cannot reach the store {shown(url)}: {reason}") from None
