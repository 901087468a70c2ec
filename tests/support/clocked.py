"""A table whose time is a fake wall clock: players seated and started, the AIs settled between steps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bazaarbot.config import BotSettings, RateLimit, TableSettings
from bazaarbot.messages import Incoming, User
from bazaarbot.registry import discover
from support.botdriver import NETWORK, Driver, Recorder

GAMES = discover()
CHANNEL = "#t"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def clocked_driver(
    db, game: str, seed: int, turn_seconds: int | None, level: str = "easy", abandon_after: float = 600
) -> tuple[Driver, FakeClock]:
    """A bot on the sqlite file ``db`` whose turn clock reads a ``FakeClock`` the test moves by hand."""
    clock = FakeClock()
    settings = BotSettings(default_game=game, seed=seed, rate_limit=RateLimit(commands=10_000, per_seconds=1))
    bot = Driver(
        db,
        games=GAMES,
        settings=settings,
        wall_clock=clock,
        tables=TableSettings(turn_seconds=turn_seconds, takeover_level=level, abandon_after=abandon_after),
    )
    return bot, clock


def default_clocked(db, game: str, seed: int) -> tuple[Driver, FakeClock]:
    """A fake-clocked bot whose tables have the configuration's defaults (clock, takeover level, abandon)."""
    defaults = TableSettings()
    return clocked_driver(
        db, game, seed, defaults.turn_seconds, defaults.takeover_level, defaults.abandon_after
    )


async def recorded(bot: Driver) -> Recorder:
    """A recorder started on ``bot``'s hub: every line the bot sends from now on."""
    recorder = Recorder()
    await recorder.start(bot.hub)
    return recorder


async def table_of(game: str, players: int, tmp_path, level: str = "easy", turn_seconds: int | None = 60):
    bot, clock = clocked_driver(tmp_path / "t.sqlite", game, 11, turn_seconds, level)
    recorder = await recorded(bot)
    names = [f"p{i + 1}" for i in range(players)]
    for name in names:
        await say(bot, name, "/join")
    await say(bot, "p1", "/start")
    return bot, recorder, clock, names


async def say(bot: Driver, nick: str, text: str, **user: object) -> None:
    await bot.hub.handle(Incoming(NETWORK, CHANNEL, User(nick, **user), text))  # type: ignore[arg-type]
    await bot.hub.idle()


def _a_person_to_act(table) -> bool:
    return any(table.players[i].has_person for i in table.plugin.to_act(table.state))


async def settle(bot: Driver, until: Callable[[Any], bool] = _a_person_to_act) -> None:
    """Let the AIs play and start the clock of whatever decision is awaited now: until the game is
    over or ``until(table)`` (by default, until a person is to act)."""
    for _ in range(500):
        await bot.hub.idle()
        await bot.hub.tick()
        await bot.hub.idle()
        table = bot.table
        if not table.running or until(table):
            return
    raise AssertionError("the AI seats did not move")


def person_to_act(bot: Driver) -> int | None:
    table = bot.table
    return next((i for i in table.plugin.to_act(table.state) if table.players[i].has_person), None)
