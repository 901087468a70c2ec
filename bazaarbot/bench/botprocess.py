"""The bot as a process of its own: the command line that runs ``bazaarbot`` with this interpreter.

A bench that measures the bot apart from its load generator, and a test that
plays against the real ``bazaarbot run``, start it the same way: this Python,
this checkout's code (``-m bazaarbot.cli``), not whichever ``bazaarbot`` is
first on the PATH.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: the web chat's per-client limits, lifted: every tab of a machine-made load comes from one address
_WEB_LIMITS_LIFTED = """
[web.limits]
connections_per_address = 1000000
claims_per_minute = 1000000
rooms_per_nick = 1000
connections_per_prefix = 1000000
http_per_address = 1000000
max_connections = 1000000
address_buffer_bytes = 100000000000
frames_per_second = 1000000
frame_burst = 1000000
"""

#: a load's tab offers ``permessage-deflate`` with the largest window, as every browser does (the
#: bot compresses only where its ``[web] compress`` is on: a build that always compresses pays it)
BROWSER_DEFLATE = 15
#: the longest a web load waits for the bot it started to serve
SERVING_WAIT = 60.0


def unlimited_config(seed: int, bot: str = "", port: int | None = None) -> str:
    """A config for a bot that a machine drives: no command budget, no turn clock, no table limit to
    speak of, the web chat on loopback (on ``port``, where given) with its per-client limits lifted.

    ``bot`` holds more lines of the ``[bot]`` section; the caller may add sections after it.
    """
    web_port = f"port = {port}\n" if port is not None else ""
    return (
        f"[bot]\n{bot}\nseed = {seed}\n"
        "rate_limit = { commands = 1000000, per_seconds = 1 }\nmax_tables = 1000\n\n"
        "[tables]\nturn_seconds = 0\n\n"
        f'[web]\nhost = "127.0.0.1"\n{web_port}metrics = "off"\n' + _WEB_LIMITS_LIFTED
    )


def free_port() -> int:
    """A loopback port free now, for a bot process to serve on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of a process so far (Linux ``/proc``): a bench measures the bot apart
    from its load."""
    return _stat_cpu(Path(f"/proc/{pid}/stat"))


def main_thread_cpu_seconds(pid: int) -> float:
    """User plus system CPU of a process's first thread so far: a bot's event loop, apart from the
    threads beside it (the store's writer), which ``cpu_seconds`` counts too."""
    return _stat_cpu(Path(f"/proc/{pid}/task/{pid}/stat"))


def _stat_cpu(stat: Path) -> float:
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bazaarbot_command(*args: str) -> list[str]:
    """``bazaarbot ARGS`` as an argument list for ``subprocess``."""
    return [sys.executable, "-m", "bazaarbot.cli", *args]


def parts_command(report: Path, *args: str) -> list[str]:
    """``bazaarbot ARGS`` with its parts timed (``bench.parts``), reporting to ``report``."""
    return [sys.executable, "-m", "bazaarbot.bench.parts", str(report), *args]


async def until_serving(
    session: Any, port: int, process: subprocess.Popen[bytes], seconds: float = 60.0
) -> None:
    """Wait until the bot process on ``port`` answers ``/healthz`` with 200; RuntimeError when it
    ended or did not within ``seconds`` (the web benches measure only a bot that serves)."""
    import aiohttp

    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(aiohttp.ClientError):
            async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                if response.status == 200:
                    return
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError("the bot did not start")
        await asyncio.sleep(0.05)


async def start_web_bot(
    config: Path,
    db: Path,
    port: int,
    tree: Path | None = None,
    seconds: float = SERVING_WAIT,
    parts: Path | None = None,
) -> tuple[subprocess.Popen[bytes], Any]:
    """``bazaarbot run`` on ``config`` and the sqlite file ``db``, once it serves on ``port``, and an
    ``aiohttp`` session for its load; ``tree``: another build's source tree to run instead of this
    one (its code first on the path, its plugins with it); ``parts``: where this build's bot reports
    the CPU of its parts (``bench.parts``). A bot that does not serve is stopped."""
    import aiohttp

    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH", "")]))
    run = ["run", "-c", str(config), "--db", str(db)]
    process = subprocess.Popen(
        bazaarbot_command(*run) if parts is None else parts_command(parts, *run),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tree,
        env=env,
    )
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    try:
        await until_serving(session, port, process, seconds)
    except BaseException:
        await session.close()
        end(process)
        raise
    return process, session


async def open_tab(session: Any, port: int, nick: str, room: str) -> Any:
    """A tab of the page on the bot at ``port``, as a browser opens it (offering compression): it
    claims ``nick`` and joins ``room`` without its history. The websocket, its answers unread."""
    ws = await session.ws_connect(f"ws://127.0.0.1:{port}/ws", max_msg_size=0, compress=BROWSER_DEFLATE)
    for frame in (
        {"t": "hello", "token": None},
        {"t": "claim", "nick": nick},
        {"t": "join", "room": room, "history": False},
    ):
        await ws.send_str(json.dumps(frame))
    return ws


async def close_tabs(tabs: Iterable[Any]) -> None:
    """Close each tab's websocket (``ws``) and stop its reading task (``reader``)."""
    for tab in tabs:
        await tab.ws.close()
        if tab.reader is not None:
            tab.reader.cancel()


def end(process: subprocess.Popen[bytes] | None) -> None:
    """Stop the bot process as a clean stop would, killed when it takes longer than 20 s."""
    if process is None:
        return
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()  # reaped, not left running behind its Popen
