"""Which process serves a network: a lease in the database, so there are never two at once.

Each network has a row in ``bazaarbot_leases`` with its owner and a deadline
(the server's clock). A process serves its networks only while it holds all of
their rows; it renews them several times per lease. It also holds a session
advisory lock keyed by its own owner name on the lease's own connection (its
sign of life): when the process dies (kill -9, a lost host) the server ends its
session and the lock goes at once, so a standby may take the rows of a dead
owner without waiting for the deadline. The lock is the owner's, not the
network's: a process that took the networks from a frozen one (after the
deadline) is alive by its own lock, so when the frozen one wakes and exits, a
newcomer still finds the networks held and waits.

A network whose row has expired is free too, lock or not (a process cut off
from the database may keep its session open on the server for a long while).

Two guards keep an old owner from acting after a new one started:

* every commit of the game records checks, in its own transaction, that this
  process still owns the rows and their deadline has not passed (``fence``);
  a takeover rewrites the owner under a row lock, so it waits for such a
  commit, restores what it wrote, and every later commit of the old owner is
  refused;
* a process that cannot renew in time stops serving by its own clock before
  the deadline the server counts from (it measures from the moment it *sent*
  the renewal), so even cut off from the database it is gone before another
  may start.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import sqlite3
import threading
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from bazaarbot.store.postgres.connection import connect_raw

log = logging.getLogger(__name__)

#: the first key of the owners' advisory locks (the second is the owner's)
LOCK_CLASS = 0x6BA3

#: the owners whose sign of life is held by a session now (their keys, in this database)
LIVE_OWNERS = """
SELECT objid::bigint FROM pg_locks
WHERE locktype = 'advisory' AND granted AND classid = %s AND objsubid = 2
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS bazaarbot_leases (
    network TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    deadline TIMESTAMPTZ NOT NULL
)
"""


def lock_key(owner: str) -> int:
    """The owner's advisory-lock key (a positive int4)."""
    return zlib.crc32(owner.encode("utf-8")) & 0x7FFFFFFF


#: why a keeper gave the networks up when another process holds them now (any other reason: the
#: database went away, and the process may serve again once it is back)
TAKEN = "another process took the networks"


def database_away(reason: str) -> bool:
    """Whether a lost lease's ``reason`` is the database's absence (not another process's hold)."""
    return reason != TAKEN


class LeaseLost(sqlite3.OperationalError):
    """This process no longer holds its networks (a commit is refused; the process stops)."""


@dataclass(frozen=True)
class Takeover:
    """Networks taken from another process: from whom, and how long it had been silent by then.

    ``silent``: seconds from the previous owner's last renewal (its deadline less a lease) to
    the moment this process took the rows, by the server's clock; ``at``: that moment by this
    process's clock. A takeover's own time is ``silent`` plus what this process took after ``at``.
    """

    previous: str
    silent: float
    at: float


def _takeover(rows: list[Any], owner: str, seconds: float, at: float) -> Takeover | None:
    """The takeover the rows just taken make, or None (they were free or this process's own)."""
    others = [
        (str(previous), float(past))
        for _network, previous, _live, past in rows
        if previous and previous != owner and past is not None and math.isfinite(float(past))
    ]
    if not others:  # first start, a clean stop's rows, or this process's own
        return None
    previous, past = max(others, key=lambda other: other[1])
    return Takeover(previous, max(0.0, past + seconds), at)


class Lease:
    """This process's hold on ``networks`` (all or none) in the store at ``url``."""

    def __init__(
        self,
        url: str,
        networks: frozenset[str],
        seconds: float = 2.0,
        owner: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.networks = sorted(networks)
        self.seconds = seconds
        self.clock = clock
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        #: by this process's clock, the moment it must stop serving unless a renewal came back
        self.held_until: float | None = None
        #: what this process took its networks over from, when it took them from another process
        self.taken: Takeover | None = None
        self._lock = threading.Lock()
        self.conn = self._connect()
        self.conn.execute(SCHEMA)

    def _connect(self) -> Any:
        """A session of the lease's own, holding this process's sign of life while it lasts."""
        conn = connect_raw(self.url)
        conn.execute("SELECT pg_advisory_lock(%s, %s)", [LOCK_CLASS, lock_key(self.owner)])
        return conn

    def may_speak(self) -> bool:
        """Whether, by this process's clock, its lease still holds (checked before anything is sent).

        A process frozen past its deadline (SIGSTOP, a stalled host) wakes with the clock past
        ``held_until``: from then on nothing may leave it, whatever waited to be sent.
        """
        until = self.held_until
        return until is not None and self.clock() < until

    # --- taking and keeping ---------------------------------------------------------------
    def try_acquire(self) -> bool:
        """Take every network when none is held by a live process; True when this process now serves them."""
        with self._lock:
            if self.conn.closed:  # the session broke while waiting: a new one, with a new sign of life
                self.conn = self._connect()
            sent = self.clock()
            conn = self.conn
            with conn.transaction():
                conn.execute(
                    "INSERT INTO bazaarbot_leases(network, owner, deadline) "
                    "SELECT unnest(%s::text[]), '', '-infinity' ON CONFLICT DO NOTHING",
                    [self.networks],
                )
                rows = conn.execute(
                    "SELECT network, owner, deadline > clock_timestamp(), CASE WHEN isfinite(deadline) "
                    "THEN EXTRACT(EPOCH FROM clock_timestamp() - deadline)::float8 END FROM bazaarbot_leases "
                    "WHERE network = ANY(%s) ORDER BY network FOR UPDATE",
                    [self.networks],
                ).fetchall()
                alive = {int(r[0]) for r in conn.execute(LIVE_OWNERS, [LOCK_CLASS]).fetchall()}
                free = all(
                    not live or owner == self.owner or lock_key(owner) not in alive
                    for _network, owner, live, _past in rows
                )
                taken = free and len(rows) == len(self.networks)
                if taken:
                    conn.execute(
                        "UPDATE bazaarbot_leases SET owner = %s, "
                        "deadline = clock_timestamp() + %s * interval '1 second' "
                        "WHERE network = ANY(%s)",
                        [self.owner, self.seconds, self.networks],
                    )
            if not taken:
                return False
            self.held_until = sent + self.seconds
            self.taken = _takeover(rows, self.owner, self.seconds, sent)
            return True

    def renew(self) -> bool:
        """Push the deadline on; False when a row is no longer this process's (it must stop)."""
        with self._lock:
            sent = self.clock()
            cursor = self.conn.execute(
                "UPDATE bazaarbot_leases SET deadline = clock_timestamp() + %s * interval '1 second' "
                "WHERE owner = %s AND network = ANY(%s) AND deadline > clock_timestamp()",
                [self.seconds, self.owner, self.networks],
            )
            if cursor.rowcount != len(self.networks):
                return False
            self.held_until = sent + self.seconds
            return True

    def holders(self) -> dict[str, str]:
        """Network -> the process that holds it now (for the standby's log line)."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT network, owner FROM bazaarbot_leases WHERE network = ANY(%s) "
                "AND deadline > clock_timestamp() AND owner <> ''",
                [self.networks],
            ).fetchall()
        return {str(n): str(o) for n, o in rows}

    def fence(self, conn: Any) -> None:
        """In a commit's transaction: raise ``LeaseLost`` unless this process still serves its networks."""
        if self.held_until is None or self.clock() >= self.held_until:
            raise LeaseLost("this process's lease ran out")
        rows = conn.execute(
            "SELECT network FROM bazaarbot_leases WHERE owner = ? AND network = ANY(?) "
            "AND deadline > clock_timestamp() FOR SHARE",
            [self.owner, self.networks],
        ).fetchall()
        if len(rows) != len(self.networks):
            raise LeaseLost("another process serves this process's networks now")

    def release(self) -> None:
        """Give the networks up at once (a clean stop): a standby need not wait for the deadline."""
        with self._lock:
            if not self.conn.closed:  # (when the database went away, the deadline frees the rows)
                try:
                    self.conn.execute(
                        "UPDATE bazaarbot_leases SET deadline = '-infinity' "
                        "WHERE owner = %s AND network = ANY(%s)",
                        [self.owner, self.networks],
                    )
                except psycopg.Error as error:
                    log.warning("could not give the lease back: %s", error)
            self.held_until = None
            self.conn.close()


class LeaseKeeper:
    """Renews the lease on a thread of its own (the event loop never waits for it).

    When a renewal fails or does not come back in time, ``on_lost`` is told once
    (the process shuts down); if the process is still there when the lease runs
    out by its own clock, ``hard_stop`` ends it, so it never serves past it.
    """

    def __init__(
        self,
        lease: Lease,
        on_lost: Callable[[str], None],
        hard_stop: Callable[[], None] = lambda: os._exit(75),
    ) -> None:
        self.lease = lease
        self.on_lost = on_lost
        self.hard_stop = hard_stop
        self.every = lease.seconds / 5
        #: whether the process's own database sessions still work (a broken one: stop, let a standby serve)
        self.healthy: Callable[[], bool] = lambda: True
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bazaarbot-lease", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        lease = self.lease
        while not self._stop.wait(self.every):
            try:
                kept = lease.renew()
                reason = "" if kept else TAKEN
                if kept and not self.healthy():
                    kept, reason = False, "the store's connection broke"
            except psycopg.Error as error:
                kept, reason = False, f"the database cannot be reached ({str(error).strip()[:120]})"
            if kept:
                continue
            if self._stop.is_set():
                return
            log.error("lost the lease of %s: %s; stopping", ", ".join(lease.networks), reason)
            self.on_lost(reason)
            until = lease.held_until
            left = (until - lease.clock()) if until is not None else 0.0
            if not self._stop.wait(max(0.0, left - 0.05)):
                log.error("still running at the end of the lease: stopping now")
                self.hard_stop()
            return

    def stop(self) -> None:
        """Stop renewing and give the networks back."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=self.lease.seconds)
        self.lease.release()
