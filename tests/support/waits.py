"""The suite's one way to wait: for the state a test reads, never for a time.

A test that reads something another task, thread or process produces waits
here until it holds (the page shows it, the hub holds it, the frame arrived,
the store has it). Only these helpers sleep, and only as their poll interval;
``tests/test_waits.py`` fails on any other ``asyncio.sleep`` or ``time.sleep``
in the tests. A test that must let time pass moves the injected clock instead.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any

#: how long a wait may take before the test fails: generous, so a busy machine only slows it down
TIMEOUT = 30.0
#: how often a condition is read again, at most: the first reads follow each other within a
#: millisecond and back off to this (a state that comes at once costs no poll interval)
INTERVAL = 0.02
FIRST_INTERVAL = 0.001


#: what a failed wait was for: a sentence, or a function that says it when the wait fails (the last
#: lines seen, say)
What = str | Callable[[], str]


def _failed(predicate: Callable[[], Any], timeout: float, what: What) -> AssertionError:
    said = what() if callable(what) else what
    return AssertionError(f"timed out after {timeout}s waiting for {said or predicate}")


async def wait_until(
    predicate: Callable[[], Any], timeout: float = TIMEOUT, what: What = "", interval: float = INTERVAL
) -> Any:
    """Read ``predicate`` (a plain or an async function) until it returns something true; return that.

    Fails with an ``AssertionError`` naming ``what`` after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    pause = min(FIRST_INTERVAL, interval)
    while True:
        found = predicate()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found
        if time.monotonic() > deadline:
            raise _failed(predicate, timeout, what)
        await asyncio.sleep(pause)
        pause = min(pause * 2, interval)


async def wait_while(predicate: Callable[[], Any], timeout: float = TIMEOUT, what: What = "") -> None:
    """Until ``predicate`` stops holding (a queue drained, a lock released)."""

    async def released() -> bool:
        found = predicate()
        if inspect.isawaitable(found):
            found = await found
        return not found

    await wait_until(released, timeout, what)


async def next_turn() -> None:
    """Let every task that is ready run once (the loop's own step, not a wait for time)."""
    await asyncio.sleep(0)


def wait_until_sync(
    predicate: Callable[[], Any], timeout: float = TIMEOUT, what: What = "", interval: float = INTERVAL
) -> Any:
    """``wait_until`` for code outside an event loop (a thread, a fixture that starts a process)."""
    deadline = time.monotonic() + timeout
    pause = min(FIRST_INTERVAL, interval)
    while True:
        found = predicate()
        if found:
            return found
        if time.monotonic() > deadline:
            raise _failed(predicate, timeout, what)
        time.sleep(pause)
        pause = min(pause * 2, interval)
