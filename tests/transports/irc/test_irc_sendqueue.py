"""Pacing: the token bucket's arithmetic and the sender task's order and rate."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from support.waits import next_turn, wait_until

from bazaarbot.config import IrcNetwork
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
    # one turn takes the sender task as far as it goes: an open queue writes both lines within it
    # (burst 5), a paused one stops at its wait for the connection
    await next_turn()
    assert written == []
    assert queue.lines == ["JOIN #a", "PRIVMSG #a :old"]
    queue.resume()
    await asyncio.wait_for(queue.drained(), 5)
    await queue.close()
    assert written == ["JOIN #a", "PRIVMSG #a :old"]


async def test_a_failed_write_keeps_the_line_for_later() -> None:
    written: list[str] = []
    tried: list[str] = []
    fail = True

    def write(line: str) -> None:
        tried.append(line)
        if fail:
            raise ConnectionError("down")
        written.append(line)

    queue = SendQueue(write, burst=5, rate=100.0)
    queue.start()
    queue.resume()
    queue.put("PRIVMSG #a :kept")
    await wait_until(lambda: tried, 5, "the sender to try the line")  # it pauses in the same step
    assert written == [] and list(queue.lines) == ["PRIVMSG #a :kept"]
    assert tried == ["PRIVMSG #a :kept"]  # once: the failed write paused the queue, no retry loop
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


class FakeTime:
    """A clock and an asyncio sleep that advances it; ``at`` schedules a call at a fake moment."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.calls: list[tuple[float, Callable[[], None]]] = []

    def __call__(self) -> float:
        return self.now

    def at(self, moment: float, call: Callable[[], None]) -> None:
        self.calls.append((moment, call))
        self.calls.sort(key=lambda pair: pair[0])

    async def sleep(self, seconds: float) -> None:
        end = self.now + seconds
        while self.calls and self.calls[0][0] <= end:
            moment, call = self.calls.pop(0)
            self.now = max(self.now, moment)
            call()
        self.now = end
        await asyncio.sleep(0)


@pytest.mark.parametrize("listing", [True, False], ids=["listing", "game-lines"])
@pytest.mark.parametrize("busy", [1, 2], ids=["one-busy-player", "two-busy-players"])
async def test_another_table_is_answered_within_3_s_while_a_100_line_answer_waits(
    listing: bool, busy: int
) -> None:
    defaults = IrcNetwork(name="net", host="irc.example.org")  # the real default pacing
    fake = FakeTime()
    written: list[tuple[float, str]] = []
    queue = SendQueue(
        lambda line: written.append((fake.now, line)),
        defaults.burst,
        defaults.lines_per_second,
        clock=fake,
        sleep=fake.sleep,
    )
    queue.start()
    queue.resume()
    players = [f"player{i}" for i in range(busy)]
    for n in range(100):
        for nick in players:
            queue.put(f"PRIVMSG {nick} :answer line {n}", target=nick, bulk=listing)
    asked: dict[str, float] = {}

    def move_at_another_table(channel: str) -> None:
        asked[channel] = fake.now
        queue.put(f"PRIVMSG {channel} :alice takes 2 spice.", target=channel)
        queue.put(f"PRIVMSG {channel} :bob to play.", target=channel)

    for moment, channel in ((0.0, "#early"), (20.4, "#middle"), (60.7, "#late")):
        fake.at(fake.now + moment, lambda channel=channel: move_at_another_table(channel))
    every = 100 * busy + 6
    await wait_until(lambda: len(written) >= every, what=lambda: f"{every} lines written, not {len(written)}")
    await queue.close()
    for channel, moment in asked.items():
        times = [t for t, line in written if f"PRIVMSG {channel} :" in line]
        assert len(times) == 2 and times[0] - moment <= 3.0, (channel, moment, times)
        if listing:  # channel lines go ahead of a bulk listing: the whole answer, at once
            assert times[-1] - moment <= 3.0, (channel, moment, times)
    for nick in players:
        mine = [line for _t, line in written if f"PRIVMSG {nick} :" in line]
        assert mine == [f"PRIVMSG {nick} :answer line {n}" for n in range(100)]  # nothing lost, in order
    gaps = [b - a for (a, _x), (b, _y) in zip(written, written[1:], strict=False)]
    assert sum(gaps) >= (len(written) - defaults.burst) / defaults.lines_per_second - 1e-6  # paced
