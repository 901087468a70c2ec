"""Which event loop a bot process runs on: uvloop where it is installed, asyncio's own otherwise.

A command through the web is a handful of small socket reads and writes and a few
tasks; under asyncio's own loop that machinery is about a fifth of the bot's CPU per
command, and uvloop (libuv) does the same work for less. The bot relies only on
asyncio's public API, so either loop runs it: ``BAZAARBOT_LOOP=asyncio`` picks asyncio's
own (to compare, or where uvloop misbehaves), and Windows has no uvloop.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

Result = TypeVar("Result")

#: the environment variable that picks the loop: ``uvloop`` (the default where installed) or ``asyncio``
LOOP_VARIABLE = "BAZAARBOT_LOOP"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop maker when it is wanted and installed; None for asyncio's own."""
    if os.environ.get(LOOP_VARIABLE, "uvloop").strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def loop_name() -> str:
    """The loop ``run`` would use, as the operator names it."""
    return "asyncio" if loop_factory() is None else "uvloop"


def run(main: Coroutine[Any, Any, Result]) -> Result:
    """``asyncio.run(main)`` on the chosen loop."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
