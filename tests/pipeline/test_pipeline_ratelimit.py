"""The rate limiter on its own, with an injected clock: a burst, a refill, one warning now and then."""

from __future__ import annotations

from bazaarbot.config import RateLimit
from bazaarbot.pipeline.ratelimit import RATE_WARNING_INTERVAL, RateLimiter


def _limiter(now: list[float], commands: int = 3, per_seconds: float = 3.0) -> RateLimiter:
    return RateLimiter(RateLimit(commands=commands, per_seconds=per_seconds), clock=lambda: now[0])


def test_a_burst_of_the_budget_passes_and_the_next_line_is_refused_with_a_warning():
    now = [0.0]
    limiter = _limiter(now)
    assert [limiter.allow("net", "alice") for _ in range(3)] == [(True, False)] * 3
    assert limiter.allow("net", "alice") == (False, True)


def test_a_refused_user_is_warned_again_only_after_the_warning_interval():
    now = [0.0]
    limiter = _limiter(now, commands=1, per_seconds=1000.0)
    limiter.allow("net", "alice")
    assert limiter.allow("net", "alice") == (False, True)
    now[0] = RATE_WARNING_INTERVAL / 2
    assert limiter.allow("net", "alice") == (False, False)
    now[0] = RATE_WARNING_INTERVAL
    assert limiter.allow("net", "alice") == (False, True)


def test_the_budget_refills_with_time():
    now = [0.0]
    limiter = _limiter(now)
    for _ in range(3):
        limiter.allow("net", "alice")
    assert not limiter.allow("net", "alice")[0]
    now[0] = 1.0  # one command's worth
    assert limiter.allow("net", "alice") == (True, False)
    assert not limiter.allow("net", "alice")[0]


def test_each_user_and_each_network_has_its_own_bucket():
    now = [0.0]
    limiter = _limiter(now, commands=1)
    assert limiter.allow("net", "alice")[0]
    assert limiter.allow("net", "bob")[0]
    assert limiter.allow("other", "alice")[0]
    assert not limiter.allow("net", "alice")[0]
