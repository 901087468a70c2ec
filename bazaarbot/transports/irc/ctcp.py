"""CTCP queries a client sends a bot (``/ctcp bazaarbot VERSION``) and their answers.

VERSION, PING, TIME and CLIENTINFO are answered with a NOTICE, as every client
does; other CTCP (``/me`` included) is no line for the game and gets nothing.
Answers are bounded per nick, so a CTCP flood never fills the send queue.
"""

from __future__ import annotations

import email.utils
import importlib.metadata
import time
from collections.abc import Callable

MARK = "\x01"
#: the queries answered, as CLIENTINFO lists them
ANSWERED = ("CLIENTINFO", "PING", "TIME", "VERSION")
#: one answer per nick in this many seconds
GAP = 2.0


def version() -> str:
    """The installed bazaarbot's version (its package metadata)."""
    try:
        return importlib.metadata.version("bazaarbot")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def parse(text: str) -> tuple[str, str] | None:
    """(command, argument) of a CTCP message, None for a plain line."""
    if not text.startswith(MARK):
        return None
    body = text.strip(MARK)
    command, _, argument = body.partition(" ")
    return command.upper(), argument


def answer(command: str, argument: str, wall_clock: Callable[[], float] = time.time) -> str | None:
    """The reply's CTCP body (without the marks), None for a query that gets none."""
    if command == "VERSION":
        return f"VERSION bazaarbot {version()}, a board game bot for Jaipur, Yspahan and Bazaar"
    if command == "PING":
        return f"PING {argument.replace(MARK, '')[:64]}".rstrip()
    if command == "TIME":
        return "TIME " + email.utils.formatdate(wall_clock(), localtime=False, usegmt=True)
    if command == "CLIENTINFO":
        return "CLIENTINFO " + " ".join(ANSWERED)
    return None


class Answers:
    """Whom the bot answered when: at most one CTCP answer per nick per ``GAP`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last: dict[str, float] = {}

    def allowed(self, nick: str) -> bool:
        now = self.clock()
        if now - self.last.get(nick, -GAP) < GAP:
            return False
        self.last = {n: t for n, t in self.last.items() if now - t < GAP}  # bounded: recent nicks only
        self.last[nick] = now
        return True
