"""Web admins by secret: a token the operator made with ``bazaarbot admin-token``, bound to one browser.

A web nick is whatever a browser claimed first, so it can never make
anybody an admin. The operator runs ``bazaarbot admin-token NAME``, which
prints a fresh token and stores only its hash in the bot's sqlite file; the
admin types ``/admin TOKEN`` in the page once, and from then on the right
belongs to that browser's claim (its nick token), whatever nick it takes.
The token is spent: another browser that types it later gets nothing.
Making a new token for the same name revokes the old one and its binding.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import sqlite3
import time
from collections.abc import Callable

from bazaarbot.i18n import _

NAME_RE = re.compile(r"^[A-Za-z0-9_.\-]{1,32}$")
#: what an admin token looks like inside a line of text
TOKEN_RE = re.compile(r"adm-[A-Za-z0-9_\-]{16,124}")

#: claims remembered as bound to no admin (beyond it they are forgotten and looked up again)
MAX_UNBOUND = 100_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_admins (
    name TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    claim_hash TEXT UNIQUE,
    created REAL NOT NULL,
    bound REAL
)
"""


class AdminTokenError(ValueError):
    """A token that grants nothing; the message says why, for the person who typed it."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


@functools.lru_cache(maxsize=4096)
def _claim_digest(claim_token: str) -> str:
    """``_digest`` of a browser's claim token: asked for every line a browser says (its admin right
    is looked up each time), so made once per token in use."""
    return _digest(claim_token)


class AdminTokens:
    """The web_admins table: admin name -> hash of its token, and the claim it was bound to."""

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], float] = time.time) -> None:
        self.conn = conn
        self.clock = clock
        #: hashes of claims found bound to no admin: only ``redeem`` (here, in the bot) binds one, so
        #: they are not looked up again until it does; a bound claim is looked up for every line, so
        #: a token the operator replaces stops working at once
        self._unbound: set[str] = set()
        with self.conn:
            self.conn.execute(SCHEMA)

    def issue(self, name: str) -> str:
        """A new token for the admin ``name`` (printed once, never stored); revokes any older one."""
        if not NAME_RE.fullmatch(name):
            raise AdminTokenError(_("An admin name is 1 to 32 letters, digits, '.', '-' or '_'."))
        token = "adm-" + secrets.token_urlsafe(32)
        with self.conn:
            self.conn.execute(
                "INSERT INTO web_admins (name, token_hash, claim_hash, created, bound) "
                "VALUES (?, ?, NULL, ?, NULL) "
                "ON CONFLICT(name) DO UPDATE SET token_hash=excluded.token_hash, claim_hash=NULL, "
                "created=excluded.created, bound=NULL",
                [name, _digest(token), self.clock()],
            )
        return token

    def redeem(self, token: str, claim_token: str) -> str:
        """Bind the admin right of ``token`` to the browser holding ``claim_token``; the admin's name.

        Raises AdminTokenError when the token is unknown or was already used
        by another browser.
        """
        if not isinstance(token, str) or not 16 <= len(token) <= 128:
            raise AdminTokenError(_("That is not an admin token."))
        row = self.conn.execute(
            "SELECT name, claim_hash FROM web_admins WHERE token_hash=?", [_digest(token)]
        ).fetchone()
        if row is None:
            raise AdminTokenError(_("That is not an admin token."))
        claim = _digest(claim_token)
        self._unbound.discard(claim)
        if row[1] is not None:
            if row[1] == claim:
                return str(row[0])
            raise AdminTokenError(_("That admin token was used already; ask the operator for a new one."))
        try:
            with self.conn:  # both or neither
                self.conn.execute("BEGIN")
                self.conn.execute("UPDATE web_admins SET claim_hash=NULL WHERE claim_hash=?", [claim])
                self.conn.execute(
                    "UPDATE web_admins SET claim_hash=?, bound=? WHERE name=?", [claim, self.clock(), row[0]]
                )
        except sqlite3.Error:  # a full or read-only disk: the token stays unused
            raise AdminTokenError(_("Sorry, that could not be saved; nothing changed. Try again.")) from None
        return str(row[0])

    def holds_token(self, text: str) -> bool:
        """Whether ``text`` is or contains a real admin token (pasted in the wrong place: never shown)."""
        for found in TOKEN_RE.findall(text):
            if self.conn.execute("SELECT 1 FROM web_admins WHERE token_hash=?", [_digest(found)]).fetchone():
                return True
        return False

    def admin_of(self, claim_token: str | None) -> str | None:
        """The admin name bound to the browser holding ``claim_token``, else None."""
        if not claim_token:
            return None
        claim = _claim_digest(claim_token)
        if claim in self._unbound:
            return None
        row = self.conn.execute("SELECT name FROM web_admins WHERE claim_hash=?", [claim]).fetchone()
        if row is None:
            if len(self._unbound) >= MAX_UNBOUND:
                self._unbound.clear()
            self._unbound.add(claim)
            return None
        return str(row[0])
