"""A token bucket per user, so nobody can flood a channel through the bot."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bazaarbot.config import RateLimit

#: a user over the rate limit is told so at most once in this many seconds (never silence for long)
RATE_WARNING_INTERVAL = 5.0


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    warned_at: float | None = None


@dataclass
class RateLimiter:
    """A token bucket per user: a burst of ``commands``, refilled over ``per_seconds``."""

    limit: RateLimit
    clock: Callable[[], float] = time.monotonic
    buckets: dict[tuple[str, str], _Bucket] = field(default_factory=dict)

    #: past this many buckets, the ones refilled to the brim are dropped (memory stays bounded)
    prune_above: int = 10_000

    def allow(self, network: str, key: str) -> tuple[bool, bool]:
        """(allowed, warn): warn when a refused user was not told in the last few seconds."""
        now = self.clock()
        bucket = self.buckets.get((network, key))
        if bucket is None:
            if len(self.buckets) >= self.prune_above:
                self._prune(now)
            bucket = self.buckets[(network, key)] = _Bucket(float(self.limit.commands), now)
        rate = self.limit.commands / self.limit.per_seconds
        bucket.tokens = min(float(self.limit.commands), bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.warned_at = None
            return True, False
        warn = bucket.warned_at is None or now - bucket.warned_at >= RATE_WARNING_INTERVAL
        if warn:
            bucket.warned_at = now
        return False, warn

    def _prune(self, now: float) -> None:
        """Forget users whose bucket is full again: a new bucket for them would be the same."""
        idle = self.limit.per_seconds
        self.buckets = {k: b for k, b in self.buckets.items() if now - b.stamp < idle}
        # everybody still active: prune again only after as many new users again
        self.prune_above = max(self.prune_above, 2 * len(self.buckets))
