"""An attribute of a composed object that lives in one of its parts, read and written there."""

from __future__ import annotations

from typing import Any


class Forward:
    """``name = Forward("part")`` on a class: ``obj.name`` is ``obj.part.name``, for reading and writing.

    The composed ``Table`` keeps the names its callers have always used while each one lives
    in the part that owns it; the class body says which part that is.
    """

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(getattr(obj, self.part), self.name)

    def __set__(self, obj: object, value: Any) -> None:
        setattr(getattr(obj, self.part), self.name, value)
