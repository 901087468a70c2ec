"""Web nicks: who may speak as whom, held by a secret browser token that survives restarts.

A browser gets a random token the first time it claims a nick and keeps it
(localStorage). Only a hash of the token is stored, in a table of the
bot's own sqlite file, so a restarted server hands every browser its nick
(and so its seats) back, and nobody who reads the database can speak as
anybody. One token holds one nick; one nick belongs to one token. A claim
that never sat at a table is forgotten once unused for a while (a client
that claims thousands of nicks leaves nothing behind). On a full or read-only
disk a claim is refused with a plain answer and nothing changes.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import sqlite3
import time
from collections.abc import Callable

from bazaarbot.i18n import _

log = logging.getLogger(__name__)

NICK_RE = re.compile(r"^[A-Za-z0-9_\-\[\]{}|^`]{1,24}$")
ROOM_RE = re.compile(r"^#[A-Za-z0-9_\-]{1,30}$")
#: a claim nobody has used for this long may be taken by another browser
CLAIM_TTL = 180 * 24 * 3600.0
#: last_seen is rewritten at most this often (it is only used to expire claims)
TOUCH_EVERY = 3600.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_sessions (
    token_hash TEXT PRIMARY KEY,
    nick TEXT NOT NULL,
    nick_key TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    last_seen REAL NOT NULL,
    sat INTEGER NOT NULL DEFAULT 0
)
"""


class ClaimError(ValueError):
    """A nick that cannot be had; the message says why, for the person who asked."""


def valid_nick(nick: object) -> bool:
    return isinstance(nick, str) and NICK_RE.fullmatch(nick) is not None


def valid_room(room: object) -> bool:
    return isinstance(room, str) and ROOM_RE.fullmatch(room) is not None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Claims:
    """The web_sessions table: token hash -> nick, one row per browser."""

    def __init__(
        self, conn: sqlite3.Connection, bot_nick: str, clock: Callable[[], float] = time.time
    ) -> None:
        self.conn = conn
        self.bot_nick = bot_nick
        self.clock = clock
        #: nicks already marked as having sat, so a sweep writes (and waits for the file) only for new ones
        self._marked: set[str] = set()
        with self.conn:
            self.conn.execute(SCHEMA)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(web_sessions)")}
            if "sat" not in columns:  # a file from before claims expired
                self.conn.execute("ALTER TABLE web_sessions ADD COLUMN sat INTEGER NOT NULL DEFAULT 1")

    def nick_for(self, token: str) -> str | None:
        """The nick a token holds (and note that it was used), or None for an unknown token."""
        if not isinstance(token, str) or not 16 <= len(token) <= 128:
            return None
        digest = token_hash(token)
        row = self.conn.execute(
            "SELECT nick, last_seen FROM web_sessions WHERE token_hash=?", [digest]
        ).fetchone()
        if row is None:
            return None
        now = self.clock()
        if now - row[1] > TOUCH_EVERY:
            try:
                with self.conn:
                    self.conn.execute("UPDATE web_sessions SET last_seen=? WHERE token_hash=?", [now, digest])
            except sqlite3.Error as error:  # a full disk: the claim stands, only its last use is not noted
                log.warning("web: the last use of %s's claim could not be noted: %s", row[0], error)
        return str(row[0])

    def check(self, nick: object) -> str:
        """``nick`` if it is well formed, else ClaimError with the rule."""
        if not valid_nick(nick):
            raise ClaimError(
                "A nick is 1 to 24 characters: letters, digits and - _ [ ] { } | ^ ` (no spaces)."
            )
        assert isinstance(nick, str)
        if nick.lower() == self.bot_nick.lower():
            raise ClaimError(f"{nick} is the bot's nick; choose another.")
        return nick

    def claim(self, token: str | None, nick: str) -> tuple[str, str | None]:
        """Give ``nick`` to the browser with ``token`` (a new token when None).

        Returns (token, the nick the token held before or None). Raises
        ClaimError when another browser holds the nick.
        """
        nick = self.check(nick)
        now = self.clock()
        key = nick.lower()
        digest = token_hash(token) if token else None
        holder = self.conn.execute(
            "SELECT token_hash, last_seen FROM web_sessions WHERE nick_key=?", [key]
        ).fetchone()
        stale = None
        if holder is not None and holder[0] != digest:
            if now - holder[1] <= CLAIM_TTL:
                raise ClaimError(f"The nick {nick} is taken by another browser; choose another.")
            stale = holder[0]
        old = None
        if digest is not None:
            row = self.conn.execute("SELECT nick FROM web_sessions WHERE token_hash=?", [digest]).fetchone()
            old = str(row[0]) if row else None
        if token is None or old is None:  # tokens are only ever made here, never taken from a browser
            token = secrets.token_urlsafe(32)
            digest = token_hash(token)
        try:
            with self.conn:  # the stale holder goes and the claim comes in one transaction, or neither
                self.conn.execute("BEGIN")
                if stale is not None:
                    self.conn.execute("DELETE FROM web_sessions WHERE token_hash=?", [stale])
                self.conn.execute(
                    "INSERT INTO web_sessions (token_hash, nick, nick_key, created, last_seen) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT(token_hash) DO UPDATE SET "
                    "nick=excluded.nick, nick_key=excluded.nick_key, last_seen=excluded.last_seen",
                    [digest, nick, key, now, now],
                )
        except sqlite3.IntegrityError:
            raise ClaimError(f"The nick {nick} is taken by another browser; choose another.") from None
        except sqlite3.Error as error:  # a full or read-only disk: nothing was written
            log.warning("web: the claim of %s could not be saved: %s", nick, error)
            raise ClaimError(_("Sorry, that could not be saved; nothing changed. Try again.")) from None
        self._marked.discard(key)  # a new claim row starts unmarked
        return token, old

    def mark_sat(self, nicks: list[str]) -> None:
        """These nicks sit at a table: their claims are kept like any other (never expire as stale)."""
        fresh = sorted({n.lower() for n in nicks} - self._marked)
        if not fresh:
            return
        with self.conn:
            self.conn.execute("BEGIN")  # one transaction, one flush: not one per nick
            self.conn.executemany(
                "UPDATE web_sessions SET sat=1 WHERE nick_key=? AND sat=0", [[n] for n in fresh]
            )
        self._marked.update(fresh)

    def expire_stale(self, older_than: float, keep: set[str]) -> int:
        """Forget claims that never sat at a table and were last used ``older_than`` seconds ago or more.

        ``keep`` are nicks in use right now (an open tab). Returns how many went.
        """
        cutoff = self.clock() - older_than
        rows = self.conn.execute(
            "SELECT token_hash, nick_key FROM web_sessions WHERE sat=0 AND last_seen<=?", [cutoff]
        ).fetchall()
        gone = [[row[0]] for row in rows if row[1] not in keep]
        if gone:
            with self.conn:
                self.conn.execute("BEGIN")
                self.conn.executemany("DELETE FROM web_sessions WHERE token_hash=?", gone)
        return len(gone)

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM web_sessions").fetchone()[0])
