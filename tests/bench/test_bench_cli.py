"""``bazaarbot bench engine|ai|load``: sub-commands with only their own flags; bare commands print help."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.paths import REPO_ROOT, TESTS_DIR

from bazaarbot.bench import commands
from bazaarbot.cli import build_parser, main

ROOT = REPO_ROOT


def _help(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_each_benchmark_lists_only_its_own_flags(capsys):
    engine, ai, load = (_help(capsys, "bench", name) for name in ("engine", "ai", "load"))
    assert "--seconds" in engine and "--tables" not in engine and "--level" not in engine
    assert "--level" in ai and "--record" in ai and "--tables" not in ai and "--bots" not in ai
    assert "--tables" in load and "--bots" in load and "--level" not in load and "--record" not in load


def test_no_help_text_names_another_benchmark(capsys):
    for name in ("engine", "ai", "load"):
        text = _help(capsys, "bench", name)
        assert "bench ai:" not in text and "bench load:" not in text


def test_a_flag_of_another_benchmark_is_refused(capsys):
    with pytest.raises(SystemExit) as done:
        main(["bench", "engine", "--tables", "3"])
    assert done.value.code == 2
    assert "unrecognized arguments: --tables" in capsys.readouterr().err


def test_bare_bench_prints_its_benchmarks_and_fails(capsys):
    assert main(["bench"]) == 2
    out = capsys.readouterr().out
    assert "engine" in out and "ai" in out and "load" in out


def test_bench_engine_prints_one_line_per_figure(capsys):
    assert main(["bench", "engine", "jaipur", "--seconds", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.startswith("jaipur: ") for line in lines)


def test_bench_engine_refuses_an_unknown_game(capsys):
    assert main(["bench", "engine", "chess", "--seconds", "0.05"]) == 2
    assert "no game 'chess'; installed:" in capsys.readouterr().err


def test_bench_ai_without_a_game_names_the_installed_ones(capsys, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["bench", "ai", "-c", str(config)]) == 2
    assert "name a game: bench ai <game>; installed:" in capsys.readouterr().err


def test_a_load_variant_gets_its_own_flag_and_runs_instead_of_the_in_process_load(monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(TESTS_DIR))
    variant = commands.LoadVariant("echo", "support.loadvariant", "a variant for this test")
    monkeypatch.setattr(commands, "LOAD_VARIANTS", [variant])
    parser = build_parser()
    args = parser.parse_args(["bench", "load", "--echo", "--tables", "4"])
    assert args.func(args) == 0
    assert capsys.readouterr().out == "variant with 4 tables\n"
    assert "a variant for this test" in _help(capsys, "bench", "load")


def test_bare_bazaarbot_prints_the_help_and_starts_nothing(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "bazaarbot.cli"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert run.returncode == 2
    assert "usage: bazaarbot" in run.stdout and "console" in run.stdout and "bench" in run.stdout
    assert list(tmp_path.iterdir()) == [], "no bazaarbot.sqlite, no server"
