"""Whether the page's websockets are compressed: the operator's choice, off unless turned on."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from support.webfixtures import WsClient, serve

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
