"""Helpers for the teaching tests: a pool whose searches the test lets finish."""

from __future__ import annotations

import asyncio


class HeldPool:
    """A pool whose searches finish only when the test says so (the search itself is the real one)."""

    def __init__(self) -> None:
        self.held: list[tuple[asyncio.Future, object, tuple]] = []

    def run(self, work, *args, key=None) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self.held.append((future, work, args))
        return future

    def release(self) -> None:
        for future, work, args in self.held:
            future.set_result(work(*args))
        self.held.clear()
