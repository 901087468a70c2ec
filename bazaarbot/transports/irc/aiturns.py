"""An AI's turn on one channel line: a channel's regulars read what the AI did and whose turn it is now.

A game tells an AI's turn in several lines (what it did, a turn that passed,
whose turn it is); on IRC each line costs a second of the channel's pace, so
the lines of one AI turn (``Say.ai_turn``, sent together) leave as one line,
and an AI turn whose line still waits in the queue takes the next AI turn's
words too, as long as they fit: a run of AI turns is one line while the
channel is busy. A turn that does not fit keeps its first part (what the AI
did) and its last (whose turn it is), shortened with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bazaarbot.transports.irc.fairqueue import Queued

ELLIPSIS = "\u2026"


def one_line(parts: list[str], fits: Callable[[str], bool]) -> str:
    """The parts of one AI turn as a single line that ``fits``."""
    text = " ".join(parts)
    if fits(text) or not parts:
        return text
    first, last = parts[0], parts[-1]
    if len(parts) > 1 and fits(f"{first} {ELLIPSIS} {last}"):
        return f"{first} {ELLIPSIS} {last}"
    head = first if len(parts) > 1 else ""
    tail = last if len(parts) > 1 else first
    for cut in range(len(head), -1, -1):  # the first part shorter, then the last part too
        text = f"{head[:cut]}{ELLIPSIS} {tail}" if head else tail
        if fits(text):
            return text
    for cut in range(len(tail), 0, -1):
        text = tail[:cut] + ELLIPSIS
        if fits(text):
            return text
    return ELLIPSIS


@dataclass
class WaitingTurn:
    """The line of the AI turns queued last for a channel, while nothing else was queued after it."""

    item: Queued
    text: str
