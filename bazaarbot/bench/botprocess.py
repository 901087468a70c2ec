"""The bot as a process of its own: the command line that runs ``bazaarbot`` with this interpreter.

A bench that measures the bot apart from its load generator, and a test that
plays against the real ``bazaarbot run``, start it the same way: this Python,
this checkout's code (``-m bazaarbot.cli``), not whichever ``bazaarbot`` is
first on the PATH.
"""

from __future__ import annotations

import sys

#: the web chat's per-client limits, lifted: every tab of a machine-made load comes from one address
_WEB_LIMITS_LIFTED = """
[web.limits]
connections_per_address = 1000000
claims_per_minute = 1000000
rooms_per_nick = 1000
connections_per_prefix = 1000000
http_per_address = 1000000
max_connections = 1000000
address_buffer_bytes = 100000000000
frames_per_second = 1000000
frame_burst = 1000000
"""


def unlimited_config(seed: int, bot: str = "", port: int | None = None) -> str:
    """A config for a bot that a machine drives: no command budget, no turn clock, no table limit to
    speak of, the web chat on loopback (on ``port``, where given) with its per-client limits lifted.

    ``bot`` holds more lines of the ``[bot]`` section; the caller may add sections after it.
    """
    web_port = f"port = {port}\n" if port is not None else ""
    return (
        f"[bot]\n{bot}\nseed = {seed}\n"
        "rate_limit = { commands = 1000000, per_seconds = 1 }\nmax_tables = 1000\n\n"
        "[tables]\nturn_seconds = 0\n\n"
        f'[web]\nhost = "127.0.0.1"\n{web_port}metrics = "off"\n' + _WEB_LIMITS_LIFTED
    )


def bazaarbot_command(*args: str) -> list[str]:
    """``bazaarbot ARGS`` as an argument list for ``subprocess``."""
    return [sys.executable, "-m", "bazaarbot.cli", *args]
