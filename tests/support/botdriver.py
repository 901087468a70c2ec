"""A test double for a network: speaks as many users and records every reply (like maubot's TestBot)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from bazaarbot.ai import DEFAULT_LEVELS, AiPool
from bazaarbot.config import AdminPolicy, AiSettings, BotSettings, RateLimit, TableSettings
from bazaarbot.hub.hub import Hub
from bazaarbot.messages import Incoming, Outgoing, Say, Tell, User
from bazaarbot.store import open_store
from bazaarbot.text.commandmark import render
from support.countgame import GAME as COUNT

NETWORK = "test"

#: AI levels with small budgets, so tests that play against an AI stay quick
TEST_LEVELS = {
    name: replace(level, iterations=min(level.iterations, 40)) for name, level in DEFAULT_LEVELS.items()
}


def thread_ai_pool() -> AiPool:
    """The real AI, thinking in a thread instead of a worker process (no process start-up per test)."""
    return AiPool(1, TEST_LEVELS, executor=ThreadPoolExecutor(1))


class Driver:
    """Drives a Hub synchronously through ``process`` and keeps what it answered."""

    def __init__(
        self,
        db: Path,
        games: dict | None = None,
        settings: BotSettings | None = None,
        admins: AdminPolicy | None = None,
        clock=None,
        wall_clock=None,
        tables: TableSettings | None = None,
    ) -> None:
        self.db = db
        self.games = games or {"count": COUNT}
        self.settings = settings or BotSettings(
            default_game="count", seed=7, rate_limit=RateLimit(commands=1000, per_seconds=1)
        )
        self.admins = admins or AdminPolicy(
            accounts=("root",), masks=("*!*@admin.example",), ops_are_admins=True
        )
        kwargs: dict = {"clock": clock} if clock else {}
        if wall_clock is not None:
            kwargs["wall_clock"] = wall_clock
        self.wall_clock = wall_clock
        self.tables = tables
        self.hub = Hub(
            open_store(db),
            games=self.games,
            settings=self.settings,
            admins={NETWORK: self.admins},
            ai=AiSettings(workers=1, move_delay=0.0, levels=TEST_LEVELS, review_after_game=0.0, ponder=False),
            ai_pool=thread_ai_pool(),
            tables=tables,
            **kwargs,
        )
        self.replies: list[Outgoing] = []

    def restart(self) -> Driver:
        """A new hub on the same file, as after a restart of the bot."""
        self.hub.store.close()
        return Driver(
            self.db, self.games, self.settings, self.admins, wall_clock=self.wall_clock, tables=self.tables
        )

    def line(self, nick: str, text: str, channel: str | None = "#t", **user: object) -> list[Outgoing]:
        out = self.hub.process(Incoming(NETWORK, channel, User(nick, **user), text))  # type: ignore[arg-type]
        self.replies += out
        return out

    def script(self, *lines: str) -> list[Outgoing]:
        """Each ``"nick: text"`` typed in the channel in turn; everything the bot answered."""
        out: list[Outgoing] = []
        for line in lines:
            nick, text = line.split(": ", 1)
            out += self.line(nick, text)
        return out

    def dm(self, nick: str, text: str, **user: object) -> list[Outgoing]:
        return self.line(nick, text, None, **user)

    @property
    def table(self):
        return self.hub.tables[(NETWORK, "#t")]


def said(out: list[Outgoing]) -> list[str]:
    """The public lines of a reply, as the console shows them (commands named ``/join``)."""
    return [render(m.text) for m in out if isinstance(m, Say)]


def told(out: list[Outgoing], nick: str | None = None) -> list[str]:
    """The private lines of a reply (to one nick, or to anyone), as the console shows them."""
    return [render(m.text) for m in out if isinstance(m, Tell) and (nick is None or m.nick == nick)]


def text(out: list[Outgoing]) -> str:
    return "\n".join(render(m.text) for m in out)


class Recorder:
    """A transport that keeps everything the hub sends."""

    network = NETWORK

    def __init__(self) -> None:
        self.sent: list[Outgoing] = []

    async def start(self, hub) -> None:
        hub.attach(self)

    async def stop(self) -> None:
        pass

    async def send(self, message: Outgoing) -> None:
        self.sent.append(replace(message, text=render(message.text)))  # as a transport shows it

    def channel(self) -> list[str]:
        return [m.text for m in self.sent if isinstance(m, Say)]

    def private(self, nick: str) -> list[str]:
        return [m.text for m in self.sent if isinstance(m, Tell) and m.nick == nick]


def language_bot(directory: Path, **languages: object) -> Driver:
    """A bot with every installed game (Jaipur by default) and the configured languages given, e.g.
    ``channel_languages={(NETWORK, "#t"): "de"}``; scripted players type fast."""
    from bazaarbot.registry import discover

    driver = Driver(
        directory / "bot.sqlite",
        games=discover(),
        settings=BotSettings(
            default_game="jaipur", seed=11, rate_limit=RateLimit(commands=10000, per_seconds=1)
        ),
    )
    for name, value in languages.items():
        setattr(driver.hub.languages, name, value)  # the configured languages per network and channel
    return driver
