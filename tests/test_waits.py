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
NOT_YET: dict[str, str] = {
    "tests/support/failover.py::_say": "the lines of the last IRC answer: wait for the bot to be idle",
    "tests/transports/irc/test_irc_sendqueue.py::test_paused_queue_holds_lines_and_front_lines_jump_ahead": (
        "the queue's task: wait for the writes it made, or the injected clock"
    ),
    "tests/transports/irc/test_irc_sendqueue.py::test_a_failed_write_keeps_the_line_for_later": (
        "the queue's task: wait for the writes it made, or the injected clock"
    ),
    "tests/transports/irc/test_irc_sendqueue.py::"
    "test_another_table_is_answered_within_3_s_while_a_100_line_answer_waits": (
        "turns of the loop for the queue's task: wait for what it wrote"
    ),
    "tests/transports/irc/test_irc_server.py::test_full_match_hands_only_in_private": (
        "the last lines relayed: wait for the bot's last line"
    ),
    "tests/transports/irc/test_irc_server.py::test_server_restart_mid_game": (
        "the line queued while the server is down: wait for the queue to hold it"
    ),
    "tests/transports/irc/test_irc_server.py::test_cr_lf_can_never_inject_a_command": (
        "nothing else arrives: a round trip through the bot after the line"
    ),
    "tests/transports/irc/test_irc_server.py::test_notices_are_never_answered": (
        "nothing else arrives: a round trip through the bot after the notices"
    ),
    "tests/transports/irc/test_irc_server.py::"
    "test_ctcp_version_ping_and_time_are_answered_and_nothing_else": (
        "the CTCP answer budget per nick follows the wall clock: inject the transport's clock"
    ),
    "tests/transports/irc/test_irc_server.py::"
    "test_an_invite_is_joined_where_the_network_accepts_them_and_remembered_until_a_kick": (
        "the invite reached the bot: wait for the server to relay it"
    ),
    "tests/transports/irc/test_irc_speaks_irc.py::settled": (
        "the server relays the last lines: wait for the bot's last line at the clients"
    ),
    "tests/transports/irc/test_irc_speaks_irc.py::test_no_line_the_bot_sends_on_irc_names_a_slash_command": (
        "typing pace between lines: wait for each line's answer"
    ),
    "tests/transports/irc/test_irc_speaks_irc.py::"
    "test_four_boards_then_a_move_the_announcement_is_not_held_and_no_stale_board_leaves": (
        "ngircd's own flood penalty wears off: the server's clock, not ours"
    ),
    "tests/transports/matrix/test_matrix.py::test_a_restart_in_mid_game_loses_no_move_and_replays_no_line": (
        "a replayed line would be handled by now: wait for the sync after the restart's first"
    ),
    "tests/transports/matrix/test_matrix.py::"
    "test_a_lost_homeserver_stops_the_turn_clocks_and_play_resumes_within_seconds_of_its_return": (
        "the reconnect back-off grows past its cap: inject the transport's clock"
    ),
    "tests/transports/matrix/test_matrix.py::test_the_player_to_move_is_notified_for_each_of_their_turns": (
        "an unchanged board is not edited: wait for the sync after the answer"
    ),
}

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
