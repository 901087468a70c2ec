"""A PostgreSQL cluster of the tests' own: ``initdb`` in a temporary folder, a free loopback port.

Never the system's service: the cluster is made by Debian's server binaries
(``/usr/lib/postgresql/<version>/bin``), run as an unprivileged user when the
tests run as root (the server refuses to run as root), and removed afterwards.
Each test gets a database of its own in it (``Cluster.database``).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

#: the cluster's superuser (trusted on loopback: the cluster lives only as long as the tests)
USER = "bazaarbot"


def server_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL server's binaries, or None."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name)
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    """A running throwaway cluster; ``url(db)`` for a database in it."""

    def __init__(self, fast: bool = True) -> None:
        binaries = server_bin()
        if binaries is None:
            raise FileNotFoundError("PostgreSQL is not installed (no initdb)")
        self.bin = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="bazaarbot-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:  # the server will not run as root: use an unprivileged account
            account = pwd.getpwnam("nobody")
            os.chmod(self.folder, 0o755)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self._as = ["runuser", "-u", "nobody", "--"]
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if fast:  # the tests' data is thrown away: no flush to disk (the benchmark keeps them)
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._options = options
        self._start()
        self._names = itertools.count(1)

    def _start(self) -> None:
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "log"),
            "-w",
            "-o",
            self._options,
            "start",
        )

    def restart(self) -> None:
        """Stop the server (its sessions end, as an operator's restart ends them) and start it again."""
        self.down()
        self._start()

    def down(self) -> None:
        """Stop the server, keeping its data (``up`` starts it again): a database that is away."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def up(self) -> None:
        """Start the server stopped by ``down``."""
        self._start()

    def _run(self, *command: str) -> None:
        subprocess.run([*self._as, *command], check=True, capture_output=True, cwd=self.folder)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def start_or_reason() -> tuple[Cluster | None, str]:
    """A started cluster, or None and why there is none."""
    if server_bin() is None:
        return None, "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)"
    return Cluster(), ""
