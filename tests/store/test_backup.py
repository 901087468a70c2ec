"""`bazaarbot backup` and `restore-check`: consistent online copies of a live, busy sqlite file.

The commands run as processes forked from one that imported the package once (``support.clifork``);
the busy file is written by a console process beside them, the quiet ones by a console in the
test's process (``support.consolehere``).
"""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import pytest
from support.clifork import CliForks
from support.consolehere import ConsoleHere
from support.consoleproc import Console

from bazaarbot.store.backup import BackupError, backup, restore_check

#: one worker runs every module that forks commands, so one process imports the package
pytestmark = pytest.mark.xdist_group("bazaarbot-forks")


def _play(console: Console | ConsoleHere, nicks: list[str], moves: int, seed: int) -> int:
    """Random legal moves through the console; how many were played."""
    rng = random.Random(seed)
    played = 0
    for _ in range(moves):
        for nick in nicks:
            listing = [line.split("> ", 1)[1] for line in console.type(f"{nick}@dm: /moves all")]
            if listing and listing != ["(no moves)"]:
                console.type(f"{nick}: {rng.choice(listing)}")
                played += 1
                break
        else:
            break
    return played


def _jaipur_started(
    folder: Path, seed: int, console_on: type[Console | ConsoleHere] = Console
) -> tuple[Path, Console | ConsoleHere]:
    """A live sqlite file in ``folder``, and a console on it where alice and bob have started Jaipur."""
    db = folder / "live.sqlite"
    console = console_on(db, seed=seed)
    for line in ("alice: /new jaipur", "bob: /join", "alice: /start"):
        console.type(line)
    return db, console


def _moves_on_disk(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM moves").fetchone()[0])
    finally:
        conn.close()


def test_backup_while_moves_are_played_gives_consistent_copies(
    bazaarbot_forks: CliForks, tmp_path: Path
) -> None:
    db, console = _jaipur_started(tmp_path, seed=3)
    try:
        copies: list[Path] = []
        errors: list[BaseException] = []

        def backups() -> None:
            try:
                for number in range(6):
                    copy = str(tmp_path / f"copy{number}.sqlite")
                    result = bazaarbot_forks.run("backup", copy, "--db", str(db))
                    assert result.returncode == 0, result.stderr
                    assert "integrity_check ok" in result.stdout
                    copies.append(tmp_path / f"copy{number}.sqlite")
            except BaseException as error:  # reported by the main thread
                errors.append(error)

        worker = threading.Thread(target=backups)
        worker.start()
        played = _play(console, ["alice", "bob"], 60, seed=5)
        worker.join(120)
        assert not errors, errors
        assert played > 10 and len(copies) == 6
        counts = []
        for copy in copies:
            report = restore_check(copy)
            assert report.integrity == "ok"
            assert report.running_games + report.finished_games >= 1
            counts.append(report.tables["moves"])
        assert counts == sorted(counts), "each later copy holds at least the moves of the one before"
        assert counts[-1] <= _moves_on_disk(db)
    finally:
        console.close()


def test_restore_check_reports_tables_running_games_and_the_last_move(
    bazaarbot_forks: CliForks, tmp_path: Path
) -> None:
    db, console = _jaipur_started(tmp_path, seed=4, console_on=ConsoleHere)
    try:
        _play(console, ["alice", "bob"], 3, seed=1)
    finally:
        console.close()
    assert bazaarbot_forks.run("backup", str(tmp_path / "copy.sqlite"), "--db", str(db)).returncode == 0
    result = bazaarbot_forks.run("restore-check", str(tmp_path / "copy.sqlite"))
    assert result.returncode == 0, result.stderr
    assert "integrity_check: ok" in result.stdout
    assert "games: 1 running, 0 finished" in result.stdout
    assert "last move: 20" in result.stdout  # a date, not "none"
    assert "moves 3" in result.stdout


def test_backup_into_a_folder_writes_a_dated_file(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite"
    ConsoleHere(db, seed=1).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    report = backup(db, folder)
    assert report.path.parent == folder and report.path.name.startswith("live-")
    assert report.integrity == "ok" and not list(folder.glob("*.partial"))


def test_backup_of_a_missing_database_says_so_and_creates_nothing(
    bazaarbot_forks: CliForks, tmp_path: Path
) -> None:
    result = bazaarbot_forks.run(
        "backup", str(tmp_path / "copy.sqlite"), "--db", str(tmp_path / "missing.sqlite")
    )
    assert result.returncode == 1
    assert result.stderr.strip() == f"backup: {tmp_path / 'missing.sqlite'}: no such file"
    assert not (tmp_path / "missing.sqlite").exists() and not (tmp_path / "copy.sqlite").exists()


def test_restore_check_of_a_file_that_is_not_a_database_is_one_line(
    bazaarbot_forks: CliForks, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    result = bazaarbot_forks.run("restore-check", str(junk))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"restore-check: {junk}: not an sqlite database")


def test_restore_check_refuses_a_database_that_is_not_the_bots(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    try:
        restore_check(other)
    except BackupError as error:
        assert "not a bazaarbot database" in str(error)
    else:
        raise AssertionError("a foreign database passed the check")


def test_backup_refuses_to_overwrite_the_live_database(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite"
    ConsoleHere(db, seed=1).close()
    try:
        backup(db, db)
    except BackupError as error:
        assert "live database itself" in str(error)
    else:
        raise AssertionError("the live file was its own backup")
