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


def test_bench_load_refuses_an_unknown_game_and_says_bots_are_not_there_yet(capsys):
    assert main(["bench", "load", "--game", "chess", "--seconds", "0.1"]) == 2
    assert "no game 'chess'" in capsys.readouterr().err
    assert main(["bench", "load", "--bots", "--seconds", "0.1"]) == 2
    assert "no AI seats" in capsys.readouterr().err
