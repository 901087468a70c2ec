"""A channel's table, composed of its parts: lobby, running game, AI seats, presence, clock, views.

May import: ``config``, ``i18n``, ``messages``, ``plugin``, ``store``, ``text``, ``words``. It
also owns a game's steps and options (``steps``, ``options``), its log replayed from the store
(``gamelog``), a game's lines built again for readers of other languages (``readers``) and the
rebuilding of tables from the store (``restore``).
"""

from bazaarbot.table.seats import Actor, Seat
from bazaarbot.table.table import Table

__all__ = ["Actor", "Seat", "Table"]
