"""Persistence: the sqlite file, its schema and migrations, the write-ahead move log, backups.

Owns the store (``store``: tables, seats, games, the move log, snapshots,
results; ``Store`` and its row types are re-exported here), the writer thread
that group-commits (``writer``), the hints' and reviews' records
(``teaching``), seat claim codes (``seatcodes``), the checks on a database
file before it is opened (``dbfile``) and online backups (``backup``); the
same store on a PostgreSQL server, with the lease that lets one process at a
time serve a network (``postgres``).

May import: ``bazaarbot.text`` only. Tables are rebuilt from rows by
``bazaarbot.table.restore``, above this package.
"""

from bazaarbot.store.opening import open_store
from bazaarbot.store.store import SCHEMA_VERSION, GameRow, RunningGameRow, SeatRow, Store, TableRow

__all__ = ["SCHEMA_VERSION", "GameRow", "RunningGameRow", "SeatRow", "Store", "TableRow", "open_store"]
