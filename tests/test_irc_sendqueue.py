"""Pacing: the token bucket's arithmetic and the sender task's order and rate."""

from __future__ import annotations

import asyncio

import pytest

from bazaarbot.transports.irc.sendqueue import SendQueue, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_burst_then_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(3, 2.0, clock)
    for _ in range(3):
        assert bucket.delay() == 0
        bucket.take()
    assert bucket.delay() == pytest.approx(0.5)
    clock.now += 0.5
    assert bucket.delay() == 0
    bucket.take()
    assert bucket.delay() == pytest.approx(0.5)


def test_refill_never_exceeds_the_burst() -> None:
    clock = Clock()
    bucket = TokenBucket(4, 1.0, clock)
    clock.now += 1000
    for _ in range(4):
        bucket.take()
    assert bucket.delay() == pytest.approx(1.0)


def test_a_line_sent_at_once_leaves_a_debt() -> None:
    clock = Clock()
    bucket = TokenBucket(1, 1.0, clock)
    bucket.take()
    bucket.take()
    assert bucket.delay() == pytest.approx(2.0)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        TokenBucket(0, 1.0)
    with pytest.raises(ValueError):
        TokenBucket(1, 0)


async def test_queue_sends_in_order_at_the_configured_pace() -> None:
    written: list[tuple[float, str]] = []
    loop = asyncio.get_running_loop()
    queue = SendQueue(lambda line: written.append((loop.time(), line)), burst=2, rate=40.0)
    queue.start()
    queue.resume()
    for i in range(10):
        queue.put(f"line {i}")
    await asyncio.wait_for(queue.drained(), 5)
    await queue.close()
    assert [line for _t, line in written] == [f"line {i}" for i in range(10)]
    span = written[-1][0] - written[0][0]
    assert span >= (10 - 2) / 40.0 * 0.9  # the burst goes at once, the rest at the rate


async def test_paused_queue_holds_lines_and_front_lines_jump_ahead() -> None:
    written: list[str] = []
    queue = SendQueue(written.append, burst=5, rate=100.0)
    queue.start()
    queue.put("PRIVMSG #a :old")
    queue.put("JOIN #a", front=True)
    await asyncio.sleep(0.05)
    assert written == []
    queue.resume()
    await asyncio.wait_for(queue.drained(), 5)
    await queue.close()
    assert written == ["JOIN #a", "PRIVMSG #a :old"]


async def test_a_failed_write_keeps_the_line_for_later() -> None:
    written: list[str] = []
    fail = True

    def write(line: str) -> None:
        if fail:
            raise ConnectionError("down")
        written.append(line)

    queue = SendQueue(write, burst=5, rate=100.0)
    queue.start()
    queue.resume()
    queue.put("PRIVMSG #a :kept")
    await asyncio.sleep(0.05)
    assert written == [] and list(queue.lines) == ["PRIVMSG #a :kept"]
    fail = False
    queue.resume()
    await asyncio.wait_for(queue.drained(), 5)
    await queue.close()
    assert written == ["PRIVMSG #a :kept"]


async def test_an_unsendable_line_is_dropped_not_blocking() -> None:
    written: list[str] = []

    def write(line: str) -> None:
        if "bad" in line:
            raise ValueError("message too long")
        written.append(line)

    queue = SendQueue(write, burst=5, rate=100.0)
    queue.start()
    queue.resume()
    for line in ("PRIVMSG #a :one", "PRIVMSG #a :bad", "PRIVMSG #a :two"):
        queue.put(line)
    await asyncio.wait_for(queue.drained(), 5)
    await queue.close()
    assert written == ["PRIVMSG #a :one", "PRIVMSG #a :two"] and queue.dropped == 1
