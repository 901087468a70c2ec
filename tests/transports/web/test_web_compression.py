"""Whether the page's websockets are compressed: the operator's choice, off unless turned on."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest
from support.webfixtures import WsClient, serve

from bazaarbot.config import WebLimits

#: the largest LZ77 window, what browsers offer with ``permessage-deflate``
BROWSER_WINDOW_BITS = 15


@pytest.mark.parametrize(("setting", "negotiated"), [(None, 0), (False, 0), (True, BROWSER_WINDOW_BITS)])
async def test_a_tab_offering_deflate_gets_it_only_where_the_operator_turned_compression_on(
    tmp_path: Path, setting: bool | None, negotiated: int
) -> None:
    web = {} if setting is None else {"compress": setting}
    async with serve(tmp_path / "bot.sqlite", web=web) as served:
        session = aiohttp.ClientSession()
        tab = WsClient(session, await session.ws_connect(served.ws_url, compress=BROWSER_WINDOW_BITS))
        try:
            answered = tab.ws._response.headers.get("Sec-WebSocket-Extensions", "")
            assert tab.ws.compress == negotiated
            assert ("permessage-deflate" in answered) == bool(negotiated)
            assert (await tab.hello())["nick"] is None  # and the frames read alike either way
            assert (await tab.claim("alice"))["nick"] == "alice"
        finally:
            await tab.close()


async def test_a_compressed_message_too_big_to_compress_at_once_arrives_whole_and_what_follows_after_it(
    tmp_path: Path,
) -> None:
    """A room's history over aiohttp's synchronous limit (16 KB) is compressed off the event loop:
    the send waits, and the tab's next frames wait behind it, in order."""
    limits = WebLimits(frames_per_second=1000, frame_burst=1000)
    async with serve(tmp_path / "bot.sqlite", web={"compress": True}, limits=limits) as served:
        session = aiohttp.ClientSession()
        alice = WsClient(session, await session.ws_connect(served.ws_url, compress=BROWSER_WINDOW_BITS))
        bob = WsClient(session, await session.ws_connect(served.ws_url, compress=BROWSER_WINDOW_BITS))
        try:
            await alice.hello()
            await alice.claim("alice")
            await alice.join("#bazaar")
            said = [f"line {n} " + "".join(chr(0x61 + (n * k) % 26) for k in range(300)) for n in range(80)]
            for text in said:
                await alice.say("#bazaar", text)
            await alice.expect("chat", lambda f: f["text"] == said[-1])
            await bob.hello()
            await bob.claim("bob")
            await bob.send(t="join", room="#bazaar", history=True)
            await alice.say("#bazaar", "after the history")
            joined = await bob.expect("joined")
            assert len(json.dumps(joined)) > 16 * 1024
            assert [line["text"] for line in joined["history"] if line.get("nick") == "alice"] == said
            after = await bob.expect("chat")
            assert after["text"] == "after the history"
        finally:
            await alice.ws.close()
            await bob.ws.close()
            await session.close()
