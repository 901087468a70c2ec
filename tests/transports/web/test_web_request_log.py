"""A malformed HTTP request leaves one short log line, at most one a second per address."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from support.webfixtures import serve

#: what port scanners and broken clients send
MALFORMED = [
    b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(32)) + b"\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"GARBAGE\r\n\r\n",
]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def send_raw(port: int, data: bytes, source: str = "127.0.0.1") -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(data)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5.0)
    writer.close()
    return answer


async def test_a_malformed_request_is_one_short_line_at_most_one_a_second_per_address(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.DEBUG)
    clock = Clock()
    async with serve(tmp_path / "bot.sqlite", clock=clock) as served:
        port = served.transport.port
        for _ in range(6):
            for data in MALFORMED:
                answer = await send_raw(port, data)
                assert answer.startswith(b"HTTP/1.") and b" 400 " in answer.split(b"\r\n")[0], answer[:80]
        lines = [r for r in caplog.records if r.name.startswith(("aiohttp", "bazaarbot.transports.web"))]
        assert not [r for r in lines if r.exc_info], "no traceback"
        assert len(lines) == 1 and lines[0].getMessage().startswith(
            "web: a malformed HTTP request from 127.0.0.1: "
        )
        assert len(lines[0].getMessage()) < 200
        assert served.transport.request_log.malformed == 6 * len(MALFORMED)

        # another address has a line of its own; a second later the first has one more, with a count
        await send_raw(port, MALFORMED[0], "127.0.0.2")
        clock.now += 1.0
        await send_raw(port, MALFORMED[0])
        lines = [r.getMessage() for r in caplog.records if r.name == "bazaarbot.transports.web.requests"]
        assert len(lines) == 3
        assert "from 127.0.0.2" in lines[1]
        assert lines[2].endswith(f"(and {6 * len(MALFORMED) - 1} more since the last line)")
        assert all("\n" not in line for line in lines)
