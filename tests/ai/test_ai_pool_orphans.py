"""A worker of a bot that is killed (kill -9) ends too, instead of searching on for nobody."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

from support.waits import wait_until_sync

#: a bot that starts its AI pool, says its worker's pid and gives it an hour's work
BOT = """
import asyncio, os, time
from bazaarbot.ai.pool import AiPool

async def main() -> None:
    pool = AiPool(workers=1, ponder=False)
    print(await pool.run(os.getpid), flush=True)
    pool.run(time.sleep, 3600)  # a search that would run on for an hour
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended: it only waits to be reaped
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_killed_bots_ai_worker_stops_searching() -> None:
    bot = subprocess.Popen([sys.executable, "-c", BOT], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(bot.stdout.readline())
        assert _alive(worker)
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=30)
        with contextlib.suppress(AssertionError):
            wait_until_sync(lambda: not _alive(worker), 30, "the worker to stop")
        assert not _alive(worker), "the worker searched on after its bot was killed"
    finally:
        bot.kill()
        bot.stdout.close()
