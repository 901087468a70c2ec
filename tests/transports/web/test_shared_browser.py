"""The one Chromium the browser tests of a worker share: what a test leaves behind never reaches the next."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from support.browsers import WorkerChromium

pytestmark = pytest.mark.browser


async def test_a_crashed_page_and_a_context_left_open_are_gone_before_the_next_test(
    browser: Any, worker_chromium: WorkerChromium
) -> None:
    from playwright.async_api import Error as PlaywrightError

    context = await browser.new_context()
    await context.add_cookies([{"name": "seen", "value": "1", "url": "http://127.0.0.1/"}])
    page = await context.new_page()
    crashed = asyncio.Event()
    page.on("crash", lambda _page: crashed.set())
    with contextlib.suppress(PlaywrightError):  # the navigation ends with the page
        await page.goto("chrome://crash", timeout=5_000)
    await asyncio.wait_for(crashed.wait(), 10)
    left_open = await browser.new_context()
    await left_open.new_page()

    await worker_chromium.tidy()  # what the fixture does after each test

    assert browser.is_connected() and browser.contexts == []
    fresh = await browser.new_context()
    assert await fresh.cookies() == []
    page = await fresh.new_page()
    assert await page.evaluate("() => 6 * 7") == 42


async def test_a_browser_that_is_gone_is_launched_again(
    browser: Any, worker_chromium: WorkerChromium
) -> None:
    await browser.close()
    again = await worker_chromium.browser()
    assert again is not browser and again.is_connected()
    page = await (await again.new_context()).new_page()
    assert await page.evaluate("() => 6 * 7") == 42
