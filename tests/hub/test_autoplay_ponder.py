"""Pondering: while a person thinks, the AI that moves next thinks out its answers to the person's
likeliest moves; it answers from them only for the very position the person's move made."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from support.botdriver import TEST_LEVELS, Driver, Recorder
from support.clocked import GAMES, FakeClock, person_to_act, say, settle
from support.waits import wait_until

from bazaarbot.ai import AiPool, ai_seed, choose
from bazaarbot.ai.prepared import position_key
from bazaarbot.config import BotSettings, RateLimit


async def pondering_table(tmp_path) -> tuple[Driver, AiPool]:
    """A Jaipur table of ann and a ``hard`` AI, ann to move, the AI's pondering finished."""
    settings = BotSettings(
        default_game="jaipur", seed=5, rate_limit=RateLimit(commands=10_000, per_seconds=1)
    )
    bot = Driver(tmp_path / "p.sqlite", games=GAMES, settings=settings, wall_clock=FakeClock())
    pool = AiPool(1, TEST_LEVELS, executor=ThreadPoolExecutor(1), ponder_executor=ThreadPoolExecutor(1))
    bot.hub.autoplay._pool = pool
    await Recorder().start(bot.hub)
    for text in ("/new jaipur", "/addbot hard", "/start"):
        await say(bot, "ann", text)
    await settle(bot)
    await pondered(bot, pool)
    return bot, pool


async def pondered(bot: Driver, pool: AiPool) -> None:
    await wait_until(lambda: not pool.thinking((id(bot.table), "ponder")), what="the pondering to finish")


def the_persons_moves(bot: Driver) -> tuple[int, list[str], list[str]]:
    """The AI's seat, and the person's moves whose position the pondering answered and those it did not."""
    table = bot.table
    ai = 1 - person_to_act(bot)
    prepared = bot.hub.autoplay.prepared[table]
    hits, misses = [], []
    for command in table.plugin.legal_commands(table.state, person_to_act(bot)):
        key = position_key(table.plugin.to_json(after(bot, command)), ai, "hard")
        (hits if key in prepared else misses).append(command)
    return ai, hits, misses


def after(bot: Driver, command: str):
    """The position ann's ``command`` makes, played as the table plays it."""
    table = bot.table
    state = table.plugin.clone(table.state)
    person = person_to_act(bot)
    table.plugin.apply(state, person, table.plugin.parse(state, person, command))
    return state


async def test_the_ai_answers_the_position_it_pondered_without_a_search_and_as_it_would_have(tmp_path):
    bot, pool = await pondering_table(tmp_path)
    table, autoplay = bot.table, bot.hub.autoplay
    ai, hits, _misses = the_persons_moves(bot)
    assert hits, "no answer to any of the person's moves was thought out"
    position = table.plugin.to_json(after(bot, hits[0]))
    seed = ai_seed(table.game_seed, table.moves_made + 1, ai)
    expected = table.plugin.clone(after(bot, hits[0]))
    reply = choose(table.plugin, position, ai, "hard", seed, TEST_LEVELS)
    table.plugin.apply(expected, ai, table.plugin.parse(expected, ai, reply))
    searched, early = autoplay.searched, autoplay.answered_early
    await say(bot, "ann", hits[0])
    await settle(bot)
    assert autoplay.searched == searched and autoplay.answered_early == early + 1
    assert table.plugin.to_json(table.state) == table.plugin.to_json(expected), (
        "the pondered answer is choose's"
    )
    pool.shutdown()


async def test_a_move_the_ai_did_not_ponder_is_searched_afresh(tmp_path):
    bot, pool = await pondering_table(tmp_path)
    autoplay = bot.hub.autoplay
    _ai, _hits, misses = the_persons_moves(bot)
    assert misses
    searched, early = autoplay.searched, autoplay.answered_early
    await say(bot, "ann", misses[-1])
    await settle(bot)
    assert autoplay.searched == searched + 1 and autoplay.answered_early == early
    pool.shutdown()


async def test_pondering_stops_when_the_game_is_reset(tmp_path):
    bot, pool = await pondering_table(tmp_path)
    await say(bot, "root", "/reset", account="root")
    assert bot.table not in bot.hub.autoplay.prepared and bot.table not in bot.hub.autoplay.pondering
    pool.shutdown()
