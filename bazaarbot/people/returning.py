"""A player comes back: their paused games go on, and they hear where it is their move.

Presence signals come from what transports already report: a line said to
the bot (``Hub.handle``), joining a channel the bot is in or opening the web
page (``Hub.user_returned``). Reminders are limited per person across all
their tables (``REMIND_GAP``), the clock's private reminders included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bazaarbot.i18n import _, language, localized_text
from bazaarbot.messages import Outgoing, Tell
from bazaarbot.people.mygames import entries, sits_at
from bazaarbot.table import Actor, Table
from bazaarbot.table.clock import REMIND_GAP
from bazaarbot.table.durations import say_duration

#: remembered people beyond this many are pruned of those not heard from within ``REMIND_GAP``
PRUNE_AT = 10_000


class Returns:
    """When each person was last heard from and last reminded, per network."""

    def __init__(self, wall_clock: Callable[[], float]) -> None:
        self.wall_clock = wall_clock
        self.reminded: dict[tuple[str, str], float] = {}
        self.seen: dict[tuple[str, str], float] = {}

    def may_remind(self, network: str, key: str, gap: float = REMIND_GAP) -> bool:
        """True (and noted) when ``key`` had no reminder within ``gap`` seconds."""
        now = self.wall_clock()
        last = self.reminded.get((network, key))
        if last is not None and now - last < gap:
            return False
        self.reminded[(network, key)] = now
        self._prune(now)
        return True

    def _prune(self, now: float) -> None:
        for book in (self.reminded, self.seen):
            if len(book) > PRUNE_AT:
                for who in [w for w, t in book.items() if now - t >= REMIND_GAP]:
                    del book[who]

    def came_back(
        self,
        tables: Iterable[Table],
        network: str,
        actor: Actor,
        skip: str | None = None,
        joined: bool = False,
        lang: str | None = None,
    ) -> list[Outgoing]:
        """``actor`` spoke (``joined``: joined a channel or opened the page): every table of theirs learns it.

        ``skip`` is the channel whose table already heard the line. The person is
        told where it is their move when they joined, were offline, or were not
        heard from for ``REMIND_GAP`` — at most once per ``REMIND_GAP``.
        """
        key = actor.user.key
        now = self.wall_clock()
        mine = [t for t in tables if sits_at(t, key)]
        was_offline = any(key in t.offline for t in mine)
        last = self.seen.get((network, key))
        self.seen[(network, key)] = now
        out: list[Outgoing] = []
        for table in mine:
            if skip is not None and table.channel.lower() == skip.lower():
                continue
            if key in table.offline or table.idle_since is not None:  # only then is there news
                with language(table.channel_language()):
                    out += table.person_returned(actor)
        long_gone = last is not None and now - last >= REMIND_GAP
        if not (joined or was_offline or long_gone):
            return out
        elsewhere = [t for t in mine if skip is None or t.channel.lower() != skip.lower()]
        yours = [e for e in entries(elsewhere, key, now) if e.your_move]
        if not yours or not self.may_remind(network, key):
            return out
        with language(lang):
            parts = [
                _("{channel} ({game}, {time} left)").format(
                    channel=e.channel, game=e.game, time=say_duration(e.left)
                )
                if e.left is not None
                else _("{channel} ({game})").format(channel=e.channel, game=e.game)
                for e in yours
            ]
            text = _("Welcome back! Your move at {tables}. /tables lists your games.").format(
                tables=", ".join(parts)
            )
        return [*out, Tell(network, actor.user.nick, localized_text(text, lang), key=key)]
