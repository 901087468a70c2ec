"""A nickname of the longest allowed length (24 characters) on a phone and a laptop, in English and
German: the page never scrolls sideways, and Send and the room bar's Join are whole in view and not
covered, before the game and while it runs.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.inview import not_in_view, past_the_edge
from support.webfixtures import serve
from support.webpage import TIMEOUT, expect, shot, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

FAST = RateLimit(commands=10_000, per_seconds=1)
#: the longest nickname the welcome form takes
LONGEST = "Abcdefghijklmnopqrstuvwx"
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


async def _whole_at_every_size(page: Any, stage: str, lang: str) -> None:
    for size, (width, height) in SIZES.items():
        await page.set_viewport_size({"width": width, "height": height})
        await page.evaluate(
            "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )
        past = await past_the_edge(page)
        assert past <= 0, f"{lang} {stage} {size}: the page is {past} px wider than the screen"
        for control in ("#say-button", "#join-form button[type=submit]"):
            problem = await not_in_view(page, control)
            assert not problem, f"{lang} {stage} {size}: {problem}"
        await shot(page, f"long-nick-{lang}-{stage}-{size}.png")


@pytest.mark.parametrize("lang", ["en-US", "de-DE"])
async def test_a_24_character_nickname_never_widens_the_page_and_send_stays_in_view(
    browser: Any, tmp_path: Path, lang: str
) -> None:
    async with serve(
        tmp_path / "n.sqlite", games=discover(), default_game="jaipur", rate_limit=FAST
    ) as served:
        context = await browser.new_context(viewport={"width": 390, "height": 844}, locale=lang)
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(served.url + "/")
        await sign_in(page, LONGEST, timeout=TIMEOUT)
        if lang.startswith("de"):
            await expect(page.locator("#say-button")).to_have_text("Senden")
        await _whole_at_every_size(page, "signed-in", lang)
        await page.set_viewport_size({"width": 390, "height": 844})
        await type_line(page, "/join")
        await type_line(page, "/addbot easy")
        await expect(page.locator("#table")).to_contain_text(LONGEST, timeout=TIMEOUT)
        await type_line(page, "/start")
        await expect(page.locator("#hand-panel")).to_be_visible(timeout=TIMEOUT)
        await expect(page.locator("#clock")).to_contain_text(LONGEST, timeout=TIMEOUT)
        await _whole_at_every_size(page, "playing", lang)
        assert not errors, errors
