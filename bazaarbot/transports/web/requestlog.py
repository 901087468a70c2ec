"""What the HTTP server logs: a malformed request is one short line, at most one a second per address.

aiohttp logs every request it cannot parse (a port scan, a TLS hello sent to the
plain port, a bad header) with its full traceback, some 570 bytes each, so a
client probing the port writes megabytes an operator cannot read. The server
is given this logger instead of aiohttp's own: a malformed request
(``HttpProcessingError``) is logged as one line naming the address and what
was wrong, and further ones from that address within ``QUIET`` seconds are
only counted (the next line says how many). Anything else (a handler that
failed: a bug) keeps its traceback.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

log = logging.getLogger("bazaarbot.transports.web.requests")

#: seconds between two lines about one address's malformed requests
QUIET = 1.0
#: addresses remembered for the rate limit (the oldest are forgotten first)
REMEMBERED = 1000
#: the longest reason quoted from a malformed request
REASON = 80


def _reason(error: HttpProcessingError) -> str:
    """What was wrong, in one printable line of at most ``REASON`` characters."""
    said = " ".join(part.strip() for part in str(error.message or "").splitlines() if part.strip())
    text = "".join(ch if ch.isprintable() else "?" for ch in said) or type(error).__name__
    return text[:REASON] + ("..." if len(text) > REASON else "")


class RequestLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's server logger, with malformed requests as short, rate-limited lines."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self.clock = clock
        #: address -> (when its last line was logged, malformed requests since then not logged)
        self._last: dict[str, tuple[float, int]] = {}
        #: malformed requests seen in all
        self.malformed = 0

    def exception(self, msg: object, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        if self._malformed(args, exc_info):
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)

    def debug(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if self._malformed(args, kwargs.get("exc_info")):
            return
        super().debug(msg, *args, **kwargs)

    def _malformed(self, args: tuple[Any, ...], exc_info: Any) -> bool:
        """Log a malformed request the short way (True), or leave the record alone (False)."""
        if not isinstance(exc_info, HttpProcessingError):
            return False
        self.malformed += 1
        address = str(args[0]) if args else "?"
        now = self.clock()
        last, hidden = self._last.get(address, (None, 0))
        if last is not None and now - last < QUIET:
            self._last[address] = (last, hidden + 1)
            return True
        self._last.pop(address, None)
        self._last[address] = (now, 0)
        while len(self._last) > REMEMBERED:
            del self._last[next(iter(self._last))]
        more = f" (and {hidden} more since the last line)" if hidden else ""
        log.info("web: a malformed HTTP request from %s: %s%s", address, _reason(exc_info), more)
        return True
