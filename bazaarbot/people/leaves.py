"""A part or quit starts a grace period; the leave path runs only if the person does not come back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class PendingLeaves:
    """(network, identity) -> the timer that will run their leave, cancelled when they return."""

    def __init__(self) -> None:
        self.pending: dict[tuple[str, str], asyncio.TimerHandle] = {}

    def start(self, network: str, key: str, delay: float, leave: Callable[[], None]) -> None:
        """Run ``leave`` after ``delay`` seconds unless ``cancel`` comes first (a new start replaces one)."""
        self.cancel(network, key)

        def fire() -> None:
            self.pending.pop((network, key), None)
            leave()

        self.pending[(network, key)] = asyncio.get_running_loop().call_later(delay, fire)

    def cancel(self, network: str, key: str) -> None:
        handle = self.pending.pop((network, key), None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for handle in self.pending.values():
            handle.cancel()
        self.pending.clear()
