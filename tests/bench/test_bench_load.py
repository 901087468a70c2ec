"""``bazaarbot bench load``: the real hub and store under many tables, every figure printed."""

from __future__ import annotations

import re

from bazaarbot.cli import main


def test_bench_load_prints_every_figure(capsys):
    assert main(["bench", "load", "--tables", "3", "--seconds", "0.3"]) == 0
    out = capsys.readouterr().out
    for label in (
        "3 live jaipur tables",
        "closed loop",
        "moves ",
        "/moves all",
        "CPU per command",
        "lines per commit",
        "paced at 60/s: moves",
        "RSS per live table",
        "restore all tables",
        "store-free closed loop",
    ):
        assert label in out, label
    # a table whose game has just ended runs no game until its rematch's /start, and the close may
    # come between the two (now and then, for one table): the restore finds up to three running
    restored = re.search(r"^\s*restore all tables .*\((\d+) running games, (\d+) logged moves\)", out, re.M)
    assert restored, "no line of the restore"
    assert 1 <= int(restored.group(1)) <= 3 and int(restored.group(2)) > 0


def test_bench_load_refuses_an_unknown_game_and_too_few_tables_for_the_ais(capsys):
    assert main(["bench", "load", "--game", "chess", "--seconds", "0.1"]) == 2
    assert "no game 'chess'" in capsys.readouterr().err
    assert main(["bench", "load", "--bots", "--tables", "8", "--seconds", "0.1"]) == 2
    assert "needs more than 8 tables" in capsys.readouterr().err


def test_bench_load_with_bots_reports_the_other_tables_beside_thinking_ais(capsys):
    assert main(["bench", "load", "--bots", "--tables", "9", "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "paced beside 8 hard AIs" in out and "AI moves" in out


def test_bench_load_web_plays_through_websockets_and_prints_the_ratio(capsys):
    assert main(["bench", "load", "--web", "--tables", "3", "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    for label in (
        "closed loop",
        "bench load --web: 3 live jaipur tables, 6 tabs",
        "web closed loop",
        "bot CPU per command",
        "bot CPU per request",
        "moves requests",
        "web paced at 60/s: moves",
        "web / in-process CPU per command",
        "web / in-process CPU per request",
        "web / in-process CPU per move",
        "web paced move p99",
    ):
        assert label in out, label
    moves = [line for line in out.splitlines() if line.startswith("  moves") and "lines)" in line]
    assert len(moves) >= 2, "the web phases played moves"


def test_bench_load_versus_measures_two_builds_taking_turns_black_box(capsys, tmp_path):
    from support.paths import REPO_ROOT

    assert main(["bench", "load", "--versus", str(tmp_path)]) == 2
    assert "not a bazaarbot source tree" in capsys.readouterr().out
    args = ["--tables", "2", "--saturated-tables", "3", "--seconds", "0.5", "--rounds", "1", "--rate", "20"]
    assert main(["bench", "load", "--versus", str(REPO_ROOT), *args, "--parts"]) == 0
    out = capsys.readouterr().out
    _assert_parts_timed(out, phases=1)
    assert "round 1, this build: paced 20/s at 2 tables" in out and "saturated at 3 tables" in out
    assert f"round 1, {REPO_ROOT}:" in out
    assert "bot CPU per command, this / other" in out and "saturated commands/s, this / other" in out
    said = [line for line in out.splitlines() if line.startswith("this build: paced CPU per command")]
    assert said and "0.00 ms" not in said[0], "the paced phase played commands"
    _assert_parts_of_a_paced_command(out, "this build", 2, 1)
    _assert_parts_of_a_paced_command(out, str(REPO_ROOT), 2, 1)


def _assert_parts_of_a_paced_command(out: str, build: str, tables: int, rounds: int) -> None:
    """A build's idle CPU at the paced phase's tables, its saturated CPU per command and its paced
    CPU per command in and beside its event loop's thread are printed, one figure per round, and the
    saturated phases played commands."""
    idle, work = _two_figure_lists(
        out,
        rf"^{re.escape(build)}: idle at {tables} tables ([\d, ]+) ms CPU/s; "
        r"saturated CPU per command ([\d., ]+) ms$",
    )
    assert len(idle) == len(work) == rounds and all(x >= 0 for x in idle)
    assert all(x > 0 for x in work), "the saturated phases played commands"
    loop, beside = _two_figure_lists(
        out,
        rf"^{re.escape(build)}: paced CPU per command in the event loop's thread ([\d., ]+) ms; "
        r"in the threads beside it ([\d., ]+) ms$",
    )
    assert len(loop) == len(beside) == rounds and all(x >= 0 for x in loop)


def _assert_parts_timed(out: str, phases: int) -> None:
    """This build's bot had its parts timed: one figure per paced phase for each part, the event
    loop's thread spent CPU, and lines went through the hub and views were built."""
    from bazaarbot.bench.parts import LABELS, LOOP

    lines = out.splitlines()
    head = lines.index(
        "this build, paced: where the event loop's CPU went, µs per command (calls per command)"
    )
    rows = {
        line.strip().rsplit("  ", 1)[0].strip(): line.rsplit("  ", 1)[1]
        for line in lines[head + 1 :][: len(LABELS) + 1]
    }
    assert list(rows) == [LOOP, *(label.strip() for label in LABELS)]
    assert all(len(figures.split(", ")) == phases for figures in rows.values())
    assert all(float(x) > 0 for x in rows[LOOP].split(", "))
    for part in (
        "a line through the hub (read, gate, dispatch, localize, its unit)",
        "views built and queued",
    ):
        calls = re.findall(r"\(([\d.]+)\)", rows[part])
        assert len(calls) == phases and all(float(x) > 0 for x in calls), part


def _two_figure_lists(out: str, line: str) -> tuple[list[float], list[float]]:
    """The two comma-separated lists of figures of the printed line matching ``line``."""
    found = re.search(line, out, re.M)
    assert found, f"no line {line!r} in the output"
    return [float(x) for x in found.group(1).split(",")], [float(x) for x in found.group(2).split(",")]


def test_bench_load_versus_together_paces_both_builds_at_once_and_pairs_their_figures(capsys):
    from support.paths import REPO_ROOT

    args = ["--tables", "2", "--saturated-tables", "3", "--seconds", "0.5", "--rounds", "2", "--rate", "20"]
    assert main(["bench", "load", "--versus", str(REPO_ROOT), "--together", *args, "--parts"]) == 0
    out = capsys.readouterr().out
    _assert_parts_timed(out, phases=4)  # two rounds, each build paced first once in each
    together = [line for line in out.splitlines() if ", together: paced 20/s at 2 tables each" in line]
    assert [line.split(",")[0] for line in together] == ["round 1", "round 2"]
    assert all("this build " in line and f"{REPO_ROOT} " in line for line in together)
    assert "round 2, this build: saturated at 3 tables" in out and f"round 2, {REPO_ROOT}: saturated" in out
    paired = re.search(r"^bot CPU per command, this / other, paired +(\d+\.\d+) \(goal", out, re.M)
    assert paired and float(paired.group(1)) > 0, "both builds played commands in the paced rounds"
    said = [line for line in out.splitlines() if line.startswith(f"{REPO_ROOT}: paced CPU per command")]
    assert said and "0.00 ms" not in said[0]
    _assert_parts_of_a_paced_command(out, "this build", 2, 2)
    _assert_parts_of_a_paced_command(out, str(REPO_ROOT), 2, 2)
