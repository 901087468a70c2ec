"""One connection's plumbing: the frame budget and the queue that never blocks the hub."""

from __future__ import annotations

import asyncio
from typing import Any

from support.waits import wait_until

from bazaarbot.transports.web import conn as web_conn
from bazaarbot.transports.web.conn import Conn, TokenBucket


def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert bucket.take() and not bucket.take()
    now[0] += 100
    assert sum(bucket.take() for _ in range(10)) == 3


class StuckSocket:
    """A browser that never reads: every send waits forever."""

    def __init__(self) -> None:
        self.closed = False
        self.close_code: int | None = None
        self.sent = 0

    async def send_str(self, _data: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        self.closed = True
        self.close_code = code


async def test_a_browser_that_falls_behind_is_disconnected_not_waited_for(monkeypatch: Any) -> None:
    monkeypatch.setattr(web_conn, "QUEUE_LIMIT", 5)
    ws = StuckSocket()
    conn = Conn(ws, TokenBucket(1, 1))  # type: ignore[arg-type]
    for n in range(20):
        conn.send("tell", text=str(n))  # returns at once every time
    await wait_until(lambda: conn.dead and ws.closed, what="the tab that fell behind cut off")
    assert conn.dead and ws.closed and ws.close_code == 1013
    conn.send("tell", text="after")  # a no-op now
    await conn.close()
