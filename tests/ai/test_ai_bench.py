"""``bazaarbot bench ai``: the summary line, the Wilson interval, and the command line.

The command lines run as processes forked from one that imported the package once
(``support.clifork``). The sweep's reference searches 2 x 50 iterations here and the review
takes half a CPU second: the figures' strength is for ``bazaarbot bench ai``, not for this test.
"""

from __future__ import annotations

import re

import pytest
from support.ai_helpers import SMALL_LEVELS
from support.clifork import CliForks
from support.paths import REPO_ROOT

from bazaarbot.bench import ai as bench

#: one worker runs every module that forks commands, so one process imports the package
pytestmark = pytest.mark.xdist_group("bazaarbot-forks")

ROOT = REPO_ROOT
LAST_LINE = re.compile(
    r"^win rate \d+\.\d% \(95% CI \d+\.\d-\d+\.\d%\) over \d+ games; "
    r"mean \d+\.\d+ s/move, max \d+\.\d+ s/move$"
)


def test_wilson_interval_matches_known_values():
    low, high = bench.wilson(8, 10)
    assert abs(low - 0.4902) < 1e-3 and abs(high - 0.9433) < 1e-3
    assert bench.wilson(0, 0) == (0.0, 1.0)
    low, high = bench.wilson(10, 10)
    assert abs(high - 1.0) < 1e-9 and 0.72 < low < 0.73


def test_bench_prints_each_game_and_the_summary_last():
    lines: list[str] = []
    result = bench.run(
        "bazaar", level="medium", vs="random", games=2, players=3, levels=SMALL_LEVELS, say=lines.append
    )
    assert result.games == 2 and len(result.times) > 0
    assert lines[0].startswith("game 1: medium in seat 1 ")
    assert lines[1].startswith("game 2: medium in seat 2 "), "seats rotate"
    assert lines[-2] == "expected share 1/3 = 33.3%"
    assert LAST_LINE.match(lines[-1]), lines[-1]


def test_bench_ai_command_line(bazaarbot_forks: CliForks, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[ai.levels.easy]\nmistakes = 0.5\n")
    run = bazaarbot_forks.run(
        *("bench", "ai", "jaipur", "--level", "easy", "--vs", "random"),
        *("--games", "1", "--seed", "3", "-c", str(config)),
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert LAST_LINE.match(last), last
    assert "over 1 games" in last


def test_bench_ai_refuses_an_unknown_level(bazaarbot_forks: CliForks):
    run = bazaarbot_forks.run("bench", "ai", "jaipur", "--level", "grandmaster", timeout=60)
    assert run.returncode == 2 and "no AI level 'grandmaster'" in run.stderr


def test_bench_cost_prints_cpu_per_ai_turn_move_and_decision_for_each_table_size():
    from bazaarbot.bench import ai_cost

    lines: list[str] = []
    costs = ai_cost.run("yspahan", "medium", [2, 3], 1, 4, SMALL_LEVELS, lines.append)
    assert sorted(costs) == [2, 3] and len(lines) == 6
    assert re.match(
        r"^\d+\.\d{3} s CPU/AI turn \(yspahan, 2 players, medium, 1 games; over \d+ turns", lines[0]
    )
    assert re.match(r"^\d+\.\d{3} s CPU/AI move \(yspahan, 2 players", lines[1])
    assert re.match(r"^\d+\.\d{3} s CPU/decision \(yspahan, 2 players", lines[2])
    assert "3 players" in lines[3]
    cost = costs[3]
    assert len(cost.moves) >= len(cost.decisions) > 0 and len(cost.turns) > 0
    assert abs(sum(cost.turns) - sum(cost.moves)) < 1e-6, "a turn's cost is its moves' cost"


def test_bench_review_prints_the_cpu_of_a_background_review():
    from bazaarbot.bench import ai_review

    lines: list[str] = []
    spent = ai_review.run("jaipur", [2], 1, 2, SMALL_LEVELS, lines.append, cpu_seconds=0.5)
    assert len(spent[2]) == 1
    assert re.match(r"^\d+\.\d\d s CPU/review \(jaipur, 2 players, budget 0\.5 s; ", lines[0]), lines[0]


@pytest.mark.parametrize(
    ("vs", "as_bot"),
    [("previous", False), ("afresh", True)],
    ids=["the previous search", "as the bot plays, against later decisions searched afresh"],
)
def test_a_level_plays_paired_games_against_an_earlier_hard_with_the_level_in_each_seat(vs, as_bot):
    lines: list[str] = []
    result = bench.run(
        "yspahan",
        level="medium",
        vs=vs,
        games=2,
        players=2,
        levels=SMALL_LEVELS,
        say=lines.append,
        paired=True,
        as_bot=as_bot,
    )
    assert result.games == 2 and result.times
    assert lines[0].startswith("game 1: medium in seat 1 ") and lines[1].startswith(
        "game 2: medium in seat 2 "
    )
    assert LAST_LINE.match(lines[-1]), lines


def test_bench_ponder_prints_the_wait_after_a_persons_move_without_and_with_pondering():
    from bazaarbot.bench import ai_ponder

    lines: list[str] = []
    figures = ai_ponder.run(
        ai_ponder.PonderTable("jaipur", "medium", 2, 2, 0.0, 3, SMALL_LEVELS), lines.append
    )
    assert len(figures[False]) == len(figures[True]) == 2 and len(lines) == 2
    assert re.match(r"^\d+\.\d{3} s median from the person's move to the AI's \(without ", lines[0])
    assert re.search(r"\(with pondering; .* over 2 moves, answer ready \d of 2 times\)$", lines[1]), lines[1]


def test_a_sweeps_regret_is_the_reference_worth_lost_by_each_pick():
    from bazaarbot.bench.ai_sweep import regret_of

    worths = {"sell": 0.6, "take": 0.5, "camels": 0.2}
    figures = regret_of([(worths, "sell"), (worths, "take"), (worths, "never tried")])
    assert figures.picks == 3
    assert abs(figures.regret - (0.0 + 0.1 + 0.4) / 3) < 1e-9, "an untried pick is worth the worst tried"
    assert abs(figures.agreement - 1 / 3) < 1e-9


def test_a_sweep_lists_the_previous_search_first_and_refuses_a_negative_constant():
    from bazaarbot.bench.ai_sweep import searchers_named

    assert searchers_named("0.7,1.4") == ["previous", 0.7, 1.4]
    with pytest.raises(ValueError):
        searchers_named("1.0,-1")


def test_bench_sweep_prints_each_searchers_regret_on_the_same_positions():
    from bazaarbot.bench import ai_sweep

    lines: list[str] = []
    sweep = ai_sweep.Sweep(
        "jaipur", "hard", 1, 4, SMALL_LEVELS, reference_iterations=50, seeds_per_position=1
    )
    judged = ai_sweep.run(sweep, ["previous", 0.5, 2.0], lines.append, workers=1)
    found = int(lines[0].split()[0])
    assert found > 0 and lines[0].endswith("reference 2 x 50 iterations"), lines[0]
    assert [line.split(":")[0] for line in lines[1:]] == ["previous", "exploration 0.5", "exploration 2"]
    for figures in judged.values():
        assert figures.picks == found and figures.regret >= 0 and 0 <= figures.agreement <= 1
    assert re.match(
        r"^exploration 2: regret \d\.\d{4}, agrees with the reference \d+\.\d% \(\d+ picks\)$", lines[3]
    )


def test_bench_sweep_refuses_a_level_without_search_and_a_constant_that_is_no_number(
    bazaarbot_forks: CliForks,
):
    easy = bazaarbot_forks.run("bench", "ai", "jaipur", "--sweep", "1.0", "--level", "easy", timeout=60)
    assert easy.returncode == 2 and "--sweep judges a search level, not 'easy'" in easy.stderr
    word = bazaarbot_forks.run("bench", "ai", "jaipur", "--sweep", "1.0,high", timeout=60)
    assert word.returncode == 2 and "--sweep takes exploration constants" in word.stderr
