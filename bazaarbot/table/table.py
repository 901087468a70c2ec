"""One channel's table, composed of its parts: the lobby and seats, the running game, AI seats,
presence, the turn clock, seat claims and the views.

A table turns a command or a move into the messages to send. It asks the
plugin to parse and apply a move and writes the accepted command to the
store before it returns anything, so nothing is said about a move that is
not on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bazaarbot.messages import Outgoing
from bazaarbot.table.ai_seats import AiSeats
from bazaarbot.table.claims import SeatClaims
from bazaarbot.table.clock import Clock
from bazaarbot.table.core import TableCore
from bazaarbot.table.forward import Forward
from bazaarbot.table.game import RunningGame
from bazaarbot.table.lobby import Lobby
from bazaarbot.table.presence import Presence
from bazaarbot.table.seats import Actor
from bazaarbot.table.views import Views


class Table:
    """The lobby and game of one (network, channel), each concern a part of its own.

    ``core`` holds the record (seats, host, options, the game's seats, settings) and how the
    table speaks; ``game`` the running game, its undo and replay; ``ai`` the AI seats;
    ``presence`` who is here; ``clock`` the turn clock; ``lobby`` sitting down and getting up;
    ``claims`` a seat following its person; ``views`` the read-only answers. The table answers
    what a part asks of one made after it (``ports``), and forwards the names its callers use.
    """

    def __init__(self, *record: Any, **named: Any) -> None:
        """``record``, ``named``: what the table's record is made of (``TableCore``: the store, the
        games, the row id, network, channel, game, then what the store kept and the defaults)."""
        self.core = TableCore(*record, **named)
        #: called with the table when its game moved or changed hands (the hub looks for AI decisions)
        self.on_change: Callable[[Table], None] | None = None
        self.core.changed = self.notify
        self.game = RunningGame(self.core, self)
        self.presence = Presence(self.core, self.game, self)
        self.ai = AiSeats(self.core, self.game, self.presence)
        self.clock = Clock(self.core, self.game, self.presence, self.ai)
        self.claims = SeatClaims(self.core, self.game, self.ai)
        self.lobby = Lobby(self.core, self.game, self.presence, self.ai, self.clock, self.claims)
        self.views = Views(self.core, self.game, self.presence)

    def notify(self) -> None:
        """Tell whoever watches this table that its game moved or changed hands."""
        if self.on_change is not None:
            self.on_change(self)

    # --- what the parts ask of each other (``ports``) -------------------------------------------
    def take_back(self, index: int, actor: Actor) -> list[Outgoing]:
        return self.ai.take_back(index, actor)

    def game_began(self) -> None:
        """What every game starts without: offline or idle marks, timeouts, reset requests, an AI turn."""
        self.presence.clear()
        self.clock.timeouts = {}
        self.lobby.reset_requests = {}
        self.ai.ai_turn = None

    def game_ended(self) -> None:
        """What an ended game leaves behind is cleared as at a start, and its clock is stopped."""
        self.game_began()
        self.clock.stop()

    def next_tick(self, abandon_after: float) -> float | None:
        """When the turn clock's tick next has something to do here, as the table stands (None: not
        before it changes); ``abandon_after``: how long a paused game waits before it is abandoned."""
        times = [t for t in (self.clock.next_due(), self.presence.next_due(abandon_after)) if t is not None]
        return min(times, default=None)

    def answered(self, seat: int) -> None:
        self.clock.timeouts.pop(seat, None)

    # --- the record and how the table speaks ------------------------------------------------------
    store = Forward("core")
    games = Forward("core")
    id = Forward("core")
    network = Forward("core")
    channel = Forward("core")
    game_name = Forward("core")
    options = Forward("core")
    host = Forward("core")
    seats = Forward("core")
    colors = Forward("core")
    players = Forward("core")
    settings = Forward("core")
    plugin = Forward("core")
    wall_clock = Forward("core")
    after_game = Forward("core")
    may_remind = Forward("core")
    language_of = Forward("core")
    page_open = Forward("core")
    channel_language = Forward("core")
    reader_languages = Forward("core")
    say = Forward("core")
    tell = Forward("core")
    seat_names = Forward("core")
    seat_of = Forward("core")
    game_seat_of = Forward("core")
    host_nick = Forward("core")
    ensure_saved = Forward("core")
    save_setting = Forward("core")
    save_lobby = Forward("core")

    # --- the running game -------------------------------------------------------------------------
    state = Forward("game")
    game_id = Forward("game")
    moves_made = Forward("game")
    running = Forward("game")
    paused = Forward("game")
    undo_point = Forward("game")
    last_played = Forward("game")
    ended_game = Forward("game")
    ended_state = Forward("game")
    game_seed = Forward("game")
    game_options = Forward("game")
    moved = Forward("game")
    view_of = Forward("game")
    view_in = Forward("game")
    legal_now = Forward("game")
    typed_now = Forward("game")
    start = Forward("game")
    move = Forward("game")
    play = Forward("game")
    undo = Forward("game")

    # --- AI seats, presence, the clock ------------------------------------------------------------
    addbot = Forward("ai")
    ai_decisions = Forward("ai")
    ai_turn_seat = Forward("ai")
    play_for = Forward("ai")
    idle_since = Forward("presence")
    offline = Forward("presence")
    check_presence = Forward("presence")
    abandon_if_forgotten = Forward("presence")
    person_returned = Forward("presence")
    turn_clock = Forward("clock")
    timeouts = Forward("clock")
    clock_seconds = Forward("clock")
    set_clock = Forward("clock")
    time_left = Forward("clock")
    clock_tick = Forward("clock")
    pause_clock = Forward("clock")
    resume_clock = Forward("clock")
    takeover_level = Forward("clock")
    play_timed_out = Forward("clock")

    # --- the lobby, claims and views --------------------------------------------------------------
    reset_requests = Forward("lobby")
    new = Forward("lobby")
    join = Forward("lobby")
    leave = Forward("lobby")
    kick = Forward("lobby")
    remove = Forward("lobby")
    disconnected = Forward("lobby")
    reset = Forward("lobby")
    person_spoke = Forward("lobby")
    back = Forward("lobby")
    rename = Forward("claims")
    replace_code = Forward("claims")
    claim_seat = Forward("claims")
    status = Forward("views")
    board = Forward("views")
    hand = Forward("views")
    moves = Forward("views")
