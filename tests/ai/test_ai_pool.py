"""``AiPool``: thinks run in worker processes, at the same time, and a cancelled think never delivers."""

from __future__ import annotations

import asyncio
import random

import pytest
from support.ai_helpers import GAMES, SMALL_LEVELS
from support.waits import wait_until

from bazaarbot.ai import AiPool, ai_seed, choose


def _position(name: str, seed: int):
    game = GAMES[name]
    state = game.setup(["a", "b"], random.Random(seed), {o.name: o.default for o in game.options})
    return game, state, game.to_act(state)[0]


@pytest.fixture
def pool():
    pool = AiPool(workers=2, levels=SMALL_LEVELS)
    yield pool
    pool.shutdown()


async def test_two_thinks_at_once_both_finish(pool):
    game_a, state_a, seat_a = _position("jaipur", 1)
    game_b, state_b, seat_b = _position("yspahan", 2)
    first = pool.think("jaipur", game_a.to_json(state_a), seat_a, "hard", ai_seed(1, 0, seat_a), key="#a")
    second = pool.think("yspahan", game_b.to_json(state_b), seat_b, "hard", ai_seed(2, 0, seat_b), key="#b")
    done_a, done_b = await asyncio.wait_for(asyncio.gather(first, second), 120)
    assert done_a in game_a.legal_commands(state_a, seat_a)
    assert done_b in game_b.legal_commands(state_b, seat_b)
    # the worker's answer is the in-process answer: the seed decides, not the process
    expected = choose("jaipur", game_a.to_json(state_a), seat_a, "hard", ai_seed(1, 0, seat_a), SMALL_LEVELS)
    assert done_a == expected
    assert not pool.thinking("#a") and not pool.thinking("#b")


async def test_the_event_loop_keeps_answering_while_the_ai_thinks(pool):
    game, state, seat = _position("jaipur", 3)
    think = asyncio.ensure_future(pool.think("jaipur", game.to_json(state), seat, "hard", 5, key="#t"))
    ticks = 0
    while not think.done():
        await asyncio.sleep(0.001)
        ticks += 1
    assert ticks > 0
    assert think.result() in game.legal_commands(state, seat)


async def test_a_cancelled_think_never_delivers(pool):
    game, state, seat = _position("jaipur", 4)
    data = game.to_json(state)
    delivered = []

    async def table_turn() -> None:
        delivered.append(await pool.think("jaipur", data, seat, "hard", 6, key="#c"))

    task = asyncio.ensure_future(table_turn())
    await wait_until(lambda: pool.thinking("#c"), what="the table's turn to start thinking")
    assert pool.thinking("#c")
    assert pool.cancel("#c") == 1
    with pytest.raises(asyncio.CancelledError):
        await task
    # the worker may still finish its search; the answer goes nowhere
    after = await pool.think("jaipur", data, seat, "hard", 6, key="#c")
    assert after in game.legal_commands(state, seat)
    assert delivered == []
    assert pool.cancel("#nothing") == 0


async def test_a_shut_down_pool_refuses_new_thinks():
    pool = AiPool(workers=1, levels=SMALL_LEVELS)
    game, state, seat = _position("bazaar", 5)
    pool.shutdown()
    with pytest.raises(RuntimeError):
        await pool.think("bazaar", game.to_json(state), seat, "easy", 1)


async def test_a_pool_needs_a_worker_and_a_known_level():
    with pytest.raises(ValueError):
        AiPool(workers=0)
    pool = AiPool()
    assert pool.workers >= 1
    with pytest.raises(KeyError):
        await pool.think("jaipur", {}, 0, "grandmaster", 1)
    pool.shutdown()
