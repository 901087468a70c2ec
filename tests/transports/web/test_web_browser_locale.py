"""A reader whose browser shows German or Spanish reads the game in it without typing ``/lang``.

The page tells the bot the browser's languages when it opens; the first the bot speaks is the
reader's until they choose with ``/lang``, as a Discord reader's client locale is. At an English
room's Jaipur table against an AI the game log (the AI's moves and the bot's announcements), the
room's lines and the AI's name are in the reader's language.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.english_words import english_terms_in
from support.waits import wait_until
from support.webfixtures import serve
from support.webpage import TIMEOUT, drawn_at, expect, open_page, shot, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

FAST = RateLimit(commands=10_000, per_seconds=1)
LOCALE = {"de": "de-DE", "es": "es-ES"}
#: how the bot names an easy AI in each language
AI_NICK = {"de": "KI:leicht", "es": "IA:fácil"}
#: the game log's lines as the page holds them (its pane open or not)
LOGGED = "#gamelogs .entry-text"


@pytest.mark.parametrize("lang", ["de", "es"])
async def test_a_german_or_spanish_browser_reads_the_game_lines_in_its_language_without_lang(
    browser: Any, tmp_path: Path, lang: str
) -> None:
    async with serve(
        tmp_path / "l.sqlite", games=discover(), default_game="jaipur", rate_limit=FAST
    ) as served:
        page = await open_page(browser, served, size=(390, 844), locale=LOCALE[lang])
        await sign_in(page, "otto", timeout=TIMEOUT)
        for line in ("/join", "/addbot easy"):
            await type_line(page, line)
        await expect(page.locator("#table")).to_contain_text(AI_NICK[lang], timeout=TIMEOUT)
        await type_line(page, "/start")
        table = served.hub.tables[("web", "#bazaar")]
        await wait_until(lambda: table.running, TIMEOUT / 1000, "the game started by /start")
        mine = next(i for i, seat in enumerate(table.players) if seat.nick == "otto")
        for _move in range(2):  # the reader's moves and the AI's answers fill the game log
            await wait_until(
                lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "otto's turn"
            )
            before = table.moves_made
            await drawn_at(page, before)
            command = table.plugin.legal_commands(table.state, mine)[0]
            await type_line(page, table.plugin.command_in(table.state, mine, command, lang))
            await wait_until(lambda made=before: table.moves_made > made, TIMEOUT / 1000, "otto's move")
        await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "otto's turn")
        await drawn_at(page, table.moves_made)
        await expect(page.locator(LOGGED)).to_have_count(table.moves_made, timeout=TIMEOUT)
        logged = (await page.locator("#gamelogs").text_content() or "").replace("otto", "")
        assert AI_NICK[lang] in logged, logged
        assert not english_terms_in(logged, lang), (english_terms_in(logged, lang), logged)
        room = "\n".join(await page.locator("#logs .k-bot .text").all_text_contents())
        assert "AI:" not in room and not english_terms_in(room, lang), room
        assert served.hub.languages.person("web", "a:otto") == lang  # no /lang stored, the browser's
        assert await page.evaluate("document.documentElement.lang") == lang
        await shot(page, f"browser-locale-{lang}-phone.png")
        await page.set_viewport_size({"width": 1366, "height": 768})
        await shot(page, f"browser-locale-{lang}-laptop.png")
        assert not page.errors, page.errors
