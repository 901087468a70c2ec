"""Stage 2, first half: a line too long is refused, a user over the rate limit is slowed down."""

from __future__ import annotations

from bazaarbot.config import RateLimit
from bazaarbot.messages import Tell, User
from bazaarbot.pipeline.gate import Gate
from bazaarbot.pipeline.ratelimit import RateLimiter
from bazaarbot.pipeline.reading import Line


def _gate(commands: int = 1, unlimited: frozenset[str] = frozenset()) -> Gate:
    limiter = RateLimiter(RateLimit(commands=commands, per_seconds=100.0), clock=lambda: 0.0)
    return Gate(limiter, max_line=20, unlimited_networks=unlimited)


def _line(text: str = "/join", network: str = "net") -> Line:
    return Line(network, "#t", User("alice"), text)


def test_a_line_within_length_and_budget_passes():
    assert _gate().refusal(_line()) is None


def test_an_overlong_line_is_refused_with_its_length_and_the_limit():
    out = _gate().refusal(_line("/say " + "x" * 30))
    assert out == [Tell("net", "alice", "That line is too long (35 characters; the limit is 20).")]


def test_an_overlong_line_costs_no_budget():
    gate = _gate()
    gate.refusal(_line("/say " + "x" * 30))
    assert gate.refusal(_line()) is None


def test_over_the_budget_the_user_is_told_once_then_not_answered():
    gate = _gate()
    gate.refusal(_line())
    warned = gate.refusal(_line())
    assert warned == [
        Tell("net", "alice", "Slow down, please: too many commands. Try again in a few seconds.")
    ]
    assert gate.refusal(_line()) == []


def test_an_unlimited_network_is_never_slowed_down():
    gate = _gate(unlimited=frozenset({"console"}))
    assert all(gate.refusal(_line(network="console")) is None for _ in range(10))
