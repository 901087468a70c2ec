"""The banner says "Your turn" once: the game's own status line names whose turn it is, and for
the reader whose turn it is the page does not name them again ("Your turn: take, exchange or
sell …", not "Your turn. alice to play: …"), in every game and in the reader's language.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.waits import wait_until
from support.webfixtures import serve
from support.webpage import TIMEOUT, drawn_at, expect, shot, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

FAST = RateLimit(commands=10_000, per_seconds=1)
#: "Your turn" in each language the page speaks
YOUR_TURN = {"en": "Your turn", "de": "Du bist am Zug", "es": "Te toca"}


@pytest.mark.parametrize("game", ["jaipur", "yspahan", "bazaar"])
async def test_the_banner_names_the_reader_whose_turn_it_is_once(
    browser: Any, tmp_path: Path, game: str
) -> None:
    async with serve(tmp_path / "t.sqlite", games=discover(), default_game=game, rate_limit=FAST) as served:
        context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(served.url + "/")
        await sign_in(page, "alice", timeout=TIMEOUT)
        for line in ("/join", "/addbot easy", "/start"):
            await type_line(page, line)
        await expect(page.locator("#hand-panel")).to_be_visible(timeout=TIMEOUT)
        table = served.hub.tables[("web", "#bazaar")]
        mine = next(i for i, seat in enumerate(table.players) if seat.nick == "alice")
        await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "alice's turn")
        await drawn_at(page, table.moves_made)
        banner = page.locator("#turn-text")
        for lang, your_turn in YOUR_TURN.items():  # the same turn read in each language in turn
            if lang != "en":
                await type_line(page, f"/lang {lang}")
            await expect(banner).to_contain_text(your_turn, timeout=TIMEOUT)
            said = await banner.inner_text()
            assert said.count(your_turn) == 1 and "alice" not in said, said
            await shot(page, f"turn-banner-{game}-{lang}-phone.png")
        assert not errors, errors
