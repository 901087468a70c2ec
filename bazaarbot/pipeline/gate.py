"""Before any work: a line too long is refused, a user over the rate limit is slowed down."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing, Tell
from bazaarbot.pipeline.ratelimit import RateLimiter
from bazaarbot.pipeline.reading import Line


@dataclass
class Gate:
    """The line length and the per-user rate limit, for every line the bot would answer."""

    limiter: RateLimiter
    max_line: int
    #: networks whose users are not rate-limited (the local console drives many lines at once)
    unlimited_networks: frozenset[str] = frozenset()
    #: told the reason of every refusal (``too_long``, ``rate_limit``): the metrics count them
    refused: Callable[[str], None] = lambda _reason: None

    def refusal(self, line: Line) -> list[Outgoing] | None:
        """What to answer instead of doing the line (possibly nothing), or None to let it pass."""
        if len(line.text) > self.max_line:
            self.refused("too_long")
            return [
                Tell(
                    line.network,
                    line.user.nick,
                    _("That line is too long ({n} characters; the limit is {m}).").format(
                        n=len(line.text), m=self.max_line
                    ),
                )
            ]
        if line.network in self.unlimited_networks:
            return None
        allowed, warn = self.limiter.allow(line.network, line.user.key)
        if allowed:
            return None
        self.refused("rate_limit")
        if not warn:
            return []  # told a moment ago: silence until the warning interval has passed
        return [
            Tell(
                line.network,
                line.user.nick,
                _("Slow down, please: too many commands. Try again in a few seconds."),
            )
        ]
