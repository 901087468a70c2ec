"""A test double for a network: speaks as many users and records every reply (like maubot's TestBot)."""

from __future__ import annotations

from pathlib import Path

from countgame import GAME as COUNT

from bazaarbot.config import AdminPolicy, BotSettings, RateLimit
from bazaarbot.hub import Hub
from bazaarbot.store import Store
from bazaarbot.transports.base import Incoming, Outgoing, Say, Tell, User

NETWORK = "test"


class Driver:
    """Drives a Hub synchronously through ``process`` and keeps what it answered."""

    def __init__(
        self,
        db: Path,
        games: dict | None = None,
        settings: BotSettings | None = None,
        admins: AdminPolicy | None = None,
        clock=None,
    ) -> None:
        self.db = db
        self.games = games or {"count": COUNT}
        self.settings = settings or BotSettings(
            default_game="count", seed=7, rate_limit=RateLimit(commands=1000, per_seconds=1)
        )
        self.admins = admins or AdminPolicy(
            accounts=("root",), masks=("*!*@admin.example",), ops_are_admins=True
        )
        kwargs = {"clock": clock} if clock else {}
        self.hub = Hub(
            Store(db), games=self.games, settings=self.settings, admins={NETWORK: self.admins}, **kwargs
        )
        self.replies: list[Outgoing] = []

    def restart(self) -> Driver:
        """A new hub on the same file, as after a restart of the bot."""
        self.hub.store.close()
        return Driver(self.db, self.games, self.settings, self.admins)

    def line(self, nick: str, text: str, channel: str | None = "#t", **user: object) -> list[Outgoing]:
        out = self.hub.process(Incoming(NETWORK, channel, User(nick, **user), text))  # type: ignore[arg-type]
        self.replies += out
        return out

    def dm(self, nick: str, text: str, **user: object) -> list[Outgoing]:
        return self.line(nick, text, None, **user)

    @property
    def table(self):
        return self.hub.tables[(NETWORK, "#t")]


def said(out: list[Outgoing]) -> list[str]:
    """The public lines of a reply."""
    return [m.text for m in out if isinstance(m, Say)]


def told(out: list[Outgoing], nick: str | None = None) -> list[str]:
    """The private lines of a reply (to one nick, or to anyone)."""
    return [m.text for m in out if isinstance(m, Tell) and (nick is None or m.nick == nick)]


def text(out: list[Outgoing]) -> str:
    return "\n".join(m.text for m in out)
