"""One headless Chromium per test worker, shared by the browser tests; each test gets fresh contexts.

Starting Playwright's driver and a Chromium costs well over a second of CPU; a worker now pays it
once instead of every browser test. A test reaches the shared browser through the ``browser``
fixture (tests/conftest.py), which closes every context the test opened (its cookies, storage and
pages) when the test ends, and launches a new Chromium when the last one crashed or hung. Playwright's
connection belongs to the event loop that started it, so the tests that use ``browser`` run on the
worker's session-wide loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

import pytest

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: ms an ``expect`` waits when its test gives no timeout (Playwright's own default is 5 s)
EXPECT_TIMEOUT = 15_000
#: seconds a context may take to close before the browser is deemed hung and replaced
CLOSE_WITHIN = 10.0


def require_chromium() -> None:
    """Skip the test (fail it in CI) when Playwright or the system Chromium is missing."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("playwright is not installed (pip install -e '.[test]')")
        pytest.skip("playwright is not installed")
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail(f"{CHROMIUM} is missing (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")


class WorkerChromium:
    """Playwright's driver and one Chromium, started on first use and kept for the worker's tests."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    async def browser(self) -> Any:
        """The running Chromium; a new one when there is none yet or the last one is gone."""
        from playwright.async_api import async_playwright, expect

        if self._playwright is None:
            # an ``expect`` without its own timeout: ends as soon as it holds, so the room it leaves
            # costs nothing but keeps a loaded machine (a CI run's eight workers) from failing it
            expect.set_options(timeout=EXPECT_TIMEOUT)
            self._playwright = await async_playwright().start()
        if self._browser is None or not self._browser.is_connected():
            self._browser = await self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        return self._browser

    async def tidy(self) -> None:
        """Close every context a test left open; a browser that does not answer is closed for good."""
        browser = self._browser
        if browser is None or not browser.is_connected():
            return
        try:
            for context in list(browser.contexts):
                await asyncio.wait_for(context.close(), CLOSE_WITHIN)
        except Exception:  # a crashed or hung browser: the next test gets a new one
            await self._close_browser()

    async def stop(self) -> None:
        await self._close_browser()
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None

    async def _close_browser(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.close(), CLOSE_WITHIN)
