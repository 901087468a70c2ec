"""Stage 4: a line's writes as one unit of the store; its answers wait until that unit is on disk.

Anything that changes tables, a line or not (an AI's move, a clock tick, a
leave after its grace, a nick change), runs here, so its writes join a group
commit, the tables it used are known (an answer waits for their writes), and
table-changed fires for each of them as the unit closes. A line that raised
changes nothing: its writes are dropped and its tables come back from disk; when
the database refused a write made at once (a full or read-only disk), its
author hears that it could not be saved, and the log has one line, no traceback.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing, Tell
from bazaarbot.pipeline.events import Change, TableEvents
from bazaarbot.store import Store
from bazaarbot.store.writer import PREFS, Unit
from bazaarbot.table import Table
from bazaarbot.text.sanitize import sanitize

log = logging.getLogger(__name__)


def unsaved(network: str, nick: str | None) -> list[Outgoing]:
    """What the speaker hears when the commit of their line failed."""
    if not nick:
        return []
    return [
        Tell(network, sanitize(nick) or "?", _("Sorry, that could not be saved; nothing changed. Try again."))
    ]


@dataclass(eq=False)
class Commit:
    """The units of the store around the hub's work, and the tables each unit used."""

    store: Store
    #: (network, lower-case channel) -> the hub's table there, if any
    table_at: Callable[[tuple[str, str]], Table | None]
    events: TableEvents
    #: one table back from disk, as its rows say now
    reload_table: Callable[[Table], None]
    #: the preferences back from disk
    reload_prefs: Callable[[], None]
    #: the tables the work in progress used (None outside any)
    touched: dict[Table, None] | None = None
    by_id: dict[int, Table] = field(default_factory=dict)
    #: table -> how many units changed it (a transport re-renders a board only when this moves)
    changes: dict[Table, int] = field(default_factory=dict)

    def use(self, table: Table) -> Table:
        """Note that the current work uses ``table`` (its answer waits for the table's writes)."""
        if self.touched is not None:
            self.touched[table] = None
        return table

    def run(
        self, work: Callable[[], list[Outgoing]], network: str, nick: str | None
    ) -> tuple[Unit, list[Outgoing]]:
        """Run ``work`` with its writes collected in one unit of the store (queued, not yet committed)."""
        store = self.store
        self.refresh_outside()
        unit = store.begin()
        outer = self.touched
        self.touched = touched = {} if outer is None else outer
        broken = False
        try:
            messages = work()
            for table in self.written(unit):  # changed by a timer or an AI, not through a lookup
                touched.setdefault(table, None)
            if outer is None:  # a unit inside another one closes with it
                for table in touched:
                    self.events.table_changed(table, Change.UNIT)
                    store.touch_table(table.id)
        except sqlite3.Error as error:
            # a write made at once (not queued in the unit) was refused: a full or read-only disk
            log.warning("a line from %r on %s could not be saved: %s", nick, network, error)
            unit.writes.clear()
            unit.after.clear()
            store.forget_created([unit])
            broken = True
            messages = unsaved(network, nick)
        except Exception:
            log.exception("a line from %r on %s failed", nick, network)
            unit.writes.clear()
            unit.after.clear()
            store.forget_created([unit])
            broken = True
            messages = self._went_wrong(network, nick)
        finally:
            store.end()
            self.touched = outer
        if outer is not None:
            return unit, messages
        if broken:
            store.commit_now()  # what other lines queued for these tables, before reading them back
            self.reload(list(touched))
        for table in touched:
            if table.id is not None:
                self.by_id[table.id] = table
            if unit.writes:
                self.changes[table] = self.changes.get(table, 0) + 1
        return unit, messages

    @staticmethod
    def _went_wrong(network: str, nick: str | None) -> list[Outgoing]:
        if not nick:
            return []
        return [
            Tell(
                network,
                sanitize(nick) or "?",
                _("Sorry, something went wrong with that line; nothing changed."),
            )
        ]

    def written(self, unit: Unit) -> list[Table]:
        """The tables whose rows ``unit`` writes."""
        return self.tables_of_scopes(unit.scopes)

    def tables_of_scopes(self, scopes: set[object]) -> list[Table]:
        found = []
        for scope in scopes:
            if not (isinstance(scope, tuple) and scope[0] == "table"):
                continue
            table = self.by_id.get(scope[1])
            if table is None:
                key = self.store.table_key(scope[1])
                table = self.table_at((key[0], key[1].lower())) if key else None
                if table is not None:
                    self.by_id[scope[1]] = table
            if table is not None:
                found.append(table)
        return found

    def refresh_outside(self) -> None:
        """Tables changed outside any unit (by a test or a start-up step): table-changed for them now."""
        writer = self.store.writer
        if writer.outside:
            scopes, writer.outside = writer.outside, set()
            for table in self.tables_of_scopes(scopes):
                self.events.table_changed(table, Change.OUTSIDE)

    def failed(self, units: list[Unit]) -> None:
        """A commit did not make it: every table (and the preferences) it touched comes back from disk."""
        self.store.forget_created(units)
        tables: list[Table] = []
        for unit in units:
            if PREFS in unit.scopes:
                self.reload_prefs()
            tables += self.written(unit)
        self.reload(list(dict.fromkeys(tables)))

    def reload(self, tables: list[Table]) -> None:
        for table in tables:
            old_id = table.id
            self.reload_table(table)
            if old_id is not None and table.id is None:
                self.by_id.pop(old_id, None)
            self.changes[table] = self.changes.get(table, 0) + 1
            self.events.table_changed(table, Change.RELOADED)
