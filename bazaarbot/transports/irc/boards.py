"""A channel's board in the send queue: state, not history.

A board waits in the queue like any bulk line, but it shows the table as it
was when it was drawn. ``Board`` remembers the hub's ``board_version`` of that
moment; the queue asks it before each of its lines leaves, and when the table
has changed meanwhile its waiting lines are replaced by the same lines of the
board as it is now (the lines already sent are not repeated; nothing is sent
when no game runs any more). No line that is already stale leaves the bot.
"""

from __future__ import annotations

from collections.abc import Callable

from bazaarbot.transports.base import HubPort


class Board:
    """One drawing of a channel's board waiting to be sent (``fairqueue.Shows``)."""

    def __init__(self, hub: HubPort, network: str, channel: str, draw: Callable[[str], list[str]]) -> None:
        self.hub = hub
        self.network = network
        self.channel = channel
        #: the board's text -> the IRC lines that show it in this channel
        self.draw = draw
        self.version = hub.board_version(network, channel)
        #: the lines of the latest drawing (those of it not sent yet wait in the queue)
        self.lines: list[str] = []

    def drawn(self, text: str) -> list[str]:
        """The lines that show ``text``, the board as it is now; remembered as this drawing."""
        self.lines = self.draw(text)
        return self.lines

    def stale(self) -> bool:
        return self.hub.board_version(self.network, self.channel) != self.version

    def redraw(self, waiting: int) -> list[str]:
        """The rest of the board as it is now, from the first line of the drawing not sent yet."""
        sent = max(0, len(self.lines) - waiting)
        self.version = self.hub.board_version(self.network, self.channel)
        text = self.hub.public_board(self.network, self.channel)
        return self.drawn(text)[sent:] if text else []
