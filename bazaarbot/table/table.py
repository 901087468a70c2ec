"""One channel's table, composed of its parts: lobby and seats, the running game, AI seats, the clock, views.

A table turns a command or a move into the messages to send. It asks the
plugin to parse and apply a move and writes the accepted command to the
store before it returns anything, so nothing is said about a move that is
not on disk.
"""

from __future__ import annotations

from bazaarbot.table.game import RunningGame
from bazaarbot.table.lobby import Lobby
from bazaarbot.table.views import Views


class Table(Lobby, RunningGame, Views):
    """The lobby and game of one (network, channel)."""
