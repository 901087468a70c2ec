"""Fixtures of the web transport tests: headless Chromium, per test or once per module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from support.webfixtures import chromium


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """A Chromium for one test, on the test's own event loop."""
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def module_browser() -> AsyncIterator[Any]:
    """One Chromium for a module whose tests share the module's event loop."""
    async with chromium() as b:
        yield b
