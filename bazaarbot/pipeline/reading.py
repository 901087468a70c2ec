"""Stage 1: a line made safe (``sanitize``) and read as a command, a move, a near-miss or chatter.

The same reading answers a line (``Hub._line``) and tells the web page which
lines are not chat (``Hub.is_addressed``), so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bazaarbot.commands import Command, parse_command
from bazaarbot.commands.plain import PLAIN_WORD_COMMANDS, plain_command
from bazaarbot.i18n import _
from bazaarbot.messages import Incoming, Outgoing, Tell, User, evolved
from bazaarbot.table import Table
from bazaarbot.text.sanitize import sanitize
from bazaarbot.words.typos import corrected_move

__all__ = ["PLAIN_WORD_COMMANDS", "Line", "Reading", "clean", "read", "typo_hint"]


@dataclass(frozen=True)
class Line:
    """One sanitised line from a person: where it was said, by whom, and what."""

    network: str
    #: the channel, or None for a private line
    channel: str | None
    user: User
    text: str


def clean(incoming: Incoming, bot_nick: str) -> Line | None:
    """The line with control characters gone from text, nick, account and channel; None: nothing to do.

    Nothing is left of an empty line, a nick made only of control characters,
    or the bot's own words coming back.
    """
    nick = sanitize(incoming.user.nick)
    if not nick:
        return None
    user = evolved(
        incoming.user, nick=nick, account=sanitize(incoming.user.account) if incoming.user.account else None
    )
    text = sanitize(incoming.text)
    if not text or nick.lower() == bot_nick.lower():
        return None
    channel = sanitize(incoming.channel) if incoming.channel else None
    return Line(incoming.network, channel, user, text)


@dataclass(frozen=True)
class Reading:
    """What a line is: a command, or a move, or a near-miss answered with a hint; none of them: chatter."""

    command: Command | None = None
    is_move: bool = False
    hint: list[Outgoing] = field(default_factory=list)

    @property
    def chatter(self) -> bool:
        """Nothing the bot answers: never a reply, never a rate-limit count."""
        return self.command is None and not self.is_move and not self.hint


def read(line: Line, bot_nick: str, playing_table: Callable[[], Table | None]) -> Reading:
    """Read ``line``; ``playing_table`` finds where the speaker plays a running or paused game, if anywhere.

    The table is looked for only when the line is no command (a command
    looks at no table it does not act on).

    A command has a prefix or the bot's name. During their game a player's
    plain ``help``/``moves``/``hand``/``board`` is that command, and so are those
    and ``more`` in anybody's private line (``commands.plain``); words the
    game's ``is_move`` knows are a move (a verb of the game and one of its
    things); anything else a player says, in the channel or privately, is
    chatter, unless one slip keeps it from a legal move (then it gets a hint).
    A private line of somebody who plays nowhere is a move for dispatch to
    answer (it says where to play).
    """
    command = parse_command(line.text, bot_nick)
    if command is not None:
        return Reading(command)
    playing = playing_table()
    words = line.text.split()
    move_text = line.text
    if line.channel is None and words and words[0].startswith(("#", "&")):
        move_text = line.text.split(None, 1)[1] if len(words) > 1 else ""  # ``#room take spice``
    looks_like_move = playing is not None and playing.plugin.is_move(move_text[:200])
    plain = None if looks_like_move else plain_command(words, line.channel is None, playing is not None)
    if plain is not None:
        return Reading(plain)
    if looks_like_move or (line.channel is None and playing is None):
        return Reading(is_move=True)
    if playing is None or not playing.running:
        return Reading()
    return Reading(hint=typo_hint(line.network, playing, line.user, line.text))


def typo_hint(network: str, table: Table, user: User, text: str) -> list[Outgoing]:
    """``Did you mean "take spice"?`` when one slip in the first word is all that keeps it from a move."""
    seat = table.game_seat_of(user.key)
    if seat is None:
        return []
    fixed = corrected_move(table.plugin, table.state, seat, text[:200])
    if fixed is None:
        return []
    return [Tell(network, user.nick, _('Did you mean "{move}"?').format(move=fixed))]
