"""The writer's calls into sqlite: few per batch, and a refused batch fails only its lines."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from support.storetargets import read_rows
from support.waits import TIMEOUT, wait_until, wait_until_sync

from bazaarbot.store.writer import StoreWriter, Unit, table_scope

MOVE = "INSERT INTO moves(game_id, n, text) VALUES (?,?,?)"
#: how the statements the writer runs begin (sqlite's trace shows them with their values)
MOVE_CALL = "INSERT INTO moves(game_id, n, text)"


def _writer(tmp_path: Path) -> tuple[StoreWriter, list[str]]:
    """A writer on a fresh file with a ``moves`` table (one move per game and number), and what it runs."""
    writer = StoreWriter(str(tmp_path / "w.sqlite"))
    writer.conn.execute("CREATE TABLE moves(game_id INT, n INT, text TEXT, UNIQUE(game_id, n))")
    sent: list[str] = []
    writer.conn.set_trace_callback(lambda statement: sent.append(statement.split(" VALUES ")[0]))
    return writer, sent


def _queue(writer: StoreWriter, game_id: int, *rows: tuple[int, str]) -> Unit:
    """One line's unit: its moves at one game."""
    writer.begin()
    for n, text in rows:
        writer.write(table_scope(game_id), MOVE, (game_id, n, text))
    return writer.end()


def _moves(tmp_path: Path) -> list[tuple]:
    return read_rows(str(tmp_path / "w.sqlite"), "SELECT game_id, n, text FROM moves ORDER BY game_id, n")


def test_a_batch_of_one_statement_is_written_as_that_statement_alone(tmp_path):
    writer, sent = _writer(tmp_path)
    _queue(writer, 1, (1, "add 1"))
    assert writer.commit_now() == []
    assert sent == [MOVE_CALL], "no BEGIN and COMMIT around it: one statement is its own transaction"
    assert not writer.conn.in_transaction
    assert _moves(tmp_path) == [(1, 1, "add 1")]
    writer.close()


def test_a_batch_of_moves_at_many_games_is_one_multi_row_insert(tmp_path):
    writer, sent = _writer(tmp_path)
    for game_id in (1, 2, 3):
        _queue(writer, game_id, (1, "add 1"))
    assert writer.commit_now() == []
    assert sent == [MOVE_CALL]
    assert _moves(tmp_path) == [(1, 1, "add 1"), (2, 1, "add 1"), (3, 1, "add 1")]
    writer.close()


def test_a_batch_of_two_statements_is_one_transaction(tmp_path):
    writer, sent = _writer(tmp_path)
    _queue(writer, 1, (1, "add 1"))
    writer.begin()
    writer.write(None, "UPDATE moves SET text = ? WHERE game_id = ?", ("add 2", 1))
    writer.end()
    assert writer.commit_now() == []
    assert sent[0] == "BEGIN IMMEDIATE" and sent[-1] == "COMMIT" and len(sent) == 4
    assert _moves(tmp_path) == [(1, 1, "add 2")]
    writer.close()


def test_a_refused_one_statement_batch_fails_only_its_unit_and_later_units_still_commit(tmp_path):
    writer, _sent = _writer(tmp_path)
    _queue(writer, 1, (1, "add 1"))
    writer.commit_now()
    refused = _queue(writer, 1, (1, "add 1 again"))  # the same game and number: the constraint refuses it
    assert writer.commit_now() == [refused]
    assert not refused.ok and not writer.conn.in_transaction
    later = _queue(writer, 1, (2, "add 2"))
    assert writer.commit_now() == [] and later.ok
    assert _moves(tmp_path) == [(1, 1, "add 1"), (1, 2, "add 2")]
    writer.close()


def test_a_refused_multi_row_insert_fails_only_the_refused_line(tmp_path):
    writer, _sent = _writer(tmp_path)
    _queue(writer, 1, (1, "add 1"))
    writer.commit_now()
    first = _queue(writer, 2, (1, "add 1"))
    refused = _queue(writer, 1, (1, "add 1 again"))
    other = _queue(writer, 3, (1, "add 3"))
    assert writer.commit_now() == [refused]
    assert first.ok and other.ok and not refused.ok
    assert _moves(tmp_path) == [(1, 1, "add 1"), (2, 1, "add 1"), (3, 1, "add 3")]
    writer.close()


def test_a_one_statement_batch_with_a_fence_checks_the_fence_in_its_transaction(tmp_path):
    writer, sent = _writer(tmp_path)
    checked: list[bool] = []
    writer.fence = lambda conn: checked.append(conn.in_transaction)
    _queue(writer, 1, (1, "add 1"))
    assert writer.commit_now() == []
    assert checked == [True]
    assert sent == ["BEGIN IMMEDIATE", MOVE_CALL, "COMMIT"]
    writer.close()


def test_a_fence_that_refuses_fails_a_one_statement_batch(tmp_path):
    writer, _sent = _writer(tmp_path)

    def lost(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("the lease is lost")

    writer.fence = lost
    unit = _queue(writer, 1, (1, "add 1"))
    assert writer.commit_now() == [unit]
    assert _moves(tmp_path) == []
    writer.close()


def _slow_disk(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """Each batch waits on the writer thread for the first event; the second is set once one has begun."""
    release, entered = threading.Event(), threading.Event()
    original = StoreWriter._locked_write

    def slow_write(self: StoreWriter, batch: list[Unit]) -> set:
        entered.set()
        release.wait(TIMEOUT)
        return original(self, batch)

    monkeypatch.setattr(StoreWriter, "_locked_write", slow_write)
    return release, entered


async def test_units_awaited_while_a_batch_is_written_go_together_in_the_next_batch(tmp_path, monkeypatch):
    writer, _sent = _writer(tmp_path)
    release, entered = _slow_disk(monkeypatch)
    first = asyncio.create_task(writer.commit(_queue(writer, 1, (1, "add 1"))))
    await wait_until(entered.is_set, what="the first batch to reach the writer thread")
    later = [_queue(writer, game_id, (1, "add 1")) for game_id in (2, 3)]
    waiting = [asyncio.create_task(writer.commit(unit)) for unit in later]
    await wait_until(lambda: all(unit.waiters for unit in later), what="the later units to be awaited")
    assert writer.queued == later, "they wait for the batch in flight"
    release.set()
    assert await asyncio.gather(first, *waiting) == [True, True, True]
    assert (writer.commits, writer.units_committed) == (2, 3)
    assert _moves(tmp_path) == [(1, 1, "add 1"), (2, 1, "add 1"), (3, 1, "add 1")]
    writer.close()


async def test_a_writer_thread_that_fails_fails_its_batch_and_the_next_batch_is_still_written(
    tmp_path, monkeypatch
):
    writer, _sent = _writer(tmp_path)
    reloaded: list[Unit] = []
    writer.on_failure = reloaded.extend
    original = StoreWriter._locked_write
    calls: list[int] = []

    def broken_once(self: StoreWriter, batch: list[Unit]) -> set:
        calls.append(len(batch))
        if len(calls) == 1:
            raise RuntimeError("the writer thread broke")
        return original(self, batch)

    monkeypatch.setattr(StoreWriter, "_locked_write", broken_once)
    lost = _queue(writer, 1, (1, "add 1"))
    assert await writer.commit(lost) is False
    assert reloaded == [lost]
    kept = _queue(writer, 1, (1, "add 1 again"))
    assert await writer.commit(kept) is True
    assert _moves(tmp_path) == [(1, 1, "add 1 again")]
    writer.close()


def test_a_batch_written_after_its_loop_closed_leaves_the_writer_ready_for_the_next_loop(
    tmp_path, monkeypatch
):
    writer, _sent = _writer(tmp_path)
    release, entered = _slow_disk(monkeypatch)

    async def leave_a_batch_in_flight() -> None:
        asyncio.create_task(writer.commit(_queue(writer, 1, (1, "add 1"))))
        await wait_until(entered.is_set, what="the batch to reach the writer thread")

    asyncio.run(leave_a_batch_in_flight())
    release.set()
    wait_until_sync(lambda: not writer.pending, what="the orphaned batch to be written")
    later = _queue(writer, 2, (1, "add 1"))
    assert asyncio.run(asyncio.wait_for(writer.commit(later), TIMEOUT)) is True
    assert _moves(tmp_path) == [(1, 1, "add 1"), (2, 1, "add 1")]
    writer.close()


async def test_a_unit_settled_on_another_thread_wakes_its_commit_through_the_commit_loop():
    unit = Unit()
    waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    unit.waiters.append(waiter)
    elsewhere = threading.Thread(target=unit.settle, args=(True,))
    elsewhere.start()
    elsewhere.join()
    assert await waiter is True
    assert unit.settled and unit.ok and unit.waiters == []
