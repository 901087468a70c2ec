"""Long private listings in pages: the first page now, the next one when the player asks (``/more``).

At one line a second a 100-line ``/moves all`` would take the bot's voice for
almost two minutes; paged, a player gets ``page_lines`` lines and a last line
saying how many are left. A new listing to the same person replaces whatever
was left of the old one. Pages are kept per folded nick and follow a nick
change; only the most recent ``limit`` people keep pages (the memory bound).
A listing belongs to the identity it was made for (``owner``): only that
identity gets its next page, and it is dropped when its reader quits.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

from bazaarbot.i18n import ngettext


@dataclass
class Pending:
    """What is left of one listing, and how to address it."""

    nick: str
    command: str
    lines: list[str]
    owner: str | None = None


@dataclass(frozen=True)
class Page:
    """Lines to send now to ``nick`` with ``command`` (PRIVMSG or NOTICE)."""

    nick: str
    command: str
    lines: list[str]
    owner: str | None = None


def more_line(count: int) -> str:
    """The last line of a page that has more after it."""
    return ngettext("({count} more line: /more)", "({count} more lines: /more)", count).format(count=count)


class Pager:
    """Remembers the unsent rest of each person's last listing."""

    def __init__(self, page_lines: int, limit: int = 1000) -> None:
        if page_lines < 1:
            raise ValueError("a page needs at least one line")
        self.page_lines = page_lines
        self.limit = limit
        self.pending: collections.OrderedDict[str, Pending] = collections.OrderedDict()

    def start(self, key: str, nick: str, command: str, lines: list[str], owner: str | None = None) -> Page:
        """A new listing for ``key``: its first page (all of it when it is short); the rest is kept."""
        self.pending.pop(key, None)
        return self._page(key, Pending(nick, command, list(lines), owner))

    def next(self, key: str, owner: str | None = None) -> Page | None:
        """The next page of ``key``'s listing for ``owner``, or None when nothing is left for them."""
        pending = self.pending.get(key)
        if pending is None or (pending.owner is not None and pending.owner != owner):
            return None
        del self.pending[key]
        return self._page(key, pending)

    def drop(self, key: str) -> None:
        """Forget ``key``'s listing (its reader quit, or the nick is gone)."""
        self.pending.pop(key, None)

    def left(self, key: str) -> int:
        """Lines of ``key``'s listing not yet handed out."""
        pending = self.pending.get(key)
        return len(pending.lines) if pending else 0

    def renamed(self, old: str, new: str, nick: str, owners: dict[str, str] | None = None) -> None:
        """The listing follows a nick change (and its owner's identity, which names the nick)."""
        pending = self.pending.pop(old, None)
        if pending is not None:
            pending.nick = nick
            if pending.owner is not None and owners:
                pending.owner = owners.get(pending.owner, pending.owner)
            self.pending[new] = pending

    def _page(self, key: str, pending: Pending) -> Page:
        lines, rest = pending.lines[: self.page_lines], pending.lines[self.page_lines :]
        if rest:
            pending.lines = rest
            self.pending[key] = pending
            while len(self.pending) > self.limit:
                self.pending.popitem(last=False)
            lines = [*lines, more_line(len(rest))]
        return Page(pending.nick, pending.command, lines, pending.owner)
