"""Online backups of the bot's sqlite file, and a check that a copy can be restored.

A live WAL database copied by hand can be torn (the main file and the ``-wal``
file taken at different moments). sqlite's backup API copies a consistent
snapshot page by page while the bot keeps writing; the copy is then checked
with ``PRAGMA integrity_check`` before it is called good.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

#: pages copied per step: small steps let the bot's writer in between (sqlite restarts a step
#: whose source changed, so a busy bot still gets a consistent copy)
PAGES_PER_STEP = 256
#: how long one step may wait for the bot's writer to let go of the file
BUSY_TIMEOUT_MS = 5000


class BackupError(Exception):
    """A backup or a check that cannot be done; the message names the file and why."""


@dataclass(frozen=True)
class CopyReport:
    """What a backup wrote: where, how big, how long it took, and the copy's integrity."""

    path: Path
    pages: int
    size: int
    seconds: float
    integrity: str


@dataclass(frozen=True)
class RestoreReport:
    """What a copy holds: its tables with their row counts, the running games, the last move's time."""

    path: Path
    integrity: str
    tables: dict[str, int] = field(default_factory=dict)
    running_games: int = 0
    finished_games: int = 0
    last_move_at: float | None = None


def _open_existing(path: Path, *, read_only: bool) -> sqlite3.Connection:
    """Open a file that must already be an sqlite database (never create an empty one)."""
    if not path.exists():
        raise BackupError(f"{path}: no such file")
    if path.is_dir():
        raise BackupError(f"{path}: is a folder, not a database file")
    mode = "ro" if read_only else "rw"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True)
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path}: not an sqlite database ({error})") from None
    return conn


def integrity(conn: sqlite3.Connection) -> str:
    """``ok``, or sqlite's first complaint about the file."""
    rows = conn.execute("PRAGMA integrity_check").fetchall()
    return "ok" if rows == [("ok",)] else "; ".join(str(row[0]) for row in rows[:5])


def backup(source: str | Path, destination: str | Path) -> CopyReport:
    """Copy the live database ``source`` to ``destination`` consistently, then check the copy.

    The copy is written beside the destination and renamed into place only once
    it passed the integrity check, so a failed backup never leaves a half file
    under the name an operator trusts.
    """
    source, destination = Path(source), Path(destination)
    if destination.is_dir():
        destination = destination / f"{source.stem}-{time.strftime('%Y%m%d-%H%M%S')}.sqlite"
    if not destination.parent.is_dir():
        raise BackupError(f"{destination.parent}: no such folder")
    if destination.exists() and destination.resolve() == source.resolve():
        raise BackupError(f"{destination}: is the live database itself")
    started = time.monotonic()
    live = _open_existing(source, read_only=True)
    partial = destination.with_name(destination.name + ".partial")
    try:
        copy = sqlite3.connect(partial)
        try:
            live.backup(copy, pages=PAGES_PER_STEP)
            copy.execute("PRAGMA journal_mode=DELETE")
            checked = integrity(copy)
            pages = int(copy.execute("PRAGMA page_count").fetchone()[0])
        finally:
            copy.close()
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"{destination}: the copy failed ({error})") from None
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"{destination}: {error.strerror or error}") from None
    finally:
        live.close()
    if checked != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"{destination}: the copy failed its integrity check ({checked})")
    os.replace(partial, destination)
    return CopyReport(destination, pages, destination.stat().st_size, time.monotonic() - started, checked)


def restore_check(path: str | Path) -> RestoreReport:
    """Open a copy read-only and say what a restore from it would bring back."""
    path = Path(path)
    conn = _open_existing(path, read_only=True)
    try:
        checked = integrity(conn)
        names = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        if "games" not in names or "moves" not in names:
            raise BackupError(f"{path}: not a bazaarbot database (no games or moves table)")
        tables = {name: int(conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]) for name in names}
        running = int(conn.execute("SELECT count(*) FROM games WHERE status='running'").fetchone()[0])
        finished = int(conn.execute("SELECT count(*) FROM games WHERE status!='running'").fetchone()[0])
        last = conn.execute("SELECT max(at) FROM moves").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path}: cannot be read ({error})") from None
    finally:
        conn.close()
    return RestoreReport(path, checked, tables, running, finished, float(last) if last is not None else None)


def describe_copy(report: CopyReport) -> str:
    """One line for the operator after ``bazaarbot backup``."""
    return (
        f"backup: {report.path} ({report.size} bytes, {report.pages} pages) in {report.seconds:.2f} s; "
        f"integrity_check {report.integrity}"
    )


def describe_restore(report: RestoreReport) -> list[str]:
    """The lines of ``bazaarbot restore-check``."""
    when = (
        time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(report.last_move_at))
        if report.last_move_at is not None
        else "none"
    )
    lines = [
        f"restore-check: {report.path}",
        f"integrity_check: {report.integrity}",
        f"games: {report.running_games} running, {report.finished_games} finished",
        f"last move: {when}",
        "tables: " + ", ".join(f"{name} {count}" for name, count in report.tables.items()),
    ]
    return lines
