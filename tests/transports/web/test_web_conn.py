"""One connection's plumbing: the frame budget and the queue that never blocks the hub."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from support.waits import wait_until

from bazaarbot.transports.web import conn as web_conn
from bazaarbot.transports.web.budget import SendBudget
from bazaarbot.transports.web.conn import Conn, TokenBucket
from bazaarbot.transports.web.outbox import Outbox


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


class RecordingSocket:
    """A browser's socket that takes every message at once, or (``blocked``) waits until let go."""

    def __init__(self) -> None:
        self.closed = False
        self.messages: list[Any] = []
        self.blocked: asyncio.Future[None] | None = None
        self.refuse = False

    async def send_str(self, data: str) -> None:
        if self.refuse:
            raise ConnectionResetError("reset by peer")
        if self.blocked is not None:
            await self.blocked
        self.messages.append(json.loads(data))

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        self.closed = True


async def _send_that_waits(
    text: str, budget: SendBudget | None = None, kind: str = "tell"
) -> tuple[Conn, RecordingSocket]:
    """A tab (of address "a") whose socket takes nothing until let go, and the send of ``text``
    that waits on it."""
    ws = RecordingSocket()
    ws.blocked = asyncio.get_running_loop().create_future()
    conn = Conn(ws, TokenBucket(1, 1), address="a", budget=budget)  # type: ignore[arg-type]
    conn.send(kind, text=text)
    await wait_until(lambda: conn.sending is not None, what="the send waiting on the socket")
    return conn, ws


def _texts(message: Any) -> list[str]:
    return [frame["text"] for frame in (message if isinstance(message, list) else [message])]


async def test_what_a_change_queues_for_a_tab_leaves_as_one_message_once_the_change_is_complete() -> None:
    complete = [False]
    outbox = Outbox(ready=lambda: complete[0])
    ws = RecordingSocket()
    conn = Conn(ws, TokenBucket(1, 1), outbox=outbox)  # type: ignore[arg-type]
    conn.send("tell", text="line")
    conn.send("tell", text="hand")
    await wait_until(lambda: not outbox._scheduled, what="the outbox's pass")
    assert ws.messages == [] and len(conn.queue) == 2  # the views of the change are not out yet
    conn.send("view", text="view")
    complete[0] = True
    outbox.drain()  # as the flush of views does at its end
    assert [_texts(m) for m in ws.messages] == [["line", "hand", "view"]]
    assert conn.queued_bytes == 0 and not conn.queue and conn.sending is None


async def test_a_tab_whose_line_is_being_handled_gets_its_answers_when_the_line_is_done() -> None:
    outbox = Outbox()
    ws = RecordingSocket()
    conn = Conn(ws, TokenBucket(1, 1), outbox=outbox)  # type: ignore[arg-type]
    with conn.holding():
        conn.send("echo", text="take leather")
        outbox.drain()
        assert ws.messages == []
        conn.send("bot", text="p1 takes leather")
    await wait_until(lambda: ws.messages, what="the held answers")
    assert [_texts(m) for m in ws.messages] == [["take leather", "p1 takes leather"]]


async def test_a_send_the_socket_cannot_take_at_once_goes_on_and_what_queued_meanwhile_follows() -> None:
    budget = SendBudget(per_connection=10_000, per_address=10_000)
    conn, ws = await _send_that_waits("first", budget)
    conn.send("tell", text="second")
    conn.send("tell", text="third")
    assert ws.messages == [] and budget.queued["a"] == conn.queued_bytes > 0
    ws.blocked.set_result(None)
    await wait_until(lambda: len(ws.messages) == 2, what="the queued frames after the waiting send")
    assert [_texts(m) for m in ws.messages] == [["first"], ["second", "third"]]
    await wait_until(lambda: conn.sending is None, what="the send's task done")
    assert conn.queued_bytes == 0 and "a" not in budget.queued


async def test_a_socket_that_refuses_a_message_gets_nothing_more_and_its_bytes_are_given_back() -> None:
    budget = SendBudget(per_connection=10_000, per_address=10_000)
    ws = RecordingSocket()
    ws.refuse = True
    conn = Conn(ws, TokenBucket(1, 1), address="a", budget=budget)  # type: ignore[arg-type]
    conn.send("tell", text="lost")
    await wait_until(lambda: conn.dead, what="the refused tab given up")
    conn.send("tell", text="after")  # a no-op now
    assert not conn.queue and conn.queued_bytes == 0 and "a" not in budget.queued
    await conn.close()


async def test_a_tab_closed_with_a_drain_gets_what_was_queued_first() -> None:
    conn, ws = await _send_that_waits("too many malformed messages", kind="error")
    conn.send("tell", text="goodbye")
    asyncio.get_running_loop().call_soon(ws.blocked.set_result, None)
    await conn.close(1008, b"flooding", drain=5.0)
    assert [_texts(m) for m in ws.messages] == [["too many malformed messages"], ["goodbye"]]
    assert ws.closed and conn.sending is None


async def test_closing_a_tab_stops_a_send_that_waits_on_its_socket() -> None:
    conn, ws = await _send_that_waits("never read")
    sending = conn.sending
    await conn.close()
    assert sending is not None and sending.cancelled() and ws.closed and not ws.messages


async def test_what_waits_for_a_tab_is_counted_in_the_bytes_it_is_sent_as() -> None:
    complete = [False]
    conn = Conn(RecordingSocket(), TokenBucket(1, 1), outbox=Outbox(ready=lambda: complete[0]))  # type: ignore[arg-type]
    for frame in ('{"t":"tell","text":"Käse für Zoë"}', '{"t":"tell","text":"plain"}'):
        before = conn.queued_bytes
        conn.push(frame)
        assert conn.queued_bytes - before == len(frame.encode("utf-8"))
