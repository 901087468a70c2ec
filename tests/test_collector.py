"""The bot's garbage-collection policy: full collections on a timer, CPython's policy back after."""

from __future__ import annotations

import asyncio
import gc

import pytest
from support.waits import wait_until

from bazaarbot.collector import NO_AUTOMATIC_FULL, YOUNG_THRESHOLDS, CollectorPolicy


def test_installing_freezes_what_is_alive_and_moves_full_collections_to_the_timer():
    before = gc.get_threshold()
    policy = CollectorPolicy()
    policy.install()
    try:
        assert gc.get_threshold() == (*YOUNG_THRESHOLDS, NO_AUTOMATIC_FULL)
        assert gc.get_freeze_count() > 0
        policy.install()  # twice is once
        assert policy.installed
    finally:
        policy.uninstall()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert not policy.installed
    policy.uninstall()  # and undoing twice changes nothing
    assert gc.get_threshold() == before


def test_cyclic_garbage_made_after_install_is_collected_by_the_timed_sweep():
    policy = CollectorPolicy()
    policy.install()
    try:

        class Node:
            pass

        for _ in range(100):
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle: reference counting alone never frees it
        del a, b
        assert policy.sweep() >= 200
        assert policy.sweeps == 1
    finally:
        policy.uninstall()


async def test_the_sweeps_run_every_period_of_the_injected_clock_until_cancelled():
    waited: list[float] = []
    ticks = asyncio.Queue[None]()
    collected: list[int] = []

    async def fake_sleep(seconds: float) -> None:
        waited.append(seconds)
        await ticks.get()

    def fake_collect() -> int:
        collected.append(1)
        if len(collected) == 2:
            raise RuntimeError("a failing collection is logged, the timer goes on")
        return 0

    policy = CollectorPolicy(full_every=300.0, sleep=fake_sleep, collect=fake_collect)
    task = asyncio.get_running_loop().create_task(policy.run())
    for n in range(3):
        ticks.put_nowait(None)
        # the tick's collection ran and the timer waits again
        await wait_until(lambda n=n: len(waited) >= n + 2, what=f"collection {n + 1}")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(collected) == 3
    assert waited[:3] == [300.0, 300.0, 300.0]
