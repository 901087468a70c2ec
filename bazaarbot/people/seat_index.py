"""Who sits where, by identity: the lookups a private line needs, without a scan of every table.

The hub refreshes a table's entry after every line or event that touched the
table (join, leave, kick, rename, start, end, reload, restore), so a lookup
costs the same at 10 tables as at 10,000.
"""

from __future__ import annotations

from collections import Counter

from bazaarbot.table import Table


class SeatIndex:
    """(network, user key) -> the tables they sit at; (network, nick) -> the key seated under it."""

    def __init__(self) -> None:
        self._entries: dict[Table, tuple[str, frozenset[tuple[str, str]]]] = {}
        self._tables: dict[tuple[str, str], dict[Table, None]] = {}
        self._keys: dict[tuple[str, str], Counter[str]] = {}
        self._order: dict[Table, int] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def update(self, table: Table) -> None:
        """Bring the table's entry up to date with its seats (a few comparisons when nothing moved)."""
        network = table.network
        pairs = frozenset((s.key, s.nick.lower()) for s in (*table.seats, *table.players))
        old = self._entries.get(table)
        if old is not None and old == (network, pairs):
            return
        self._order.setdefault(table, len(self._order))
        old_pairs = old[1] if old is not None else frozenset()
        for key, nick in old_pairs - pairs:
            self._forget(network, key, nick, table, pairs)
        for key, nick in pairs - old_pairs:
            self._tables.setdefault((network, key), {})[table] = None
            self._keys.setdefault((network, nick), Counter())[key] += 1
        if pairs:
            self._entries[table] = (network, pairs)
        else:
            self._entries.pop(table, None)
            self._order.pop(table, None)

    def _forget(
        self, network: str, key: str, nick: str, table: Table, keep: frozenset[tuple[str, str]]
    ) -> None:
        if not any(k == key for k, _n in keep):
            tables = self._tables.get((network, key))
            if tables is not None:
                tables.pop(table, None)
                if not tables:
                    del self._tables[(network, key)]
        keys = self._keys.get((network, nick))
        if keys is not None:
            keys[key] -= 1
            if keys[key] <= 0:
                del keys[key]
            if not keys:
                del self._keys[(network, nick)]

    def drop(self, table: Table) -> None:
        """Forget a table altogether."""
        old = self._entries.pop(table, None)
        if old is None:
            return
        network, pairs = old
        for key, nick in pairs:
            self._forget(network, key, nick, table, frozenset())
        self._order.pop(table, None)

    def tables_of(self, network: str, key: str) -> list[Table]:
        """The tables where ``key`` has a lobby or game seat, oldest table first."""
        found = self._tables.get((network, key))
        if not found:
            return []
        return sorted(found, key=lambda t: self._order.get(t, 0))

    def key_of_nick(self, network: str, nick: str) -> str | None:
        """The identity seated under ``nick`` on ``network``, if anybody is."""
        keys = self._keys.get((network, nick.lower()))
        if not keys:
            return None
        return keys.most_common(1)[0][0]
