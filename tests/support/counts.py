"""A check shared by the games' text tests: counts in player-facing text agree with their nouns."""

from __future__ import annotations

import re

#: nouns that name counted things in the three games
_NOUNS = (
    "camel|card|point|cube|space|stone|good|token|player|die|building|row|field|combination|"
    "move|turn|seal|round|time|rupee"
)
#: "1 cards" (a plural after exactly one) and "0 card", "2 camel" (a singular after any other count)
_ONE_PLURAL = re.compile(rf"(?<![\d.,/+-])\b1 (?:{_NOUNS})s\b")
_OTHER_SINGULAR = re.compile(rf"(?<![\d.,/+-])\b(?:0|[2-9]|\d\d+) (?:{_NOUNS})\b(?!s)")
#: "(1. building" style ordinals that read badly in chat
_ORDINAL = re.compile(r"\(\d+\. ")


def count_problems(text: str) -> list[str]:
    """Every place in ``text`` where a number and its noun disagree."""
    found = [m.group(0) for m in _ONE_PLURAL.finditer(text)]
    found += [m.group(0) for m in _OTHER_SINGULAR.finditer(text) if not m.group(0).endswith(" die")]
    found += [m.group(0) for m in _ORDINAL.finditer(text)]
    return found
