"""Durations as people type and read them: ``90s``, ``5m``, ``2h``, ``1d``."""

from __future__ import annotations

import re

from bazaarbot.i18n import _

_DURATION = re.compile(r"^([0-9]{1,9})\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)?$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> int | None:
    """``90s`` / ``90`` -> 90, ``5m`` -> 300, ``2h``, ``1d``; None when it is not a duration."""
    match = _DURATION.match(text.strip().lower())
    if not match:
        return None
    unit = (match.group(2) or "s")[0]
    return int(match.group(1)) * _UNIT_SECONDS[unit]


def say_duration(seconds: float) -> str:
    """``4m 30s``, ``45s``, ``2h 5m``, ``1d 3h`` (the two largest units, whole seconds rounded up)."""
    whole = max(0, int(-(-seconds // 1)))
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, rest = divmod(rest, 60)
    if days:
        return _("{d}d {h}h").format(d=days, h=hours) if hours else _("{d}d").format(d=days)
    if hours:
        return _("{h}h {m}m").format(h=hours, m=minutes) if minutes else _("{h}h").format(h=hours)
    if minutes and rest:
        return _("{m}m {s}s").format(m=minutes, s=rest)
    if minutes:
        return _("{m}m").format(m=minutes)
    return _("{s}s").format(s=rest)
