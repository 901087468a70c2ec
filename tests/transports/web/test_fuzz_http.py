"""Hypothesis fuzzing of the HTTP routes: any path, method, headers and body get an answer below 500.

One bot serves on a free port from a thread of its own; each example is a raw
request on a fresh connection (so malformed ones reach the parser as sent). The
paths are built from the app's own routes with odd segments (digits of other
scripts, huge and negative numbers, dot segments, percent escapes, long text),
the headers include forged forwarding headers and websocket upgrades, and the
body is any bytes. No answer is a 500 or carries a traceback, and nothing is
logged with a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.webfixtures import Served, serve

from bazaarbot.registry import discover

ODD_SEGMENTS = ["²", "①", "٣", "𝟙", "-1", "9" * 40, "0", "..", ".", "", "%00", "%zz", "#bazaar", "a" * 300]
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT", "get", "G\x00T"]
HEADER_NAMES = [
    "Host",
    "Forwarded",
    "X-Forwarded-For",
    "X-Real-IP",
    "Origin",
    "Accept",
    "Accept-Language",
    "Cookie",
    "Upgrade",
    "Connection",
    "Sec-WebSocket-Key",
    "Sec-WebSocket-Version",
    "Content-Type",
    "Range",
    "If-Modified-Since",
    "Transfer-Encoding",
    "X-Odd",
]
HEADER_VALUES = [
    "websocket",
    "upgrade",
    "dGhlIHNhbXBsZSBub25jZQ==",
    "13",
    "for=unknown",
    "for=_hidden, for=127.0.0.1",
    'for="[::1]"',
    "127.0.0.1",
    "unknown",
    "text/html",
    "bytes=5-1",
    "bytes=-99999999999999999999",
    "chunked",
    "de, es;q=²",
    "http://evil.example",
]


class LogCatcher(logging.Handler):
    """Every record logged with a traceback, from any thread."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.tracebacks: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.tracebacks.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, LogCatcher]]:
    """One bot with every game, trusting the loopback as its proxy, served from its own thread."""
    catcher = LogCatcher()
    logging.getLogger().addHandler(catcher)
    db = Path(tmp_path_factory.mktemp("fuzz-http")) / "bot.sqlite"
    ready = threading.Event()
    held: dict[str, object] = {}

    async def main() -> None:
        web = {"trusted_proxies": ("127.0.0.1",), "forwarded_header": "Forwarded"}
        async with serve(db, games=discover(), default_game="jaipur", web=web) as bot:
            stop = asyncio.Event()
            held.update(served=bot, stop=stop, loop=asyncio.get_running_loop())
            ready.set()
            await stop.wait()

    thread = threading.Thread(target=lambda: asyncio.run(main()), name="fuzz-http-server", daemon=True)
    thread.start()
    assert ready.wait(60), "the bot did not start"
    try:
        yield held["served"], catcher  # type: ignore[misc]
    finally:
        loop = held["loop"]
        assert isinstance(loop, asyncio.AbstractEventLoop)
        loop.call_soon_threadsafe(held["stop"].set)  # type: ignore[attr-defined]
        thread.join(30)
        logging.getLogger().removeHandler(catcher)


def routes() -> list[str]:
    from bazaarbot.transports.web import WebTransport

    app = WebTransport().app()
    return sorted({r.resource.canonical for r in app.router.routes() if r.resource is not None})


def segment(text: str) -> str:
    return quote(text, safe="%.")


paths = st.one_of(
    st.builds(
        lambda route, odd: re.sub(r"\{[^}]+\}", lambda _m: segment(odd), route),
        st.sampled_from(routes()),
        st.one_of(st.sampled_from(ODD_SEGMENTS), st.text(max_size=30)),
    ),
    st.builds(
        lambda route, odd: re.sub(r"\{[^}]+\}", lambda _m: segment(odd), route),
        st.sampled_from([r for r in routes() if "{" in r]),
        st.sampled_from(ODD_SEGMENTS),
    ),
    st.lists(st.one_of(st.sampled_from(ODD_SEGMENTS), st.text(max_size=12)), max_size=5).map(
        lambda parts: "/" + "/".join(segment(p) for p in parts)
    ),
    st.sampled_from(["*", "http://127.0.0.1/", "//", "/static/../../etc/passwd", "/static/%2e%2e/x", ""]),
)
headers = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(HEADER_NAMES), st.text(min_size=1, max_size=12)),
        st.one_of(st.sampled_from(HEADER_VALUES), st.text(max_size=40)),
    ),
    max_size=6,
)
queries = st.one_of(st.just(""), st.text(max_size=20).map(lambda q: "?" + quote(q, safe="=&")))


def exchange(port: int, data: bytes) -> bytes:
    """Send ``data`` on a fresh connection, close the sending side, read the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # refused while sending: the answer (if any) says why
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except (ConnectionResetError, TimeoutError):
            pass
        return answer


def check(answer: bytes, request: bytes) -> None:
    for status in re.findall(rb"^HTTP/1\.[01] (\d{3})", answer, re.MULTILINE):
        assert int(status) < 500, (request[:300], answer[:300])
    assert b"Traceback" not in answer, request[:300]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    method=st.sampled_from(METHODS),
    path=paths,
    query=queries,
    header_list=headers,
    body=st.one_of(st.just(b""), st.binary(max_size=300)),
    length=st.sampled_from(["right", "none", "wrong"]),
)
@example(method="GET", path="/replay/%C2%B2", query="", header_list=[], body=b"", length="none")
@example(method="GET", path="/replay/%E2%91%A0/data", query="", header_list=[], body=b"", length="none")
@example(
    method="GET",
    path="/metrics",
    query="",
    header_list=[("Forwarded", "for=unknown")],
    body=b"",
    length="none",
)
def test_any_request_is_answered_below_500(
    served: tuple[Served, LogCatcher],
    method: str,
    path: str,
    query: str,
    header_list: list[tuple[str, str]],
    body: bytes,
    length: str,
):
    bot, catcher = served
    lines = [f"{method} {path}{query} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in header_list]
    if length == "right":
        lines.append(f"Content-Length: {len(body)}")
    elif length == "wrong":
        lines.append(f"Content-Length: {len(body) + 7}")
    head = "\r\n".join(lines).encode("utf-8", "surrogateescape") + b"\r\n\r\n"
    request = head + body
    check(exchange(bot.transport.port, request), request)
    assert not catcher.tracebacks, catcher.tracebacks


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda t: t.encode("utf-8"))))
def test_any_bytes_on_the_port_are_answered_below_500(served: tuple[Served, LogCatcher], raw: bytes):
    bot, catcher = served
    check(exchange(bot.transport.port, raw), raw)
    assert not catcher.tracebacks, catcher.tracebacks
