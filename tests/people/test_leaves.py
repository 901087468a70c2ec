"""A part or quit waits out its grace period; coming back cancels it."""

from __future__ import annotations

from support.waits import wait_until

from bazaarbot.people.leaves import PendingLeaves


async def test_the_leave_runs_after_its_grace():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("alice"))
    assert ("net", "alice") in leaves.pending
    await wait_until(lambda: ran, what="the leave after its grace")
    assert ran == ["alice"] and not leaves.pending


async def test_coming_back_cancels_the_leave():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("alice"))
    grace = leaves.pending[("net", "alice")]
    leaves.cancel("net", "alice")
    assert grace.cancelled()  # a cancelled timer never fires
    assert ran == [] and not leaves.pending


async def test_a_second_part_replaces_the_first_grace():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("first"))
    first = leaves.pending[("net", "alice")]
    leaves.start("net", "alice", 0.01, lambda: ran.append("second"))
    assert first.cancelled()  # a cancelled timer never fires
    await wait_until(lambda: ran, what="the second leave after its grace")
    assert ran == ["second"]


async def test_shutdown_cancels_every_pending_leave():
    leaves, ran = PendingLeaves(), []
    leaves.start("net", "alice", 0.01, lambda: ran.append("alice"))
    leaves.start("net", "bob", 0.01, lambda: ran.append("bob"))
    graces = list(leaves.pending.values())
    leaves.cancel_all()
    assert all(grace.cancelled() for grace in graces)  # a cancelled timer never fires
    assert ran == [] and not leaves.pending
