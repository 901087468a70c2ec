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
from support.webpage import TIMEOUT, against_an_easy_ai, drawn_at, expect, open_page, shot, type_line

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
        page = await open_page(browser, served, size=(390, 844), locale="en-US")
        table, mine = await against_an_easy_ai(page, served)
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
        assert not page.errors, page.errors
