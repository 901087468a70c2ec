"""Process-wide memory has bounds: the Jaipur rule caches and the per-user rate-limit buckets."""

from __future__ import annotations

import itertools
import tracemalloc

from bazaarbot.config import RateLimit
from bazaarbot.hub.hub import RateLimiter
from plugins.jaipur import rules


def exchange_keys():
    """Distinct (market goods, hand, camel room) arguments, as play would meet them."""
    for market in itertools.product(range(4), repeat=6):
        if not 2 <= sum(market) <= 5:
            continue
        for hand in ((1, 1, 1, 1, 1, 1), (2, 0, 2, 0, 2, 0), (0, 3, 0, 3, 0, 1)):
            for room in range(6):
                yield market, hand, room


def test_the_jaipur_exchange_cache_stays_within_its_documented_size():
    rules._exchanges.cache_clear()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for count, key in enumerate(exchange_keys()):
            rules._exchanges(*key)
            if count > rules.EXCHANGES_CACHE * 1.05:
                break
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    info = rules._exchanges.cache_info()
    assert info.maxsize == rules.EXCHANGES_CACHE and info.currsize == rules.EXCHANGES_CACHE
    assert grown < 32 * 2**20, f"the exchange cache holds {grown / 2**20:.1f} MiB, documented under 32"
    rules._exchanges.cache_clear()


def test_every_jaipur_rule_cache_has_a_bound():
    for cached in (rules.sub_multisets, rules.exact_multisets, rules._exchanges):
        assert cached.cache_info().maxsize is not None


def test_the_rate_limiter_forgets_users_whose_bucket_is_full_again():
    now = [0.0]
    limiter = RateLimiter(RateLimit(commands=4, per_seconds=10), clock=lambda: now[0], prune_above=50)
    for i in range(50):
        limiter.allow("net", f"n:user{i}")
    now[0] = 11.0
    for i in range(200):
        limiter.allow("net", f"n:newcomer{i}")
        now[0] += 0.01
    assert len(limiter.buckets) <= 200
    assert not any(key.startswith("n:user") for _net, key in limiter.buckets)


def test_a_pruned_user_gets_the_same_budget_as_before():
    now = [0.0]
    limiter = RateLimiter(RateLimit(commands=2, per_seconds=10), clock=lambda: now[0], prune_above=1)
    assert limiter.allow("net", "n:a") == (True, False)
    now[0] = 20.0
    limiter.allow("net", "n:b")  # prunes a, whose bucket was full again
    assert ("net", "n:a") not in limiter.buckets
    assert [limiter.allow("net", "n:a")[0] for _ in range(3)] == [True, True, False]
