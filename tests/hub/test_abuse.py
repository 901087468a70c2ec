"""Abuse: rate limits, overlong lines, control characters never echoed."""

from __future__ import annotations

from support.botdriver import Driver, said, text

from bazaarbot.config import BotSettings, RateLimit
from bazaarbot.text.commandmark import MARK


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _limited(tmp_path, limit: RateLimit, clock: Clock | None = None) -> Driver:
    """A count table whose per-user command budget is ``limit``, on ``clock`` (a still one if none)."""
    settings = BotSettings(default_game="count", rate_limit=limit)
    return Driver(tmp_path / "b.sqlite", settings=settings, clock=clock or Clock())


def test_rate_limit_warns_once_then_stays_silent_then_recovers(tmp_path):
    clock = Clock()
    bot = _limited(tmp_path, RateLimit(commands=3, per_seconds=6), clock)
    answers = [bot.line("alice", "/status") for _ in range(6)]
    assert all(said(a) for a in answers[:3])
    assert "Slow down" in text(answers[3])
    assert answers[4] == [] and answers[5] == []
    clock.now += 2.0  # one command's worth of budget comes back
    assert said(bot.line("alice", "/status"))


def test_rate_limit_is_per_user(tmp_path):
    bot = _limited(tmp_path, RateLimit(commands=2, per_seconds=60))
    for _ in range(3):
        bot.line("alice", "/status")
    assert said(bot.line("bob", "/status"))


def test_chatter_does_not_use_up_the_rate_limit(tmp_path):
    bot = _limited(tmp_path, RateLimit(commands=1, per_seconds=60))
    for _ in range(5):
        bot.line("alice", "just chatting")
    assert said(bot.line("alice", "/status"))


def test_overlong_line_gets_a_short_refusal(tmp_path):
    bot = Driver(tmp_path / "b.sqlite")
    out = bot.line("alice", "/join " + "x" * 500)
    assert "too long" in text(out) and len(text(out)) < 100
    assert bot.table.seats == [] if ("test", "#t") in bot.hub.tables else True


def test_overlong_chatter_is_still_ignored(tmp_path):
    bot = Driver(tmp_path / "b.sqlite")
    assert bot.line("alice", "y" * 1000) == []


def test_control_characters_from_users_are_never_echoed(tmp_path):
    bot = Driver(tmp_path / "b.sqlite")
    out = bot.line("ev\r\nil", "/join\r\n")
    out += bot.line("ev\r\nil", "/new count\r\nPRIVMSG #x :pwned")
    out += bot.line("mal\x00lory\x03", "/frob\x02nicate\x1f")
    for message in out:  # the one control character a line may carry marks a command it names
        assert not any(ord(c) < 32 and c not in ("\n", MARK) for c in message.text)
        assert "\r" not in message.text and "\x00" not in message.text
    assert any("ev il" in line for line in said(out))


def test_the_bot_ignores_its_own_lines(tmp_path):
    bot = Driver(tmp_path / "b.sqlite")
    assert bot.line("bazaarbot", "/join") == []
