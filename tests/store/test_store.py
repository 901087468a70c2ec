"""The store: schema, write-ahead move log, restart, export."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from support.botdriver import Driver, text
from support.paths import TESTS_DIR
from support.storetargets import read_rows, store_args

from bazaarbot.store import SCHEMA_VERSION, Store, open_store


def test_schema_version_and_wal(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    assert store.schema_version() == SCHEMA_VERSION
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()
    again = Store(tmp_path / "s.sqlite")  # migrations run once
    assert again.schema_version() == SCHEMA_VERSION


def test_schema_is_migrated_once_on_either_store(store_target):
    store = open_store(store_target)
    assert store.schema_version() == SCHEMA_VERSION
    store.close()
    again = open_store(store_target)
    assert again.schema_version() == SCHEMA_VERSION
    again.close()


def test_accepted_move_is_on_disk_before_the_reply(store_target):
    bot = Driver(store_target)
    bot.script("alice: /join", "bob: /join", "alice: /start", "alice: add 2")
    # a second, independent connection sees the move as soon as the reply exists
    rows = read_rows(store_target, "SELECT seat, author, text FROM moves")
    assert rows == [(0, "n:alice", "add 2")]


def test_restart_restores_lobby_and_game_exactly(store_target):
    bot = Driver(store_target)
    bot.line("alice", "/new count target=20")
    bot.line("bob", "/join")
    bot.line("carol", "/join", channel="#lobby")
    bot.script("alice: /start", "alice: add 2", "bob: add 3")
    before = bot.table.state
    bot = bot.restart()
    after = bot.table.state
    assert after == before
    assert [s.nick for s in bot.hub.tables[("test", "#lobby")].seats] == ["carol"]
    assert bot.table.options == {"target": 20} and bot.table.host_nick() == "alice"
    out = bot.line("alice", "add 1")
    assert bot.table.state.total == 6 and "total 6" in text(out)


def test_finished_game_is_not_restored_as_running(store_target):
    bot = Driver(store_target)
    bot.script("alice: /new count target=2", "bob: /join", "alice: /start", "alice: add 2")
    bot = bot.restart()
    assert not bot.table.running and [s.nick for s in bot.table.seats] == ["alice", "bob"]


def test_export_prints_the_game_as_json(store_target):
    bot = Driver(store_target)
    bot.script("alice: /new count target=4", "bob: /join", "alice: /start", "alice: add 2", "bob: add 2")
    game_id = bot.hub.store.next_game_number() - 1
    bot.hub.store.close()
    out = subprocess.run(
        [sys.executable, "-m", "bazaarbot.cli", "export", str(game_id), *store_args(store_target)],
        capture_output=True,
        text=True,
        check=True,
    )
    record = json.loads(out.stdout)
    assert record["game"] == "count" and record["rules_version"] == "count-1"
    assert record["status"] == "finished" and record["options"] == {"target": 4}
    assert [p["nick"] for p in record["players"]] == ["alice", "bob"]
    assert [(m["author"], m["text"]) for m in record["moves"]] == [("n:alice", "add 2"), ("n:bob", "add 2")]
    assert all(isinstance(m["at"], float) for m in record["moves"]) and isinstance(record["seed"], int)


def test_export_of_unknown_game_fails_clearly(store_target):
    open_store(store_target).close()
    out = subprocess.run(
        [sys.executable, "-m", "bazaarbot.cli", "export", "99", *store_args(store_target)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1 and "no game 99" in out.stderr


RESTART_SCRIPT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {tests!r})
    from support.botdriver import Driver
    bot = Driver({db!r})
    for line in sys.stdin.read().splitlines():
        nick, _, said = line.partition(": ")
        for message in bot.line(nick, said):
            print(message.text)
    state = bot.table.state
    print("STATE", None if state is None else (state.total, state.turn))
    """
)


def test_a_new_process_on_the_same_store_continues_the_game(store_target):
    script = RESTART_SCRIPT.format(tests=str(TESTS_DIR), db=store_target)

    def run(lines: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", script], input=lines, capture_output=True, text=True, check=True
        ).stdout

    first = run("alice: /new count target=30\nbob: /join\nalice: /start\nalice: add 3\n")
    assert "STATE (3, 1)" in first
    second = run("bob: add 2\n")
    assert "bob adds 2: total 5." in second and "STATE (5, 0)" in second
