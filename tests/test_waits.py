"""Tests wait for the state they read, never for a time: no bare sleep outside ``support/waits.py``.

A sleep used as synchronisation passes on a quiet machine and fails on a busy
one (the frame had not arrived yet, the hub had not handled the line). A test
waits with ``support.waits`` for what it reads; a test that must let time pass
moves the injected clock. ``BEHAVIOUR`` names the few places where a sleep is
itself the behaviour under test, each with its reason; ``NOT_YET`` the sleeps
still to be replaced, so that the list only shrinks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from support.paths import REPO_ROOT

TESTS = REPO_ROOT / "tests"
#: the one module that sleeps: the poll interval of the waits
WAITS = TESTS / "support" / "waits.py"
#: calls that wait for a time: module.function, and Playwright's timed pause
SLEEPS = {("asyncio", "sleep"), ("time", "sleep")}
TIMED_METHODS = {"wait_for_timeout"}

#: "path::function" -> why a sleep there is the behaviour under test, not synchronisation
BEHAVIOUR: dict[str, str] = {
    "tests/ai/test_ai_pool.py::test_the_event_loop_keeps_answering_while_the_ai_thinks": (
        "the loop's own timers firing while a search runs in the pool is what the test counts"
    ),
    "tests/store/test_kill9.py::test_every_answered_move_survives_kill_minus_nine_at_random_points": (
        "a random moment of a move's way (processed, committed, answered) to kill the bot at"
    ),
    "tests/support/failover.py::kill_round": (
        "a random moment of a move's way to kill the active process at; then it waits for the drop"
    ),
    "tests/transports/web/test_trust_web_bounds.py::"
    "test_half_sent_requests_are_closed_at_the_header_deadline_and_others_get_in": (
        "a slow peer: the headers come in two parts, the second well within the deadline"
    ),
    "tests/support/frozen.py::stay_frozen": (
        "the length of a freeze (SIGSTOP past the lease) is the scenario; states are waited for around it"
    ),
    "tests/support/frozen.py::_run": (
        "the watch's pace: it reads both processes' /healthz every 50 ms for as long as the test runs"
    ),
    "tests/hub/test_autoplay_pace.py::sleep": (
        "the injected pace clock's sleep: it moves the fake time and lets the AI's task run once"
    ),
    "tests/transports/irc/test_irc_sendqueue.py::sleep": (
        "the injected clock's sleep: it moves the fake time and lets the queue's task run once"
    ),
}

#: sleeps used as synchronisation that are still to be replaced by a wait for the state they stand for
#: (listed so that no new one comes in; the check below fails once one of them is gone, so the list
#: only shrinks)
NOT_YET: dict[str, str] = {}

ALLOWED = {**BEHAVIOUR, **NOT_YET}


def _sleeping_calls(path: Path) -> Iterator[tuple[str, int]]:
    """(enclosing function, line) of every call that waits for a time in ``path``."""
    tree = ast.parse(path.read_text())
    bare = {  # ``from asyncio import sleep`` and the like
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in ("asyncio", "time")
        for alias in node.names
        if alias.name == "sleep"
    }

    def visit(node: ast.AST, where: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            inside = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside = child.name
            if isinstance(child, ast.Call):
                func = child.func
                if isinstance(func, ast.Attribute):
                    owner = func.value.id if isinstance(func.value, ast.Name) else None
                    if (owner, func.attr) in SLEEPS or func.attr in TIMED_METHODS:
                        yield inside, child.lineno
                elif isinstance(func, ast.Name) and func.id in bare:
                    yield inside, child.lineno
            yield from visit(child, inside)

    yield from visit(tree, "<module>")


def _offenders() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        if path == WAITS:
            continue
        relative = path.relative_to(REPO_ROOT).as_posix()
        for function, line in _sleeping_calls(path):
            found.setdefault(f"{relative}::{function}", []).append(line)
    return found


def test_no_test_sleeps_outside_the_wait_helpers():
    offenders = {key: lines for key, lines in _offenders().items() if key not in ALLOWED}
    assert not offenders, (
        "wait for the state the test reads (support.waits) or move the injected clock instead of "
        f"sleeping: {offenders}"
    )


def test_every_allowed_sleep_is_still_there_and_says_why():
    found = _offenders()
    stale = [key for key in ALLOWED if key not in found]
    assert not stale, f"no sleep left there; drop it from ALLOWED: {stale}"
    assert all(len(reason) > 20 for reason in ALLOWED.values())


def test_the_check_sees_each_way_of_sleeping(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import asyncio, time\n"
        "from asyncio import sleep as nap\n"
        "async def a():\n    await asyncio.sleep(0.1)\n"
        "def b():\n    time.sleep(1)\n"
        "async def c(page):\n    await page.wait_for_timeout(300)\n    await nap(1)\n"
        "def d(pool):\n    pool.run(time.sleep, 5)  # handed over, not called here\n"
    )
    assert sorted(_sleeping_calls(sample)) == [("a", 4), ("b", 6), ("c", 8), ("c", 9)]
