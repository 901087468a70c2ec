"""The state every part of a table shares, and the small helpers they all use.

A table is composed of parts, each in its own module: the lobby and seats
(``lobby.py``), the running game (``game.py``) and the views (``views.py``).
They share the fields declared here.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.plugin import GamePlugin, Result
from bazaarbot.store import SeatRow, Store
from bazaarbot.table.seats import Seat
from bazaarbot.transports.base import Outgoing, Say, Tell


class TableBase:
    """The fields of one (network, channel) table and the helpers every part needs."""

    def __init__(
        self,
        store: Store,
        games: dict[str, GamePlugin],
        table_id: int | None,
        network: str,
        channel: str,
        game: str,
        options: dict[str, Any] | None = None,
        host: str = "",
        seats: list[Seat] | None = None,
        colors: bool = False,
        base_seed: int | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.id = table_id
        self.network = network
        self.channel = channel
        self.game_name = game
        self.options: dict[str, Any] = dict(options or {})
        self.host = host
        self.seats: list[Seat] = sorted(seats or [], key=lambda s: s.number)
        self.colors = colors
        self.base_seed = base_seed
        self.state: Any = None
        self.game_id: int | None = None
        self.moves_made = 0
        #: the last step that may still be taken back with /undo (see ``RunningGame.undo``)
        self.undo_point: Any = None
        #: seat index in the running game -> Seat
        self.players: list[Seat] = []
        #: why a stored game cannot go on under the installed rules (the table waits for /reset)
        self.paused: str | None = None

    @property
    def plugin(self) -> GamePlugin:
        return self.games[self.game_name]

    @property
    def running(self) -> bool:
        return self.state is not None

    def say(self, text: str) -> Say:
        return Say(self.network, self.channel, text, colors=self.colors)

    def tell(self, nick: str, text: str, listing: bool = False) -> Tell:
        return Tell(self.network, nick, text, listing=listing)

    def seat_of(self, key: str) -> Seat | None:
        return next((s for s in self.seats if s.key == key), None)

    def game_seat_of(self, key: str) -> int | None:
        return next((i for i, s in enumerate(self.players) if s.key == key), None)

    def host_nick(self) -> str:
        seat = self.seat_of(self.host)
        return seat.nick if seat else "-"

    def ensure_saved(self) -> int:
        """The table's row id, creating the row on the first change (a look is no change)."""
        if self.id is None:
            self.id = self.store.ensure_table(self.network, self.channel, self.game_name)
        return self.id

    def save_lobby(self) -> None:
        self.store.save_lobby(
            self.ensure_saved(),
            self.game_name,
            self.options,
            self.host,
            [SeatRow(s.number, s.key, s.nick) for s in self.seats],
            self.colors,
        )

    def _end_game(self, status: str, note: str, result: Result | None = None) -> list[Outgoing]:
        """End the running game (the game part implements it)."""
        raise NotImplementedError
