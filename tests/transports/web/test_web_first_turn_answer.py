"""The answer to ``/start`` (the first turn's announcement) stands over the table on a phone and a
laptop, and never on top of the board: the market (Jaipur), the tower (Yspahan) and the exchange
(Bazaar) lie outside its box, with the page at its top.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.inview import overlaps
from support.webfixtures import serve
from support.webpage import TIMEOUT, expect, open_page, shot, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

FAST = RateLimit(commands=10_000, per_seconds=1)
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
#: the part of each game's board the first turn acts on
BOARD = {"jaipur": ".jp-market", "yspahan": ".ys-tower", "bazaar": ".bz-exchange"}


@pytest.mark.parametrize("game", sorted(BOARD))
async def test_the_first_turns_answer_box_leaves_the_board_uncovered(
    browser: Any, tmp_path: Path, game: str
) -> None:
    async with serve(tmp_path / "f.sqlite", games=discover(), default_game=game, rate_limit=FAST) as served:
        page = await open_page(browser, served, size=SIZES["phone"], console=True)
        await sign_in(page, "alice", timeout=TIMEOUT)
        await type_line(page, "/join")
        await type_line(page, "/addbot easy")
        await expect(page.locator("#table")).to_contain_text("AI:easy", timeout=TIMEOUT)
        await type_line(page, "/start")
        await expect(page.locator(f"#table {BOARD[game]}").first).to_be_visible(timeout=TIMEOUT)
        await expect(page.locator("#feedback")).to_be_visible(timeout=TIMEOUT)
        for size, (width, height) in SIZES.items():
            await page.set_viewport_size({"width": width, "height": height})
            await page.evaluate(
                "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
            )
            await page.evaluate("() => window.scrollTo(0, 0)")
            await expect(page.locator("#feedback")).to_be_visible()
            covered = await overlaps(page, f"#table {BOARD[game]}", "#feedback")
            assert not covered, f"{game} {size}: {covered}"
            await shot(page, f"first-turn-{game}-{size}.png")
        assert not page.errors, page.errors
