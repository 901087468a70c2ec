"""A real full disk for the tests: a small tmpfs, filled to the last byte.

Mounting needs root (CI runs the suite as root); elsewhere the tests that use it
skip and say why. Before filling, the store's write-ahead log is checkpointed
and truncated, so the next write the bot makes needs new space and is refused
by the kernel (ENOSPC), as on a real full disk.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_disk(where: Path, size: str = "4m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where/disk`` for the test's duration."""
    if os.geteuid() != 0:
        pytest.skip("a full disk is a small tmpfs, and mounting one needs root")
    mount = where / "disk"
    mount.mkdir()
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, conn: sqlite3.Connection) -> None:
    """Truncate the store's write-ahead log (through ``conn``), then fill ``disk`` to the last byte."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        size = 1 << 20
        while size:
            try:
                os.write(fd, b"\0" * size)
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
                size //= 2
    finally:
        os.close(fd)
