"""Short ``bazaarbot`` commands as processes forked from one that imported the package once.

``python -m bazaarbot.cli`` spends most of a short command's CPU importing the package (about
half a second before a refused config is read); a test that runs many of them forks each from a
server process that has imported it. Each command is still a process of its own, started the
way ``python -m bazaarbot.cli`` ends: ``sys.exit(main(args))`` with its own working folder,
input, standard output and error; an exception that escapes prints its traceback and exits
with 1, as the interpreter does; a command still running after ``timeout`` seconds is ended by
SIGALRM (return code -14). The server has no threads, so forking it is safe.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from support.paths import REPO_ROOT

#: the server: imports what the commands import, then forks one child per request line
SERVER = r"""
import json, os, signal, sys

import bazaarbot.cli
import bazaarbot.hub.hub
import bazaarbot.store.backup
import bazaarbot.store.dbfile
import bazaarbot.transports.console
from bazaarbot.registry import discover

discover()  # the game plugins' modules
replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
for line in sys.stdin.buffer:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        signal.alarm(request["timeout"])
        os.chdir(request["cwd"])
        for fd, path, flags in (
            (0, request["stdin"], os.O_RDONLY),
            (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
            (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        ):
            opened = os.open(path, flags, 0o644)
            os.dup2(opened, fd)
            os.close(opened)
        replies.close()
        sys.stdin = open(0, encoding="utf-8", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        sys.argv = ["bazaarbot", *request["args"]]
        sys.exit(bazaarbot.cli.main(request["args"]))
    _pid, status = os.waitpid(pid, 0)
    replies.write(json.dumps(os.waitstatus_to_exitcode(status)) + "\n")
    replies.flush()
"""


class CliForks:
    """The server process; ``run`` one command at a time, ``close`` it at the end."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="bazaarbot-cli-")
        self.server = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        )

    def run(
        self, *args: str, cwd: Path | str = REPO_ROOT, input: str = "", timeout: int = 60
    ) -> subprocess.CompletedProcess[str]:
        """``bazaarbot ARGS`` run to its end in ``cwd`` with ``input``; its status and output as text."""
        assert self.server.stdin and self.server.stdout
        folder = Path(self._folder.name)
        files = {name: folder / name for name in ("stdin", "stdout", "stderr")}
        files["stdin"].write_text(input, encoding="utf-8")
        request = {"args": list(args), "cwd": str(cwd), "timeout": timeout}
        request.update({name: str(path) for name, path in files.items()})
        self.server.stdin.write(json.dumps(request) + "\n")
        self.server.stdin.flush()
        reply = self.server.stdout.readline()
        assert reply, "the command server ended"
        return subprocess.CompletedProcess(
            ["bazaarbot", *args],
            json.loads(reply),
            files["stdout"].read_text(encoding="utf-8"),
            files["stderr"].read_text(encoding="utf-8"),
        )

    def close(self) -> None:
        assert self.server.stdin and self.server.stdout
        self.server.stdin.close()
        self.server.wait(timeout=60)
        self.server.stdout.close()
        self._folder.cleanup()
