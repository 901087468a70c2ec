"""``bazaarbot`` as its own process in a test: ``bazaarbot run`` with a config until the test is done,
or a one-shot command whose output the test reads."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bazaarbot.bench.botprocess import bazaarbot_command
from support.paths import REPO_ROOT


@dataclass
class Ended:
    """How a ``bazaarbot run`` ended: filled in when its block is left."""

    returncode: int | None = None
    out: bytes = b""
    err: bytes = b""


@asynccontextmanager
async def bot_running(config: Path, db: Path) -> AsyncIterator[Ended]:
    """``bazaarbot run -c config --db db`` while the block runs; then SIGTERM, and what it said."""
    process = await asyncio.create_subprocess_exec(
        *bazaarbot_command("run", "-c", str(config), "--db", str(db)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=REPO_ROOT,
    )
    ended = Ended()
    try:
        yield ended
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        ended.out, ended.err = await asyncio.wait_for(process.communicate(), 15)
        ended.returncode = process.returncode


def bazaarbot(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """``bazaarbot ARGS`` run to its end with only this checkout on the path; its output as text."""
    return subprocess.run(
        bazaarbot_command(*args),
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"},
        timeout=timeout,
    )
