"""One AI turn, one channel line, on every network.

An AI's turn may take several decisions (Yspahan places cubes one at a time,
Bazaar trades before it buys); each decision is played as it comes. The
channel lines of the decisions of one turn are held until the turn ends and
then said as one line, so people read what the AI did in its turn, not each
of its steps, and every network (IRC, Matrix, the web, Discord, the console)
gets the same line. A transport that must shorten a line keeps its first and
last sentences (``Say.parts``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bazaarbot.i18n import joined_text
from bazaarbot.messages import Outgoing, Say


@dataclass
class OpenAiTurn:
    """The AI turn being played at a table: whose, and the channel lines of its decisions so far."""

    seat: int
    lines: list[Say] = field(default_factory=list)


def split_lines(out: list[Outgoing]) -> tuple[list[Say], list[Outgoing]]:
    """The lines telling of an AI's turn (``Say.ai_turn``), and everything else, each in order."""
    turn = [m for m in out if isinstance(m, Say) and m.ai_turn]
    rest = [m for m in out if not (isinstance(m, Say) and m.ai_turn)]
    return turn, rest


def one_line(lines: list[Say]) -> list[Say]:
    """The lines of one AI turn as one line (none when it said nothing); it alerts whom any of them did."""
    if len(lines) <= 1:
        return list(lines)
    parts = tuple(part for line in lines for part in (line.parts or (line.text,)))
    mentions = tuple(dict.fromkeys(nick for line in lines for nick in line.mentions))
    # still a sentence of each language: a reader of another than the room's reads it in theirs
    return [replace(lines[-1], text=joined_text(parts), parts=parts, mentions=mentions)]
