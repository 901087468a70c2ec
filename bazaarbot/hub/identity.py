"""Identity events from transports: a nick change, a part or quit with its grace, a return, ``/claim``.

The hub holds one ``IdentityEvents`` and hands it the events its transports
report; each event's table changes run as one unit through the hub's
``run_and_send`` like a line's.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bazaarbot.config import BotSettings
from bazaarbot.i18n import _, language
from bazaarbot.messages import Outgoing, Tell, User
from bazaarbot.people.leaves import PendingLeaves
from bazaarbot.people.returning import Returns
from bazaarbot.people.seat_index import SeatIndex
from bazaarbot.pipeline.commit import Commit
from bazaarbot.ratings import Ratings
from bazaarbot.store.seatcodes import SeatCodes
from bazaarbot.table import Actor, Table
from bazaarbot.text.sanitize import sanitize


class HubActions(Protocol):
    """What identity events need of the hub: who speaks, background work, units of the store."""

    def actor(self, network: str, user: User) -> Actor: ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> Any: ...

    async def run_and_send(
        self, work: Callable[[], list[Outgoing]], network: str, nick: str | None
    ) -> None: ...

    def tables_of_person(self, network: str, key: str) -> list[Table]: ...

    def person_language(self, network: str, key: str) -> str | None: ...


@dataclass
class IdentityEvents:
    """Seats follow their people: renamed, gone after a grace period, back, or claimed with a code."""

    settings: BotSettings
    tables: dict[tuple[str, str], Table]
    index: SeatIndex
    leaves: PendingLeaves
    codes: SeatCodes
    commit: Commit
    ratings: Ratings
    returns: Returns
    hub: HubActions

    def claim_seat(
        self, network: str, user: User, args: tuple[str, ...], public: bool = False
    ) -> list[Outgoing]:
        """``/claim CODE``: the one-time code told at /join moves a seat to its owner's new address.

        A code said in a channel (``public``) is everybody's: if it still works after this claim,
        it is replaced at once and its owner told the new one privately."""
        if len(args) != 1:
            return [Tell(network, user.nick, _("Use /claim <code>, the code I told you when you sat down."))]
        owner = self.codes.owner(network, args[0])
        table = self.tables.get((network, owner[0])) if owner else None
        if table is None:
            return [Tell(network, user.nick, _("That code is not valid here (each code works once)."))]
        out, old_key = table.claim_seat(self.hub.actor(network, user), args[0])
        if old_key is not None:
            self.leaves.cancel(network, old_key)
        if public:
            out += self._replace_public_code(network, user, args[0])
        return out

    def _replace_public_code(self, network: str, user: User, code: str) -> list[Outgoing]:
        """A seat code said in a channel: still valid, it is replaced and its owner told privately;
        used up by the claim, its claimant is told to say the next one privately."""
        owner = self.codes.owner(network, code)
        table = self.tables.get((network, owner[0])) if owner else None
        if owner is None or table is None:
            return [
                Tell(network, user.nick, _("A seat code said in a channel is public: say /claim privately."))
            ]
        return table.replace_code(owner[1])

    async def user_renamed(self, network: str, old: User, new: User) -> None:
        """A nick change: every seat bound to the old identity follows it."""

        def work() -> list[Outgoing]:
            self.rename(network, old, new)
            return []

        await self.hub.run_and_send(work, network, None)

    def _after_commit(self, records: Callable[[], object]) -> None:
        """Work on the ratings' records, done with the unit's reads (off the event loop on a server)."""
        unit = self.commit.store.writer.open
        if unit is None:
            records()
            return

        def done() -> list[Outgoing]:
            records()
            return []

        unit.reads.append(done)

    def rename(self, network: str, old: User, new: User) -> None:
        nick = sanitize(new.nick)
        if not nick:
            return
        old_key, new_key = old.key, replace(new, nick=nick).key
        self.commit.refresh_outside()
        self._after_commit(lambda: self.ratings.renamed(network, old_key, new_key))
        tables = dict.fromkeys(
            [*self.index.tables_of(network, old_key), *self.index.tables_of(network, new_key)]
        )
        for table in tables:
            self.commit.use(table).rename(old_key, new_key, nick)
            self.index.update(table)
        self.leaves.cancel(network, old_key)

    async def user_left(
        self, network: str, channel: str | None, user: User, grace: float | None = None
    ) -> None:
        """A part or quit: after ``grace`` seconds the leave path runs, unless the user comes back."""
        delay = self.settings.leave_grace if grace is None else grace
        key = user.key
        self.leaves.cancel(network, key)

        async def leave() -> None:
            await self.hub.run_and_send(lambda: self.leave_now(network, channel, key), network, None)

        if delay <= 0:
            await leave()
            return

        def fire() -> None:
            self.hub.spawn(leave())

        self.leaves.start(network, key, delay, fire)

    async def user_returned(self, network: str, user: User) -> None:
        """Back within the grace (their leave is off), or joined a channel or opened the page."""
        self.leaves.cancel(network, user.key)
        lang, actor = self.hub.person_language(network, user.key), self.hub.actor(network, user)
        await self.hub.run_and_send(
            lambda: self.returns.came_back(
                self.hub.tables_of_person(network, user.key), network, actor, None, True, lang
            ),
            network,
            None,
        )

    def leave_now(self, network: str, channel: str | None, key: str) -> list[Outgoing]:
        out: list[Outgoing] = []
        for table in self.index.tables_of(network, key):
            if channel is not None and table.channel.lower() != channel.lower():
                continue
            if table.seat_of(key) is not None:
                with language(table.channel_language()):
                    out += self.commit.use(table).disconnected(
                        key, lambda who: _("{nick} is gone.").format(nick=who)
                    )
                self.index.update(table)
        return out
