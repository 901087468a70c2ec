"""Config and command-line mistakes get one line naming the key or the file and what is allowed.

Each case is a ``bazaarbot`` process of its own: no traceback, exit status 2,
and a single line on stderr. ``export`` never creates a database file. The
cases are forked from one process that imported the package once
(``support.clifork``); one starts ``python -m bazaarbot.cli`` itself.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.clifork import CliForks

#: one worker runs every module that forks commands, so one process imports the package
pytestmark = pytest.mark.xdist_group("bazaarbot-forks")


def python_m_bazaarbot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command as a person starts it, ``python -m bazaarbot.cli``."""
    return subprocess.run(
        [sys.executable, "-m", "bazaarbot.cli", *args],
        cwd=cwd,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


CONFIGS = [
    ("bot = 5", "config error: bot must be a table"),
    ("[bot]\nrate_limit = 5", "config error: bot.rate_limit must be a table"),
    ("irc = 5", "config error: irc must be a table"),
    ("[irc]\nnetworks = 5", "config error: irc.networks must be a list of [[irc.networks]] tables"),
    ('[bot]\nlanguage = "xx"', "config error: bot.language: 'xx' is not one of en, de, es"),
    ('[bot]\ndefault_game = "chess"', "config error: bot.default_game 'chess' is not an installed game"),
    ("[bot]\nmax_line = 0", "config error: bot.max_line must be at least 1"),
    ("[bot]\nleave_grace = -5", "config error: bot.leave_grace must be 0 or more seconds"),
    ("[web]\nmax_message = 0", "config error: web.max_message must be at least 1"),
    (
        '[[irc.networks]]\nname = "n"\nhost = "irc.example"\nport = 99999',
        "config error: irc.networks[0].port must be between 1 and 65535",
    ),
]


@pytest.mark.parametrize(("text", "said"), CONFIGS, ids=[c[0].replace("\n", " ") for c in CONFIGS])
def test_a_bad_config_value_gets_one_line_naming_the_key(
    bazaarbot_forks: CliForks, tmp_path: Path, text: str, said: str
) -> None:
    (tmp_path / "c.toml").write_text(text + "\n")
    line = one_line(bazaarbot_forks.run("console", "--script", "-c", "c.toml", "--db", "x.db", cwd=tmp_path))
    assert line.startswith(said), line
    assert not (tmp_path / "x.db").exists(), "nothing was started"


def test_run_checks_the_config_before_it_serves(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text('[bot]\ndefault_game = "chess"\n')
    result = python_m_bazaarbot("run", "--port", "0", "-c", "c.toml", "--db", "x.db", cwd=tmp_path)
    assert one_line(result).startswith("config error: bot.default_game 'chess' is not an installed game")
    assert "serving" not in result.stdout


COMMANDS = [["run", "--port", "0"], ["console", "--script"], ["export", "1"], ["admin-token", "ops"]]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_db_in_a_missing_folder_or_a_directory_gets_one_line(
    bazaarbot_forks: CliForks, tmp_path: Path, command: list[str]
) -> None:
    missing = one_line(bazaarbot_forks.run(*command, "--db", "no/such/dir/x.db", cwd=tmp_path))
    assert "no/such/dir/x.db" in missing and ("does not exist" in missing), missing
    folder = one_line(bazaarbot_forks.run(*command, "--db", str(tmp_path), cwd=tmp_path))
    assert f"database {tmp_path} is a directory" in folder, folder


@pytest.mark.parametrize("command", COMMANDS[1:3], ids=[c[0] for c in COMMANDS[1:3]])
def test_a_file_that_is_not_a_database_gets_one_line(
    bazaarbot_forks: CliForks, tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "notes.txt").write_text("shopping: camels, spice\n" * 50)
    line = one_line(bazaarbot_forks.run(*command, "--db", "notes.txt", cwd=tmp_path))
    assert line == "database error: notes.txt is not a sqlite database; give a bazaarbot database file"
    assert (tmp_path / "notes.txt").read_text().startswith("shopping"), "the file is left as it was"


def test_export_of_a_huge_game_number_says_there_is_no_such_game(
    bazaarbot_forks: CliForks, tmp_path: Path
) -> None:
    assert bazaarbot_forks.run("console", "--script", "--db", "x.db", cwd=tmp_path).returncode == 0
    result = bazaarbot_forks.run("export", "99999999999999999999999", "--db", "x.db", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == "no game 99999999999999999999999 in x.db"


def test_export_from_a_missing_database_creates_no_file(bazaarbot_forks: CliForks, tmp_path: Path) -> None:
    line = one_line(bazaarbot_forks.run("export", "1", "--db", "missing.db", cwd=tmp_path))
    assert line.startswith("database error: no database missing.db: the file does not exist")
    assert list(tmp_path.iterdir()) == []


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` may not be written, even by root (immutable), for as long as the block runs."""
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
        if made.returncode != 0:
            pytest.skip("cannot make a file read-only for root here (chattr +i)")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)


def test_a_read_only_database_fails_at_start_with_one_line(bazaarbot_forks: CliForks, tmp_path: Path) -> None:
    assert bazaarbot_forks.run("console", "--script", "--db", "x.db", cwd=tmp_path).returncode == 0
    with read_only(tmp_path / "x.db"):
        results = [bazaarbot_forks.run(*c, "--db", "x.db", cwd=tmp_path) for c in (COMMANDS[0], COMMANDS[1])]
    for result in results:
        line = one_line(result)
        assert line == (
            "database error: the database x.db is read-only: the bot must be able to write it and its folder"
        )
        assert "serving" not in result.stdout
