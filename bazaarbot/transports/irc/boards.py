"""A channel's board in the send queue: state, not history.

A board waits in the queue like any bulk line, but it shows the table as it
was when it was drawn. ``Board`` remembers the hub's ``board_version`` of that
moment; the queue asks it before each of its lines leaves, and when the table
has changed meanwhile its waiting lines are replaced by the board as it is now
(or dropped when no game runs any more). No line that is already stale leaves
the bot.
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

    def stale(self) -> bool:
        return self.hub.board_version(self.network, self.channel) != self.version

    def redraw(self) -> list[str]:
        self.version = self.hub.board_version(self.network, self.channel)
        text = self.hub.public_board(self.network, self.channel)
        return self.draw(text) if text else []
