"""A channel's table: lobby and seats, the running game, the views (one module each)."""

from bazaarbot.table.seats import Actor, Seat
from bazaarbot.table.table import Table

__all__ = ["Actor", "Seat", "Table"]
