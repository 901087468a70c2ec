"""The seat facts a drawn table's buttons and clock follow: free seats, who plays each seat, the deadline.

The page offers "Sit down" only where a seat is free, "Add AI" with the levels
there are, "Take my seat back" while an AI plays the reader's seat, and a
countdown on the seat whose decision it is. All of it is public except the
reader's own part, and it is read from the table, never changed.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import per_language
from bazaarbot.table import Table
from bazaarbot.table.ai_names import ai_name, level_word
from bazaarbot.table.ai_seats import AI_LEVELS
from bazaarbot.table.seats import SKIPPED


def seating(table: Table) -> dict[str, Any]:
    """Free seats (a lobby's empty chairs, or a running game's seats an AI holds for a person who left),
    the AI levels, and who plays each seat of the running game."""
    if table.running:
        people = [
            {
                "nick": str(ai_name(seat.nick)),
                "bot": seat.is_bot,
                "ai": seat.ai if seat.ai != SKIPPED else None,
                "left": seat.ai == SKIPPED,
                "away": seat.away or (seat.ai is not None and not seat.is_bot),
            }
            for seat in table.players
        ]
        free = sum(1 for seat in table.players if not seat.is_bot and seat.ai is not None)
    else:
        people = []
        free = max(0, table.plugin.max_players - len(table.seats))
    return {"free": free, "levels": list(AI_LEVELS), "level_names": _level_names(), "people": people}


@per_language
def _level_names() -> dict[str, str]:
    """Each level's name as the reader reads it (the button sends the level itself)."""
    return {level: level_word(level) for level in AI_LEVELS}


def take_back(table: Table, key: str) -> str | None:
    """The command that gives ``key`` their seat back while an AI plays it (None: nothing to take back)."""
    if not table.running:
        return None
    index = table.game_seat_of(key)
    if index is None:
        return None
    seat = table.players[index]
    if seat.ai is None or seat.is_bot or seat.key != key:
        return None
    return "/back" if table.seat_of(key) is not None else "/join"


def clock(table: Table) -> dict[str, Any] | None:
    """The turn clock of the awaited decision: its deadline on the table's wall clock, with that clock's
    ``now`` so a tab can count down whatever its own clock says (None: no clock runs here)."""
    seconds = table.clock_seconds()
    if not table.running or not seconds or table.game_id is None:
        return None
    seats = [i for i in table.plugin.to_act(table.state) if table.players[i].has_person]
    if not seats:
        return None
    now = table.wall_clock()
    running = table.turn_clock
    decision = (table.game_id, table.moves_made)
    if running is not None and running.decision == decision and running.paused_left is not None:
        return {"seats": seats, "seconds": seconds, "paused": running.paused_left, "now": now}
    if running is not None and running.decision == decision and running.deadline is not None:
        deadline = running.deadline
    else:  # the clock starts it at its next tick, within a second: foreseen from this reading
        return {"seats": seats, "seconds": seconds, "deadline": now + seconds, "now": now, "foreseen": True}
    return {"seats": seats, "seconds": seconds, "deadline": deadline, "now": now}
