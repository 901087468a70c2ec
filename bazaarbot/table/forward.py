"""An attribute of a composed object that lives in one of its parts, read and written there."""

from __future__ import annotations

from operator import attrgetter
from typing import Any


class Forward:
    """``name = Forward("part")`` on a class: ``obj.name`` is ``obj.part.name``, for reading and writing.

    The composed ``Table`` keeps the names its callers have always used while each one lives
    in the part that owns it; the class body says which part that is. On its class it becomes a
    ``property`` whose getter is a C ``attrgetter``: the table's callers read these names on every
    command and view, so the forwarding costs no Python call on a read.
    """

    def __init__(self, part: str) -> None:
        self.part = part

    def __set_name__(self, owner: type, name: str) -> None:
        part = self.part

        def write(obj: object, value: Any) -> None:
            setattr(getattr(obj, part), name, value)

        setattr(owner, name, property(attrgetter(f"{part}.{name}"), write, doc=f"``{part}.{name}``"))
