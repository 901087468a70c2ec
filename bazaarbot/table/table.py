"""One channel's table: lobby and seats, the clock, presence, the running game, AI seats, views.

A table turns a command or a move into the messages to send. It asks the
plugin to parse and apply a move and writes the accepted command to the
store before it returns anything, so nothing is said about a move that is
not on disk.
"""

from __future__ import annotations

from bazaarbot.table.lobby import Lobby


class Table(Lobby):
    """The lobby and game of one (network, channel).

    Its concerns stand in one line, each module adding one on the one below:
    ``base`` (seats, store, telling) < ``views`` (status, board, hand, moves)
    < ``ai_seats`` < ``game`` (start, moves, undo, the end) < ``presence``
    (who is here, pauses) < ``clock`` (the turn clock) < ``lobby`` (new, join,
    leave, kick, reset, back, claims).
    """
