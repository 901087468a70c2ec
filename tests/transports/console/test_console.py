"""The console transport, as people and scripts use it: `bazaarbot console --script`."""

from __future__ import annotations

import io
import subprocess
import sys

from bazaarbot.transports.console import ConsoleTransport


def run_console(db, lines: list[str], *extra: str) -> list[str]:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bazaarbot.cli",
            "console",
            "--script",
            "--seed",
            "5",
            "--db",
            str(db),
            *extra,
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.splitlines()


def answers(output: list[str]) -> list[list[str]]:
    """Output split into one block per input line, at the --- markers."""
    blocks, block = [], []
    for line in output:
        if line == "---":
            blocks.append(block)
            block = []
        else:
            block.append(line)
    return blocks


def test_input_line_formats_are_parsed():
    console = ConsoleTransport(channel="#bazaar")
    a = console.parse("alice: /join")
    assert (a.channel, a.user.nick, a.text) == ("#bazaar", "alice", "/join")
    b = console.parse("bob@#other: take 2 spice")
    assert (b.channel, b.user.nick, b.text) == ("#other", "bob", "take 2 spice")
    c = console.parse("carol@dm: /hand")
    assert (c.channel, c.user.nick, c.text) == (None, "carol", "/hand")
    assert console.parse("no colon here") is None


async def test_output_prefixes_and_multi_line_boards():
    from bazaarbot.messages import Say, Tell

    out = io.StringIO()
    console = ConsoleTransport(out=out)
    await console.send(Say("console", "#bazaar", "line one\nline two"))
    await console.send(Tell("console", "alice", "secret"))
    assert out.getvalue().splitlines() == ["#bazaar> line one", "#bazaar> line two", "@alice> secret"]


def test_script_mode_marks_every_answer_and_every_input(tmp_path):
    blocks = answers(
        run_console(tmp_path / "c.sqlite", ["alice: /join", "alice: hello", "nonsense", "bob: /join"])
    )
    assert len(blocks) == 4
    assert blocks[0][0].startswith("#bazaar> alice joins Jaipur")
    assert blocks[1] == [] and blocks[2] == []
    assert blocks[3][0].startswith("#bazaar> bob joins")


def test_moves_all_via_console_lists_typeable_commands_or_no_moves(tmp_path):
    db = tmp_path / "c.sqlite"
    blocks = answers(
        run_console(
            db, ["alice: /join", "bob: /join", "alice: /start", "alice: /moves all", "bob: /moves all"]
        )
    )
    start = blocks[2]
    assert any(line.startswith("@alice> ") for line in start) and any(
        line.startswith("@bob> ") for line in start
    )
    to_act = (
        "alice"
        if any(line.startswith("@alice> ") for line in blocks[3]) and blocks[3] != ["@alice> (no moves)"]
        else "bob"
    )
    waiting = "bob" if to_act == "alice" else "alice"
    mine = blocks[3] if to_act == "alice" else blocks[4]
    theirs = blocks[4] if to_act == "alice" else blocks[3]
    assert theirs == [f"@{waiting}> (no moves)"]
    assert len(mine) > 1 and all(line.startswith(f"@{to_act}> ") for line in mine)


def test_a_table_survives_a_restart_of_the_console(tmp_path):
    db = tmp_path / "c.sqlite"
    first = answers(run_console(db, ["alice: /join", "bob: /join", "alice: /start", "alice: /board"]))
    board_before = first[3]
    second = answers(run_console(db, ["carol: /board", "carol: /status"]))
    assert second[0] == board_before
    assert "running" in second[1][0]


def test_admin_flag_grants_reset(tmp_path):
    db = tmp_path / "c.sqlite"
    blocks = answers(
        run_console(db, ["alice: /join", "bob: /join", "alice: /start", "root: /reset"], "--admin", "root")
    )
    assert any("reset" in line for line in blocks[3])
