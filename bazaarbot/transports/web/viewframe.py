"""A room's table view as frames: encoded once per member, sent to each tab as what changed for it.

Every tab in a room gets a ``view`` frame when its table changes. The public
part is the same for all who read the room in one language, so each of its
top-level members is encoded once (``EncodedPublic``); each reader's own part
(``you``) is encoded once per reader. A tab gets a frame only when a member
differs from what it was sent, and nothing when only the clock's running
reading moved, which the page counts down itself. With ``SEND_PARTIAL`` the
frame holds only the members that differ and the clock (``"partial": true``),
which the page merges into the view it holds (and draws once per animation
frame, so a page that fell behind a fast game catches up at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bazaarbot.transports.web.encoding import dumps, render_marks

#: whether a tab that has the view is sent only what changed (off: a changed view goes whole)
SEND_PARTIAL = True

#: what a tab was last sent of a room that has no table (the view ``null``)
NO_TABLE = "null"

#: the clock's members that are a change worth a frame (its reading, ``now``, is not)
CLOCK_STABLE = ("seats", "seconds", "paused")


def _clock_stable(clock: object) -> str:
    """The clock as compared: who it waits for, its length, a pause, and its deadline to the second
    (a deadline set by the clock's tick differs from the one a view foresaw before it).

    A foreseen deadline (the clock has not started yet) moves with the reading, so it is no change:
    otherwise any answer that changed nothing would send a view whenever a second went by.
    """
    if not isinstance(clock, dict):
        return dumps(clock)
    deadline = clock.get("deadline")
    stable = {k: clock.get(k) for k in CLOCK_STABLE}
    started = isinstance(deadline, (int, float)) and not clock.get("foreseen")
    stable["deadline"] = round(deadline) if started else None
    return dumps(stable)


@dataclass(frozen=True)
class SentView:
    """What a tab was last sent of a room's view: each member's JSON, and the clock's stable part."""

    members: dict[str, str]
    clock: str


@dataclass
class EncodedPublic:
    """A room's public view in one language, each member encoded once for every tab that reads it."""

    view: dict[str, Any]
    #: member name -> its JSON (commands rendered as the web types them); without ``log`` and ``you``
    members: dict[str, str]
    #: the clock's stable part
    clock: str
    #: the game log entries, sent apart as a ``log`` frame
    entries: list[dict[str, Any]]

    @classmethod
    def of(cls, view: dict[str, Any]) -> EncodedPublic:
        entries = view.get("log") or []
        members = {k: render_marks(dumps(v)) for k, v in view.items() if k not in ("log", "you")}
        return cls(view, members, _clock_stable(view.get("clock")), entries)

    def frame(self, room_json: str, you: str, sent: SentView | None) -> tuple[str | None, SentView]:
        """The ``view`` frame for one reader (None: nothing they would see changed) and what it sends.

        ``you`` is the reader's own part, encoded (``encode_you``); ``sent`` what their tab has of
        this room's view.
        """
        current = {**self.members, "you": you}
        now = SentView(current, self.clock)
        if sent is None or sent.members.keys() != current.keys():
            return _view_frame(room_json, current, partial=False), now
        changed = [k for k, v in current.items() if k != "clock" and sent.members[k] != v]
        if not changed and sent.clock == self.clock:
            return None, sent
        if not SEND_PARTIAL:
            return _view_frame(room_json, current, partial=False), now
        members = {k: current[k] for k in changed}
        if "clock" in current:
            members["clock"] = current["clock"]  # a fresh reading with any change: the page counts from it
        return _view_frame(room_json, members, partial=True), now


def encode_you(you: dict[str, Any] | None) -> str:
    """A reader's own part of a view, encoded once for their tabs."""
    return render_marks(dumps(you))


def _view_frame(room_json: str, members: dict[str, str], partial: bool) -> str:
    body = ",".join(f"{dumps(k)}:{v}" for k, v in members.items())
    flag = ',"partial":true' if partial else ""
    return f'{{"t":"view","room":{room_json}{flag},"view":{{{body}}}}}'
