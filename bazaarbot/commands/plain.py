"""Command names said without a prefix: the few words that mean their command where nothing else fits.

In an IRC query window a leading ``/`` is the client's own and ``!`` is no
habit, so in a private line to the bot ``more``, ``hand``, ``board``, ``moves``
and ``help`` mean the command of that name, and ``claim CODE`` claims a seat.
During a game a seated player may say all of them but ``more`` plainly in the channel too (``more`` is chatter
there). A word the game takes as a move is always a move.
"""

from __future__ import annotations

from bazaarbot.commands.local_names import LOCAL_NAMES, PLAIN_WORDS_IN_LANGUAGES
from bazaarbot.commands.parse import Command

#: words a seated player may say plainly during their game, meaning the command of that name
#: (in German and Spanish too: the command's alias in the language)
PLAIN_WORD_COMMANDS = frozenset({"help", "moves", "hand", "board"}) | PLAIN_WORDS_IN_LANGUAGES

#: words that mean their command in a private line to the bot, from anybody
PRIVATE_WORD_COMMANDS = PLAIN_WORD_COMMANDS | {"more"} | {names["more"] for names in LOCAL_NAMES.values()}

#: words that mean their command in a private line when followed by exactly one word: ``claim CODE``
PRIVATE_WORDS_WITH_ONE_ARGUMENT = frozenset({"claim"}) | {
    names["claim"] for names in LOCAL_NAMES.values() if "claim" in names
}


def plain_command(words: list[str], private: bool, playing: bool) -> Command | None:
    """The command a line of plain words names (not a move), or None when it is no such word."""
    if not words:
        return None
    first = words[0].lower()
    if (private and first in PRIVATE_WORD_COMMANDS) or (playing and first in PLAIN_WORD_COMMANDS):
        return Command(first, tuple(words[1:]))  # an alias (hilfe, mano) is looked up when dispatched
    if private and first in PRIVATE_WORDS_WITH_ONE_ARGUMENT and len(words) == 2:
        return Command(first, (words[1],))
    return None
