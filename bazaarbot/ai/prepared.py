"""Answers worked out before they were asked for, found again by the exact position they answer.

A search may know a decision's answer early: the seat's next decision in the
same turn, read from the tree it just grew (``turn.choose_turn``), or an AI's
answer to a person's likely move, thought out while the person thinks
(``ponder``). Each is filed under a key of the whole position (every field of
the plugin's ``to_json``, hidden ones included), the seat and the level, so it
is only ever used for that very position: any other position, however alike,
is searched afresh.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any


def position_key(state_json: dict[str, Any], seat: int, level: str) -> str:
    """A digest of the whole position, the seat to answer and the level answering."""
    text = json.dumps([state_json, seat, level], sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class PreparedAnswers:
    """Commands by position key, the newest ``limit`` kept; an answer is handed out once."""

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._answers: OrderedDict[str, str] = OrderedDict()

    def add(self, answers: dict[str, str]) -> None:
        for key, command in answers.items():
            self._answers[key] = command
            self._answers.move_to_end(key)
        while len(self._answers) > self.limit:
            self._answers.popitem(last=False)

    def take(self, key: str) -> str | None:
        """The answer filed for ``key``, removed; None when there is none."""
        return self._answers.pop(key, None)

    def clear(self) -> None:
        self._answers.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._answers

    def __len__(self) -> int:
        return len(self._answers)
