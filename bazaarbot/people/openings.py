"""Who is called when a table opens (``/notify on``), and how seldom: the people's list and its limit.

A person's ``/notify`` is a preference of theirs on one network (``NOTIFY``,
kept with their other preferences in the store). When somebody opens a table
in a room, those on the list who are in that room now are named in one line,
which highlights them on IRC, mentions them on Matrix and notifies their page.
A room is called at most once per ``CALL_GAP``, and so is each person, wherever
the table opened: a host who changes their mind three times calls nobody thrice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from bazaarbot.messages import User

#: the preference that puts a person on their network's list (``"on"``)
NOTIFY = "notify"
#: a room is called about an opening table at most once in this many seconds, and so is each person
CALL_GAP = 10 * 60.0


@dataclass
class OpeningCalls:
    """The ``/notify`` list of every network (read from the preferences) and when each call went out."""

    #: (network, identity, name) -> a stored preference (the hub's, reloaded in place)
    prefs: Mapping[tuple[str, str, str], str]
    #: seconds; the hub's wall clock (a fake one in tests)
    clock: Callable[[], float]
    gap: float = CALL_GAP
    #: (network, folded channel) -> when it was last called
    rooms: dict[tuple[str, str], float] = field(default_factory=dict)
    #: (network, identity) -> when they were last called
    people: dict[tuple[str, str], float] = field(default_factory=dict)

    def listed(self, network: str, key: str) -> bool:
        """Whether the identity ``key`` asked to be called when a table opens on ``network``."""
        return self.prefs.get((network, key, NOTIFY)) == "on"

    def whom(self, network: str, channel: str, present: Iterable[User], opener: str) -> list[User]:
        """Those to call now about a table opened in ``channel`` by the identity ``opener``: listed,
        present, not the opener, not called lately; each once. Calling them is noted."""
        now = self.clock()
        self._forget(now)
        room = (network, channel.lower())
        if room in self.rooms:
            return []
        chosen: dict[str, User] = {}
        for user in present:
            key = user.key
            if key == opener or key in chosen or (network, key) in self.people:
                continue
            if self.listed(network, key):
                chosen[key] = user
        if chosen:
            self.rooms[room] = now
            for key in chosen:
                self.people[(network, key)] = now
        return list(chosen.values())

    def _forget(self, now: float) -> None:
        """Drop the calls older than the gap (what is remembered stays bounded by the calls of one gap)."""
        for calls in (self.rooms, self.people):
            for name in [name for name, at in calls.items() if now - at >= self.gap]:
                del calls[name]
