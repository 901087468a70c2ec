"""A running `bazaarbot console --script` process for tests: one answer block per typed line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


class Console:
    """`bazaarbot console --script` on ``db`` (with ``config`` text as its config file, if given)."""

    def __init__(self, db: Path, seed: int, config: str | None = None) -> None:
        command = [sys.executable, "-m", "bazaarbot.cli", "console", "--script", "--seed", str(seed)]
        command += ["--db", str(db)]
        if config is not None:
            path = db.with_suffix(".toml")
            path.write_text(config, encoding="utf-8")
            command += ["--config", str(path)]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
        )
        #: every line the bot said so far
        self.seen: list[str] = []

    def type(self, line: str) -> list[str]:
        """Type one line; the bot's answer up to the ``---`` that ends it."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        block = []
        while True:
            out = self.proc.stdout.readline()
            assert out, "console ended unexpectedly"
            if out == "---\n":
                self.seen += block
                return block
            block.append(out.rstrip("\n"))

    def close(self) -> None:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self.proc.stdout.close()


def private(block: list[str], nick: str) -> list[str]:
    """The lines of an answer block said privately to ``nick``."""
    prefix = f"@{nick}> "
    return [line[len(prefix) :] for line in block if line.startswith(prefix)]
