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
