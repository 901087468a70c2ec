"""Private lines belong to their reader: they follow a nick change and go when the reader goes.

A nick is only a name that anybody may take once it is free. So what is still
queued or paged for a nick leaves with its reader: on QUIT (or a part from the
last channel the bot shares with them, or a 401 "no such nick") it is dropped,
so the next holder of the nick gets none of it and nobody else waits behind
lines nobody will read; on NICK it moves to the new nick with its owner, so
whoever takes the old nick gets nothing. Each line is checked again against
its owner when it leaves (``SendQueue.may_send``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bazaarbot.messages import User
from bazaarbot.transports.irc.fairqueue import FairQueue
from bazaarbot.transports.irc.pager import Pager
from bazaarbot.transports.irc.sendqueue import SendQueue

log = logging.getLogger(__name__)


def forget_reader(queue: SendQueue, pager: Pager, folded: str) -> int:
    """Drop the queued lines and the unsent pages for ``folded``; how many lines were dropped."""
    pager.drop(folded)
    gone = queue.drop_target(folded)
    if gone:
        log.info("dropped %d queued private lines: their reader is gone", gone)
    return gone


def follow_rename(waiting: FairQueue, pager: Pager, before: User, after: User, old: str, new: str) -> None:
    """Queued lines and pages for ``before`` move to ``after``'s nick and identity."""
    owners = {before.key: after.key}  # a new nick, or the same nick logged in or with a new cloak
    waiting.rename(old, new, _readdress(before.nick, after.nick), owners)
    pager.renamed(old, new, after.nick, owners)


def _readdress(old_nick: str, new_nick: str) -> Callable[[str], str]:
    """A line addressed to ``old_nick`` (``PRIVMSG old :...``) addressed to ``new_nick`` instead."""

    def rewrite(line: str) -> str:
        command, _space, rest = line.partition(" ")
        target, sep, text = rest.partition(" :")
        if target.lower() != old_nick.lower() or not sep:
            return line
        return f"{command} {new_nick} :{text}"

    return rewrite
