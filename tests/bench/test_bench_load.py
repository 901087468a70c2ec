"""``bazaarbot bench load``: the real hub and store under many tables, every figure printed."""

from __future__ import annotations

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
        "3 running games",
        "store-free closed loop",
    ):
        assert label in out, label


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
