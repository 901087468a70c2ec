"""Private messages that bounce: notice the server's refusal and tell the player how to fix it.

Caller-ID (+g: 716/717), "registered users only" (486, 477 on some servers; ngircd's +b),
"you may not message this user" (531) or a vanished nick (401) mean a hand sent
by PRIVMSG never arrived. The server answers such a PRIVMSG with a numeric
naming the nick; when the bot sent that nick a private message moments ago, the
player hears, in the channel where they last spoke to the bot, what to change.
The advice names no private information, and it is given at most once per
``quiet`` seconds per nick.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bazaarbot.i18n import _

#: numerics that say a private message to the nick in params[1] was not delivered
FAILURES = {"401", "477", "486", "492", "493", "531", "716", "717"}


def bounced_nick(params: tuple[str, ...]) -> str:
    """The nick a refusal is about: its own parameter, or (ngircd) the last word of the text."""
    if len(params) >= 3:
        return params[1]
    words = params[-1].rstrip(".!").split() if params else []
    return words[-1] if words else ""


def advice(numeric: str, nick: str, bot: str) -> str:
    """One public line telling ``nick`` how to let the bot's private messages through."""
    if numeric in ("716", "717"):
        return _(
            "{nick}: I cannot send you private messages while caller-ID (+g) is on: "
            "type /accept {bot} (or /mode {nick} -g), then /hand."
        ).format(nick=nick, bot=bot)
    if numeric in ("477", "486"):
        return _(
            "{nick}: your settings refuse private messages from unregistered users, so your hand "
            "cannot reach you: allow them (e.g. /mode {nick} -b or -R), or /accept {bot}, then /hand."
        ).format(nick=nick, bot=bot)
    return _(
        "{nick}: my private message to you was refused by the server: allow private messages "
        "from {bot}, then type /hand."
    ).format(nick=nick, bot=bot)


class DeliveryWatch:
    """Remembers whom the bot just told something privately and where each nick last spoke to it."""

    def __init__(
        self, window: float = 60.0, quiet: float = 600.0, clock: Callable[[], float] = time.monotonic
    ):
        self.window = window
        self.quiet = quiet
        self.clock = clock
        self.told_at: dict[str, float] = {}
        self.last_channel: dict[str, str] = {}
        self.advised_at: dict[str, float] = {}

    def told(self, key: str) -> None:
        self.told_at[key] = self.clock()

    def spoke(self, key: str, channel: str) -> None:
        self.last_channel[key] = channel

    def renamed(self, old: str, new: str) -> None:
        for table in (self.told_at, self.last_channel, self.advised_at):
            if old in table:
                table[new] = table.pop(old)  # type: ignore[index]

    def bounced(self, key: str) -> str | None:
        """The channel to advise in after a refusal for ``key``, or None (not ours, or advised lately)."""
        now = self.clock()
        sent = self.told_at.get(key)
        channel = self.last_channel.get(key)
        if sent is None or channel is None or now - sent > self.window:
            return None
        if now - self.advised_at.get(key, -self.quiet - 1) < self.quiet:
            return None
        self.advised_at[key] = now
        return channel
