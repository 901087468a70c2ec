"""After-commit work: every ``snapshot_every`` moves (and at shutdown) a game's state joins the writes.

A restart then loads the snapshot and replays only the moves after it.
"""

from __future__ import annotations

from bazaarbot.pipeline.events import Change
from bazaarbot.store import Store
from bazaarbot.table import Table


class Snapshots:
    """Where each running game was last snapshotted, and the snapshots that are due."""

    def __init__(self, store: Store, every: int) -> None:
        self.store = store
        #: 0: only at shutdown
        self.every = every
        #: table -> (game id, moves made) at its latest snapshot
        self.taken: dict[Table, tuple[int, int]] = {}

    def restored(self, table: Table, game_id: int, moves: int) -> None:
        """A game restored from a snapshot after ``moves`` moves (0: replayed from its seed)."""
        self.taken[table] = (game_id, moves)

    def table_changed(self, table: Table, how: Change) -> None:
        """Subscribed to table-changed: due snapshots join a closing unit; a reloaded table starts over."""
        if how is Change.UNIT:
            self.take(table)
        elif how is Change.RELOADED:
            self.taken.pop(table, None)

    def take(self, table: Table, force: bool = False) -> None:
        """Add the table's game to the unit's writes when a snapshot is due (``force``: whenever it moved)."""
        if not table.running or table.game_id is None:
            self.taken.pop(table, None)
            return
        game_id, at = self.taken.get(table, (table.game_id, 0))
        if game_id != table.game_id:
            at = 0
        due = table.moves_made - at >= self.every if self.every > 0 else False
        # a step that may still be undone is not snapshotted: its undo must find it in the replayed tail
        if table.undo_point is not None:
            due = force = False
        if due or (force and table.moves_made > at):
            plugin = table.plugin
            self.store.save_snapshot(
                table.game_id, table.moves_made, plugin.rules_version, plugin.to_json(table.state)
            )
            at = table.moves_made
        self.taken[table] = (table.game_id, at)

    def take_all(self, tables: list[Table]) -> None:
        """Shutdown: snapshot every running game that moved since its last snapshot, and commit."""
        self.store.begin()
        try:
            for table in tables:
                self.take(table, force=True)
        finally:
            self.store.end()
        self.store.commit_now()
