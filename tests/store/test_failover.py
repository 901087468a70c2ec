"""Two processes on one PostgreSQL store: one serves, the other stands by and takes over after kill -9."""

# ruff: noqa: F401, F811  (pytest fixtures imported from ircserver are used as parameters)

from __future__ import annotations

import pytest
from support.failover import Failover
from support.ircserver import IrcServer, ircserver

pytestmark = pytest.mark.irc


async def _run(tmp_path, postgres_cluster, ircserver: IrcServer, kills: int, seed: int) -> Failover:
    run = Failover(tmp_path, postgres_cluster.database(), ircserver.port, seed=seed)
    try:
        await run.start()
        standby = [line for line in run.standby.lines if "standby" in line]
        assert len(standby) == 1, "the standby says so in one line"
        assert await run.healthz(run.standby) == 503 and await run.healthz(run.active) == 200
        for number in range(kills):
            await run.kill_round(run.tables[number % len(run.tables)])
        assert run.lost_moves() == 0
    finally:
        await run.close()
    return run


async def test_the_standby_takes_over_every_game_after_kill_minus_nine_with_every_answered_move(
    tmp_path, postgres_cluster, ircserver: IrcServer
) -> None:
    run = await _run(tmp_path, postgres_cluster, ircserver, kills=4, seed=5)
    kinds = {r.table for r in run.rounds}
    assert {k.split()[0] for k in kinds} == {"irc", "web"} and {k.split()[2] for k in kinds} == {
        "jaipur",
        "yspahan",
        "bazaar",
    }
    slowest = max(r.failover_seconds for r in run.rounds)
    assert slowest < 10, f"kill to the first answered move on the standby: {slowest:.1f} s"


@pytest.mark.slow
async def test_twenty_kills_across_all_games_and_both_transports_lose_no_answered_move(
    tmp_path, postgres_cluster, ircserver: IrcServer
) -> None:
    run = await _run(tmp_path, postgres_cluster, ircserver, kills=20, seed=11)
    print("failover seconds:", ", ".join(f"{r.failover_seconds:.2f}" for r in run.rounds))
    assert max(r.failover_seconds for r in run.rounds) < 10
