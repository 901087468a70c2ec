"""`bazaarbot backup` and `restore-check` on a PostgreSQL store: a pg_dump archive, read by pg_restore."""

from __future__ import annotations

import subprocess
import sys

from support.botdriver import Driver

from bazaarbot.store.postgres.backup import tool


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bazaarbot.cli", *args], capture_output=True, text=True, timeout=60
    )


def test_a_postgres_store_is_backed_up_with_pg_dump_and_checked(tmp_path, postgres_cluster):
    url = postgres_cluster.database()
    bot = Driver(url)
    bot.script("alice: /new count target=20", "bob: /join", "alice: /start", "alice: add 2")
    bot.hub.store.close()
    made = _cli("backup", str(tmp_path), "--store", url)
    assert made.returncode == 0, made.stderr
    assert "pg_dump custom archive" in made.stdout
    archive = next(tmp_path.glob("bazaarbot-*.pgdump"))
    checked = _cli("restore-check", str(archive))
    assert checked.returncode == 0, checked.stderr
    assert (
        "games" in checked.stdout and "moves" in checked.stdout and "pg_restore --dbname=" in checked.stdout
    )
    # the archive restores into an empty database and the game goes on there
    copy = postgres_cluster.database()
    restored = subprocess.run(
        [tool("pg_restore"), "--no-owner", f"--dbname={copy}", str(archive)], capture_output=True, text=True
    )
    assert restored.returncode == 0, restored.stderr
    again = Driver(copy)
    assert again.table.state.total == 2


def test_a_backup_of_an_unreachable_postgres_store_says_why(tmp_path):
    made = _cli("backup", str(tmp_path), "--store", "postgresql://nobody@127.0.0.1:1/none")
    assert made.returncode != 0 and "cannot reach the store" in made.stderr + made.stdout


def test_restore_check_of_a_postgres_archive_names_the_games_and_the_last_move_as_on_sqlite(
    tmp_path, postgres_cluster
):
    url = postgres_cluster.database()
    bot = Driver(url)
    bot.script("alice: /new count target=20", "bob: /join", "alice: /start", "alice: add 2", "bob: add 1")
    bot.hub.store.close()
    assert _cli("backup", str(tmp_path), "--store", url).returncode == 0
    checked = _cli("restore-check", str(next(tmp_path.glob("bazaarbot-*.pgdump"))))
    assert checked.returncode == 0, checked.stderr
    lines = checked.stdout.splitlines()
    assert "games: 1 running, 0 finished" in lines
    assert any(line.startswith("last move: 20") and line.endswith(" UTC") for line in lines), lines
    tables = next(line for line in lines if line.startswith("tables: "))
    assert "games 1" in tables and "moves 2" in tables, tables
