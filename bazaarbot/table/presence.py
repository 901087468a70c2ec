"""Pause, don't abandon: a game waits while none of its players is present, and goes on when one is back.

Chat rooms are asynchronous: people drift away and come back the next
evening. A player is *present* while a person plays their seat, they have
not timed out ``AWAY_AFTER`` times in a row, and they have not disconnected
from a correspondence game (which keeps their seat for them). With nobody
present the game pauses: the AIs stop and the clock stands still. It goes on
when a player comes back (speaks, rejoins, opens the page) or somebody sits
in. Only a game paused for ``[tables] abandon_after`` is abandoned, with a
warning a day before.
"""

from __future__ import annotations

import json

from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing
from bazaarbot.table.core import TableCore
from bazaarbot.table.durations import say_duration
from bazaarbot.table.game import RunningGame
from bazaarbot.table.ports import PresenceNeeds
from bazaarbot.table.seats import SKIPPED, Actor

#: the warning before a paused game is abandoned comes this long before (at most half the wait)
WARNING_BEFORE = 86400.0
#: a clock this long or longer is correspondence play: a disconnect keeps the player's seat for them
CORRESPONDENCE_SECONDS = 3600


class Presence:
    """Who of the game's players is here, and the pause while nobody is."""

    def __init__(self, core: TableCore, game: RunningGame, table: PresenceNeeds) -> None:
        self.core = core
        self.game = game
        self.table = table
        #: since when the running game waits for a player to come back (none present); None while it runs
        idle = core.settings.get("idle_since")
        self.idle_since: float | None = float(idle) if idle else None
        #: keys of players who disconnected from a correspondence game and keep their seat meanwhile
        self.offline: set[str] = set(json.loads(core.settings.get("offline") or "[]"))

    def set_offline(self, key: str, offline: bool) -> None:
        """Mark a player of a correspondence game offline (or back), in memory and on disk."""
        if (key in self.offline) == offline:
            return
        if offline:
            self.offline.add(key)
        else:
            self.offline.discard(key)
        self.core.save_setting("offline", json.dumps(sorted(self.offline)) if self.offline else "")

    def clear(self) -> None:
        """A game ended or starts: nobody is offline and nothing is paused for lack of players."""
        if self.offline:
            self.offline = set()
            self.core.save_setting("offline", "")
        if self.idle_since is not None or self.core.settings.get("idle_warned"):
            self.idle_since = None
            self.core.save_setting("idle_since", "")
            self.core.save_setting("idle_warned", "")

    def present_people(self) -> list[int]:
        """The game seats whose person is here to play them."""
        return [
            i
            for i, s in enumerate(self.core.players)
            if s.has_person and not s.away and s.key not in self.offline
        ]

    def check_presence(self, now: float | None = None) -> list[Outgoing]:
        """Pause the game when no player is present, go on when one is; the line that says so."""
        if not self.game.running or self.game.paused is not None:
            return []
        now = self.core.wall_clock() if now is None else now
        present = self.present_people()
        if self.idle_since is None and not present:
            self._set_idle(now)
            self.table.pause_clock(now)
            if self.core.page_open():
                paused = _(
                    "No player of {game} is here now: the game is paused (no AI moves, the clock "
                    "stands still). It goes on when a player comes back: say anything here, /join, "
                    "or open the page."
                )
            else:  # no web chat runs: there is no page to open
                paused = _(
                    "No player of {game} is here now: the game is paused (no AI moves, the clock "
                    "stands still). It goes on when a player comes back: say anything here or /join."
                )
            return [self.core.say(paused.format(game=self.core.plugin.title))]
        if self.idle_since is not None and present:
            self._set_idle(None)
            self.table.resume_clock(now)
            self.core.notify()  # the AIs may think again
            names = ", ".join(self.core.players[i].nick for i in present)
            line = _("{names} here: the game of {game} goes on.").format(
                names=names, game=self.core.plugin.title
            )
            return [self.core.say(line)]
        return []

    def _set_idle(self, since: float | None) -> None:
        self.idle_since = since
        self.core.save_setting("idle_since", "" if since is None else repr(since))
        self.core.save_setting("idle_warned", "")

    def abandon_if_forgotten(self, now: float, after: float) -> list[Outgoing]:
        """A game paused for ``after`` seconds is abandoned; the warning comes a day before (or at half)."""
        if not self.game.running or self.idle_since is None:
            return []
        waited = now - self.idle_since
        before = min(WARNING_BEFORE, after / 2)
        warned = self.core.settings.get("idle_warned")
        if warned and waited >= after and now - float(warned) >= before:
            return self.game.end_game("abandoned", _("paused for {time}").format(time=say_duration(waited)))
        if waited >= after - before and not warned:  # never without the warning, however late it comes
            self.core.save_setting("idle_warned", repr(now))
            waited = min(waited, after - before)
            names = ", ".join(s.nick for s in self.core.players if not s.is_bot and s.ai != SKIPPED)
            return [
                self.core.say(
                    _(
                        "{names}: the paused game of {game} is abandoned in {time} unless a player "
                        "comes back."
                    ).format(names=names, game=self.core.plugin.title, time=say_duration(after - waited))
                )
            ]
        return []

    def next_due(self, after: float) -> float | None:
        """When ``abandon_if_forgotten(now, after)`` next has something to do (the warning, then the
        end), as the table stands (None: nothing before it changes: the game is not paused)."""
        if not self.game.running or self.idle_since is None:
            return None
        before = min(WARNING_BEFORE, after / 2)
        warned = self.core.settings.get("idle_warned")
        if not warned:
            return self.idle_since + after - before
        return max(self.idle_since + after, float(warned) + before)

    def person_returned(self, actor: Actor) -> list[Outgoing]:
        """A player is back (joined a channel, spoke, opened the page): present again; a paused game goes on.

        While the game is paused, the seat an AI kept for them (they left or were away) is theirs again.
        """
        key = actor.user.key
        if not self.game.running:
            return []
        self.set_offline(key, False)
        index = self.core.game_seat_of(key)
        if index is None:
            return []
        seat = self.core.players[index]
        out: list[Outgoing] = []
        if self.idle_since is not None and seat.ai is not None and seat.ai != SKIPPED and not seat.is_bot:
            out += self.table.take_back(index, actor)
        return out + self.check_presence()
