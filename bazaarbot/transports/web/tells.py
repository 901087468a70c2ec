"""What a private line is to the page: the answer to a line its reader just typed, a hand refresh, or news.

A refusal, a "did you mean" or the answer to a command belongs next to the
input of the room where it was typed, not in a pane shared by every room;
a hand the page already draws is no news. The answer is known exactly: the
hub sends a line's answers from within the same task that handed it the
line, so a context variable set around that call marks them (a line of
another tab, an AI move or a timer runs in a task of its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal, Protocol

from bazaarbot.commands.registry import REGISTRY

#: (nick, room, text) of the line being handled in this task, if a tab typed one
_ANSWERING: ContextVar[tuple[str, str, str] | None] = ContextVar("answering", default=None)

Kind = Literal["answer", "hand", "private"]


def _asks_for_hand(text: str) -> bool:
    """Whether a line is ``/hand`` under any of its names (``/karten``, ``!mano``, plain ``hand``):
    its answer is the hand itself, which the reader asked for, so it is an answer."""
    first = text.split(" ", 1)[0].lstrip("/!")
    spec = REGISTRY.lookup(first) if first else None
    return spec is not None and spec.name == "hand"


class _Hands(Protocol):
    def private_view(self, network: str, channel: str, key: str) -> str | None: ...


@contextmanager
def answering(nick: str, room: str, text: str) -> Iterator[None]:
    """Private lines sent to ``nick`` while this block runs answer ``text``, typed in ``room``."""
    token = _ANSWERING.set((nick, room, text))
    try:
        yield
    finally:
        _ANSWERING.reset(token)


def asked_here(room: str) -> tuple[str, str] | None:
    """(nick, text) of the command being answered in ``room`` in this task, if the line was a command."""
    current = _ANSWERING.get()
    if current is None or current[1] != room or not current[2].startswith(("/", "!")):
        return None
    return current[0], current[2]


def sort_tell(
    hub: _Hands,
    network: str,
    nick: str,
    key: str,
    text: str,
    rooms: Iterable[str],
    hand_of: str | None = None,
) -> tuple[Kind, str | None]:
    """The kind of a private line for ``nick`` and the room it belongs to (None: no single room).

    ``hand_of`` is the room whose private view the line says it is (``Tell.hand_of``); without
    it, the rooms' private views are rendered to see whether the line is one of them.
    """
    rooms = sorted(rooms)
    current = _ANSWERING.get()
    answer = current is not None and current[0].lower() == nick.lower() and current[1] in rooms
    asked_for_hand = answer and current is not None and _asks_for_hand(current[2])
    if hand_of is not None and hand_of.lower() in rooms and not asked_for_hand:
        return "hand", hand_of.lower()
    views = {room: hub.private_view(network, room, key) for room in rooms}
    hands = [room for room, view in views.items() if view is not None and view == text]
    if hands and not (answer and current is not None and _asks_for_hand(current[2])):
        return "hand", hands[0]
    if answer and current is not None:
        return "answer", current[1]
    seated = [room for room, view in views.items() if view is not None]
    return "private", seated[0] if len(seated) == 1 else None
