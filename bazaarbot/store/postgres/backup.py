"""Backups of a PostgreSQL store: PostgreSQL's own ``pg_dump`` and ``pg_restore``, run for the operator.

A dump is one consistent snapshot of the database taken while the bot keeps
writing (``pg_dump`` reads in one repeatable-read transaction). It is written
beside the destination and renamed into place only once ``pg_restore --list``
has read it back and found the game records in it. Without the PostgreSQL
client tools the error names the exact commands to run instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from bazaarbot.store.backup import BackupError, RestoreReport, describe_restore
from bazaarbot.store.postgres import shown

#: the first bytes of a ``pg_dump --format=custom`` archive
ARCHIVE_MAGIC = b"PGDMP"
#: tables a bazaarbot archive must hold the rows of
RECORDS = ("games", "moves", "tables")


@dataclass(frozen=True)
class DumpReport:
    """What a dump wrote and what ``pg_restore`` read back from it."""

    path: Path
    size: int
    seconds: float
    tables: list[str] = field(default_factory=list)


def tool(name: str) -> str | None:
    """A PostgreSQL client program on the PATH, else the newest one Debian installed."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(Path(p).parts[-3]))
    return installed[-1] if installed else None


def _commands(url: str, path: Path) -> str:
    return (
        f"pg_dump --format=custom --file={path} '{shown(url)}' "
        f"(restore into an empty database: pg_restore --dbname=<url> {path})"
    )


def archive_tables(path: Path) -> list[str]:
    """The tables whose rows the archive holds (``pg_restore --list``)."""
    restore = tool("pg_restore")
    if restore is None:
        raise BackupError(
            f"{path}: reading a pg_dump archive needs pg_restore (apt-get install postgresql-client)"
        )
    listed = subprocess.run([restore, "--list", str(path)], capture_output=True, text=True)
    if listed.returncode != 0:
        raise BackupError(f"{path}: pg_restore cannot read it ({listed.stderr.strip().splitlines()[-1:]})")
    tables = []
    for line in listed.stdout.splitlines():
        if line.startswith(";") or " TABLE DATA " not in line:
            continue
        words = line.split(" TABLE DATA ", 1)[1].split()
        if len(words) >= 2:
            tables.append(words[1])
    return sorted(tables)


def dump(url: str, destination: str | Path) -> DumpReport:
    """``pg_dump`` the store at ``url`` to ``destination`` (a folder: a dated file in it), then check it."""
    destination = Path(destination)
    if destination.is_dir():
        destination = destination / f"bazaarbot-{time.strftime('%Y%m%d-%H%M%S')}.pgdump"
    if not destination.parent.is_dir():
        raise BackupError(f"{destination.parent}: no such folder")
    program = tool("pg_dump")
    if program is None:
        raise BackupError(f"the store is a PostgreSQL database; copy it with {_commands(url, destination)}")
    partial = destination.with_name(destination.name + ".partial")
    started = time.monotonic()
    made = subprocess.run(
        [program, "--format=custom", f"--file={partial}", f"--dbname={url}"], capture_output=True, text=True
    )
    if made.returncode != 0:
        partial.unlink(missing_ok=True)
        lines = [line.strip() for line in made.stderr.splitlines() if line.strip()]
        reason = next(
            (line for line in lines if "error" in line), lines[0] if lines else f"exit {made.returncode}"
        )
        raise BackupError(f"{destination}: pg_dump failed ({reason})")
    try:
        tables = archive_tables(partial)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    missing = [name for name in RECORDS if name not in tables]
    if missing:
        partial.unlink(missing_ok=True)
        raise BackupError(
            f"{destination}: the dump holds no {', '.join(missing)} (is this a bazaarbot store?)"
        )
    os.replace(partial, destination)
    return DumpReport(destination, destination.stat().st_size, time.monotonic() - started, tables)


def describe_dump(report: DumpReport) -> str:
    """One line for the operator after ``bazaarbot backup`` of a PostgreSQL store."""
    return (
        f"backup: {report.path} ({report.size} bytes, pg_dump custom archive) in {report.seconds:.2f} s; "
        f"pg_restore --list reads {len(report.tables)} tables"
    )


def _copy_head(line: str) -> tuple[str, list[str]]:
    """The table and columns of a ``COPY public.moves (id, game_id, ...) FROM stdin;`` line."""
    head = line[len("COPY ") :]
    table = head.split(" ", 1)[0].split(".")[-1].strip('"')
    listed = head.split("(", 1)[1].split(")", 1)[0]
    return table, [column.strip().strip('"') for column in listed.split(",")]


def archive_report(path: Path) -> RestoreReport:
    """What a restore from the archive would bring back, read as ``restore-check`` reads an sqlite copy:
    each table's rows, the running and finished games, the last move's time.

    The archive's data is streamed through ``pg_restore --data-only`` (its ``COPY`` blocks) and
    counted, never loaded whole.
    """
    tables = archive_tables(path)
    missing = [name for name in RECORDS if name not in tables]
    if missing:
        raise BackupError(f"{path}: the archive holds no {', '.join(missing)} (not a bazaarbot store)")
    restore = tool("pg_restore")
    assert restore is not None  # archive_tables found it
    rows = dict.fromkeys(tables, 0)
    running = finished = 0
    table: str | None = None
    columns: list[str] = []
    last: float | None = None
    with subprocess.Popen(
        [restore, "--data-only", "--file=-", str(path)], stdout=subprocess.PIPE, text=True
    ) as reading:
        assert reading.stdout is not None
        for line in reading.stdout:
            if table is None:
                if line.startswith("COPY "):
                    table, columns = _copy_head(line)
                continue
            if line.startswith("\\."):
                table = None
                continue
            rows[table] = rows.get(table, 0) + 1
            if table == "games" and "status" in columns:
                if line.rstrip("\n").split("\t")[columns.index("status")] == "running":
                    running += 1
                else:
                    finished += 1
            elif table == "moves" and "at" in columns:
                at = line.rstrip("\n").split("\t")[columns.index("at")]
                if at != "\\N":
                    last = max(last or 0.0, float(at))
    if reading.returncode != 0:
        raise BackupError(f"{path}: pg_restore cannot read its data")
    return RestoreReport(path, "ok (pg_restore reads every table)", rows, running, finished, last)


def describe_archive(path: Path) -> list[str]:
    """The lines of ``bazaarbot restore-check`` for a pg_dump archive: those of an sqlite copy, and how
    to restore it."""
    report = archive_report(path)
    lines = describe_restore(report)
    lines[1] = "archive: pg_dump custom format, " + report.integrity
    return [
        *lines,
        f"restore: createdb <name> && pg_restore --dbname=postgresql://.../<name> {path}, "
        "then run the bot with [store] url pointing at it",
    ]


def is_archive(path: Path) -> bool:
    """Whether ``path`` is a pg_dump custom-format archive."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(ARCHIVE_MAGIC)) == ARCHIVE_MAGIC
    except OSError:
        return False
