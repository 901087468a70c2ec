"""Who gets in when the web chat is full: seated players keep their sockets, the idle make room.

The global websocket cap keeps a flood of sockets from exhausting the
process, but a cap that simply refuses newcomers can be filled by anybody
who holds enough idle sockets (spectators may stay silent for an hour). So
part of the cap is reserved for players (spectators may use the rest only),
every network prefix (IPv4 /24, IPv6 /64) has its own bound, and when the cap
is reached a newcomer is let in by closing the socket that is least use to
anybody: one that never claimed a nick first, then spectators, then players
who sit at no table, the longest silent first; never a seated player's.
"""

from __future__ import annotations

from collections.abc import Iterable

from bazaarbot.transports.web.conn import Conn


def rank(conn: Conn, seated: set[str]) -> tuple[int, float] | None:
    """How readily ``conn`` is closed to make room (lower first), or None when it must stay."""
    if conn.dead:
        return None
    if conn.nick is not None and conn.nick.lower() in seated:
        return None  # a seated player's tab is never closed for a newcomer
    if conn.nick is None and conn.watching is None:
        kind = 0
    elif conn.watching is not None:
        kind = 1
    else:
        kind = 2
    return kind, conn.last_frame


def make_room(conns: Iterable[Conn], seated: set[str]) -> Conn | None:
    """The socket to close so that a newcomer fits, or None when only seated players hold the cap."""
    best: tuple[tuple[int, float], Conn] | None = None
    for conn in conns:
        order = rank(conn, seated)
        if order is not None and (best is None or order < best[0]):
            best = (order, conn)
    return best[1] if best else None
