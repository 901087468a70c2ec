"""The person to act plays by buttons: their legal moves, grouped by verb and paged by Discord's limits.

Discord allows 25 buttons a message (five rows of five). Up to ``PAGE`` moves
are shown at once as buttons labelled in the reader's words; more are grouped
by verb first (``take (12)``, ``sell (3)``), each verb's moves paged with
back and forward buttons. A button names its room, the game and how many moves
were made when it was drawn, so a press on a picker the game has moved past
plays nothing and draws the moves as they are now.

A button's ``custom_id`` (at most 100 characters): ``bb:<kind>:<channel>[:<game>:<moves>:<arg>...]``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: buttons of moves on one picker message (a fifth row stays for the way back and forth)
PAGE = 20
#: buttons per row, rows per message
ROW = 5
#: Discord's longest button label
LABEL_LIMIT = 80
#: every custom id of the bot starts so
MARK = "bb"
HAND = "hand"
MOVES = "moves"
VERB = "verb"
PLAY = "play"


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    #: ``primary`` (a move), ``secondary`` (a group or a way), ``success`` (the hand and moves buttons)
    style: str = "primary"


@dataclass(frozen=True)
class Press:
    """What a pressed button asks for."""

    kind: str
    channel_id: int
    game_id: int | None = None
    moves: int | None = None
    verb: str | None = None
    page: int = 0
    index: int | None = None


def custom_id(kind: str, channel_id: int, *rest: object) -> str:
    return ":".join([MARK, kind, str(channel_id), *(str(part) for part in rest)])


def parse(custom: str) -> Press | None:
    """The press a custom id stands for, or None when it is not one of the bot's (or malformed)."""
    parts = custom.split(":")
    if len(parts) < 3 or parts[0] != MARK or not parts[2].isdigit():
        return None
    kind, channel = parts[1], int(parts[2])
    rest = parts[3:]
    try:
        if kind in (HAND, MOVES) and not rest:
            return Press(kind, channel)
        if kind == VERB and len(rest) == 4:
            return Press(kind, channel, int(rest[0]), int(rest[1]), verb=rest[2], page=int(rest[3]))
        if kind == PLAY and len(rest) == 3:
            return Press(kind, channel, int(rest[0]), int(rest[1]), index=int(rest[2]))
    except ValueError:
        return None
    return None


def label(text: str) -> str:
    text = " ".join(str(text).split()) or "?"
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "\u2026"


def seat_buttons(channel_id: int, hand: str, moves: str) -> list[Button]:
    """The board's (and a turn line's) buttons: the reader's hand and moves, answered to them alone."""
    return [
        Button(label(hand), custom_id(HAND, channel_id), "secondary"),
        Button(label(moves), custom_id(MOVES, channel_id), "success"),
    ]


def verb_of(command: str) -> str:
    """A command's verb: its first word, as the rules spell it."""
    return command.split(" ", 1)[0]


def picker(
    channel_id: int,
    game_id: int,
    moves: int,
    commands: list[str],
    said: list[str],
    *,
    verb: str | None = None,
    page: int = 0,
    back: str = "\u2190",
    more: str = "\u2192",
) -> list[Button]:
    """The buttons for the moves ``commands`` (``said``: each in the reader's words) at one moment.

    All of them when they fit one message; else a button a verb, and a verb's moves ``PAGE`` at a time.
    """
    indexed = list(enumerate(commands))
    if verb is None and len(commands) > PAGE:
        groups: dict[str, list[int]] = {}
        for index, command in indexed:
            groups.setdefault(verb_of(command), []).append(index)
        buttons = []
        for name, members in list(groups.items())[: PAGE + ROW - 1]:
            word = verb_of(said[members[0]]) if members else name
            buttons.append(
                Button(
                    label(f"{word} ({len(members)})"),
                    custom_id(VERB, channel_id, game_id, moves, name, 0),
                    "secondary",
                )
            )
        return buttons
    chosen = indexed if verb is None else [(i, c) for i, c in indexed if verb_of(c) == verb]
    pages = max(1, -(-len(chosen) // PAGE))
    page = min(max(page, 0), pages - 1)
    shown = chosen[page * PAGE : (page + 1) * PAGE]
    buttons = [Button(label(said[i]), custom_id(PLAY, channel_id, game_id, moves, i)) for i, _ in shown]
    if verb is not None:
        if page > 0:
            buttons.append(
                Button(label(back), custom_id(VERB, channel_id, game_id, moves, verb, page - 1), "secondary")
            )
        else:
            buttons.append(Button(label(back), custom_id(MOVES, channel_id), "secondary"))
        if page + 1 < pages:
            buttons.append(
                Button(label(more), custom_id(VERB, channel_id, game_id, moves, verb, page + 1), "secondary")
            )
    return buttons
