"""A part or quit waits out its grace period; coming back cancels it."""

from __future__ import annotations

import asyncio

from bazaarbot.people.leaves import PendingLeaves


async def test_the_leave_runs_after_its_grace():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("alice"))
    assert ("net", "alice") in leaves.pending
    await asyncio.sleep(0.05)
    assert ran == ["alice"] and not leaves.pending


async def test_coming_back_cancels_the_leave():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("alice"))
    leaves.cancel("net", "alice")
    await asyncio.sleep(0.05)
    assert ran == [] and not leaves.pending


async def test_a_second_part_replaces_the_first_grace():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("first"))
    leaves.start("net", "alice", 0.01, lambda: ran.append("second"))
    await asyncio.sleep(0.05)
    assert ran == ["second"]


async def test_shutdown_cancels_every_pending_leave():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("alice"))
    leaves.start("net", "bob", 0.01, lambda: ran.append("bob"))
    leaves.cancel_all()
    await asyncio.sleep(0.05)
    assert ran == [] and not leaves.pending
