"""What command handlers get of the hub (``commands.CommandHost``): tables, preferences, the seat limit.

The hub holds one ``HandlerServices`` and answers the handlers' lookups through it;
handlers see only the ``CommandHost`` protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bazaarbot.config import BotSettings
from bazaarbot.delivery import PresenceTransport, Transport
from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing, Say, User
from bazaarbot.people.mygames import sits_at
from bazaarbot.people.openings import OpeningCalls
from bazaarbot.people.seat_index import SeatIndex
from bazaarbot.pipeline.commit import Commit
from bazaarbot.pipeline.permission import seat_limit
from bazaarbot.store import Store
from bazaarbot.table import Table


@dataclass
class HandlerServices:
    """Lookups and preferences for command handlers, on the hub's tables and store."""

    store: Store
    settings: BotSettings
    tables: dict[tuple[str, str], Table]
    transports: dict[str, Transport]
    prefs: dict[tuple[str, str, str], str]
    unlimited_networks: frozenset[str]
    index: SeatIndex
    commit: Commit
    #: the tables an identity sits at, each noted as used by the current line (the hub's lookup)
    seated_tables: Callable[[str, str], list[Table]]
    #: the ``/notify`` lists and when each room and person was last called
    openings: OpeningCalls

    def tables_of_person(self, network: str, key: str) -> list[Table]:
        """Every table where ``key`` sits, in the lobby or in the running game (``/tables``)."""
        self.commit.refresh_outside()
        return [self.commit.use(t) for t in self.index.tables_of(network, key) if sits_at(t, key)]

    def table_at(self, network: str, channel: str) -> Table | None:
        table = self.tables.get((network, channel.lower()))
        return self.commit.use(table) if table is not None else None

    def seated_key(self, network: str, nick: str) -> str | None:
        for (net, _c), table in self.tables.items():
            if net == network:
                for seat in [*table.seats, *table.players]:
                    if seat.nick.lower() == nick.lower():
                        return seat.key
        return None

    def set_pref(self, network: str, key: str, name: str, value: str) -> None:
        self.store.set_pref(network, key, name, value)
        self.prefs[(network, key, name)] = value

    def transport(self, network: str) -> Transport | None:
        return self.transports.get(network)

    def opening_call(self, network: str, channel: str, opener: User, game: str) -> list[Outgoing]:
        """One channel line naming those of the network's ``/notify`` list who are in ``channel`` now,
        when ``opener`` has just opened a table of ``game`` there (none while the room or they were
        called lately, or where the transport cannot say who is present)."""
        transport = self.transports.get(network)
        if not isinstance(transport, PresenceTransport):
            return []
        called = self.openings.whom(network, channel, transport.present(channel), opener.key)
        if not called:
            return []
        nicks = tuple(user.nick for user in called)
        text = _(
            "{names}: {opener} opened a table of {game} here; /join to play. (/notify off: no more calls)"
        )
        return [
            Say(
                network,
                channel,
                text.format(names=", ".join(nicks), opener=opener.nick, game=game),
                mentions=nicks,
                invites=True,
            )
        ]

    def seat_limit_refusal(self, network: str, user: User, table: Table) -> Outgoing | None:
        """A short refusal when sitting down at ``table`` would put the user at too many tables."""
        if network in self.unlimited_networks or table.seat_of(user.key) is not None:
            return None
        return seat_limit(network, user, len(self.seated_tables(network, user.key)), self.settings.max_tables)
