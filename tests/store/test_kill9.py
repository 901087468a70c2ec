"""The promise under group commit: a move the bot answered survives a kill -9 at any moment."""

from __future__ import annotations

import contextlib
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from support.paths import REPO_ROOT

ROOT = REPO_ROOT


class Console:
    """``bazaarbot console --script`` in a subprocess on a sqlite file, read line by line."""

    def __init__(self, db: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bazaarbot.cli", "console", "--seed", "1", "--db", str(db), "--script"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            cwd=ROOT,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.proc.stdout.close()
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self, line: str) -> list[str]:
        """Send a line and read its whole answer (up to the ``---`` mark)."""
        self.send(line)
        out = []
        while True:
            got = self.lines.get(timeout=30)
            if got is None or got == "---":
                return out
            out.append(got)

    def kill(self) -> list[str]:
        """SIGKILL now; whatever the bot had already written."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        rest = []
        while True:
            got = self.lines.get(timeout=30)
            if got is None:
                return rest
            rest.append(got)


def _to_act(console: Console, nicks: list[str]) -> tuple[str, list[str]]:
    for nick in nicks:
        listing = [line.split("> ", 1)[1] for line in console.answer(f"{nick}@dm: /moves all")]
        if listing and listing != ["(no moves)"]:
            return nick, listing
    raise AssertionError("nobody can move")


def _logged(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return [row[0] for row in conn.execute("SELECT text FROM moves ORDER BY game_id, n")]
    finally:
        conn.close()


def test_every_answered_move_survives_kill_minus_nine_at_random_points(tmp_path):
    db = tmp_path / "bot.sqlite"
    rng = random.Random(16)
    nicks = ["alice", "bob"]
    answered: list[str] = []
    sent: list[str] = []
    first = Console(db)
    first.answer("alice: /new jaipur")
    first.answer("bob: /join")
    first.answer("alice: /start")
    console = first
    for _round in range(4):
        for _ in range(rng.randrange(2, 12)):
            nick, listing = _to_act(console, nicks)
            move = rng.choice(listing)
            sent.append(move)
            assert console.answer(f"{nick}: {move}"), "a move is always answered"
            answered.append(move)
        # one more move, then SIGKILL at a random moment while it is processed, committed or answered
        nick, listing = _to_act(console, nicks)
        move = rng.choice(listing)
        sent.append(move)
        console.send(f"{nick}: {move}")
        time.sleep(rng.random() * 0.02)
        if [line for line in console.kill() if line != "---"]:
            answered.append(move)
        logged = _logged(db)
        assert logged[: len(answered)] == answered, "every answered move is on disk, in order"
        assert logged == sent[: len(logged)], "nothing on disk that was not sent"
        if len(logged) > len(answered):  # on disk but killed before the answer: it counts from now on
            answered = logged[:]
        else:
            sent = sent[: len(logged)]
        console = Console(db)
        # the restarted bot goes on from exactly the logged moves
        _to_act(console, nicks)
    console.kill()
