""" "My games": the tables where one person sits on a network, their move first.

The same list answers ``/tables`` (IRC, web, console), is sent to the web
page when it opens, and tells a returning player where it is their move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bazaarbot.i18n import _, per_language
from bazaarbot.table import Table
from bazaarbot.table.durations import say_duration


@dataclass(frozen=True)
class TableEntry:
    """One table of a person, as they see it in their list."""

    channel: str
    game: str
    #: the game runs (else the table waits in its lobby)
    running: bool
    #: it is this person's decision now
    your_move: bool
    #: the labels of the seats whose decision is awaited
    turn: tuple[str, ...]
    #: seconds left on the awaited decision's clock (None: no clock running)
    left: float | None
    #: the game waits for its players to come back (or for an admin's /reset)
    paused: bool


def sits_at(table: Table, key: str) -> bool:
    """Whether ``key`` sits at the table: in its lobby, or holding a seat of its running game."""
    if table.seat_of(key) is not None:
        return True
    index = table.game_seat_of(key) if table.running else None
    return index is not None and not table.players[index].is_bot


def entry_of(table: Table, key: str, now: float) -> TableEntry:
    """How ``table`` looks to ``key`` at ``now``."""
    paused = table.paused is not None or table.idle_since is not None
    if not table.running:
        return TableEntry(table.channel, str(table.plugin.title), False, False, (), None, paused)
    awaited = table.plugin.to_act(table.state)
    mine = table.game_seat_of(key)
    left = table.time_left(now)
    return TableEntry(
        table.channel,
        str(table.plugin.title),
        True,
        mine is not None and mine in awaited and table.players[mine].has_person,
        tuple(table.players[i].label for i in awaited),
        left,
        paused,
    )


def entries(tables: Iterable[Table], key: str, now: float) -> list[TableEntry]:
    """The person's tables: where it is their move first, then by channel."""
    found = [entry_of(t, key, now) for t in tables if sits_at(t, key)]
    return sorted(found, key=lambda e: (not e.your_move, e.channel.lower()))


def entry_line(entry: TableEntry) -> str:
    """``#bazaar, Jaipur: your move, 4m 30s left`` and the like."""
    if not entry.running:
        state = _("waiting for /start")
    elif entry.your_move:
        state = _("your move")
    else:
        state = _("{who} to move").format(who=", ".join(entry.turn))
    if entry.paused:
        state = _("{state} (paused)").format(state=state)
    elif entry.left is not None:
        state = _("{state}, {time} left").format(state=state, time=say_duration(entry.left))
    return _("{channel}, {game}: {state}").format(channel=entry.channel, game=entry.game, state=state)


def listing(found: list[TableEntry]) -> list[str]:
    """``/tables``: one line per table, or a line saying there is none."""
    if not found:
        return [_("You sit at no table on this network. /join sits you down at this channel's.")]
    return [entry_line(e) for e in found]


def as_data(found: list[TableEntry]) -> list[dict[str, object]]:
    """The list as JSON-able data for the web page, each with its line in the current language (and
    without the time left, which the page shows counting down beside its banner's clock)."""
    return [_entry_data(e) for e in found]


@per_language
def _entry_data(e: TableEntry) -> dict[str, object]:
    """One table of the list as data: made once per language and entry (every move sends each
    player's list again, and a table seen the same way reads the same; the dict is shared)."""
    text = str(entry_line(e))
    return {
        "channel": e.channel,
        "game": e.game,
        "running": e.running,
        "your_move": e.your_move,
        "turn": list(e.turn),
        "left": None if e.left is None else round(e.left),
        "paused": e.paused,
        "text": text,
        # the line without its time left: a page counts that down itself, with its turn clock
        "line": text if e.left is None else str(entry_line(replace(e, left=None))),
    }
