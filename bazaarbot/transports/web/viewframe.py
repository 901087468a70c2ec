"""A room's table view as frames: the public part encoded once, each reader's part spliced in.

Every tab in a room gets a ``view`` frame when its table changes. The public
part is the same for all who read the room in one language, so it is encoded
once (``EncodedPublic``); each reader's own part (``you``) is encoded once per
reader and spliced after it. What is compared with the last frame a tab was
sent leaves out the clock's running reading, which the page counts down itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bazaarbot.transports.web.encoding import dumps, render_marks, splice


def compared(view: dict[str, Any] | None) -> str:
    """A view's public part as compared with the last one sent: the clock's reading alone is no change."""
    if view is None:
        return "null"
    clock = view.get("clock")
    if isinstance(clock, dict):
        view = {**view, "clock": {k: clock.get(k) for k in ("seats", "seconds", "paused")}}
    return dumps({k: v for k, v in view.items() if k != "you"}, sort_keys=True)


@dataclass
class EncodedPublic:
    """A room's public view in one language, encoded once for every tab that reads it."""

    view: dict[str, Any]
    #: the view's JSON up to its closing brace, without ``you`` (each tab's own part follows it)
    head: str
    #: what is compared with the last view a tab was sent
    plain: str
    #: the game log entries, sent apart as a ``log`` frame
    entries: list[dict[str, Any]]

    @classmethod
    def of(cls, view: dict[str, Any]) -> EncodedPublic:
        entries = view.get("log") or []
        shown = {k: v for k, v in view.items() if k not in ("log", "you")}
        return cls(view, render_marks(dumps(shown))[:-1], compared(shown), entries)

    def frame(self, room_json: str, you: dict[str, Any] | None) -> tuple[str, str]:
        """The ``view`` frame of one reader and what is compared for it (``you`` is theirs)."""
        mine = render_marks(dumps(you))
        return (
            splice("view", f'"room":{room_json},"view":', self.head, f',"you":{mine}}}'),
            self.plain + mine,
        )
