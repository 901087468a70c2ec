"""The page in its reader's language, in Chromium: /lang switches it at once, with no English game word.

An English browser joins a Yspahan table against an AI; ``/sprache de`` turns the
page German without a reload (the page's own words, the drawn table, the turn line,
the move buttons, the ratings panel, the title), and a German move typed as a button
shows it is played; ``/idioma es`` turns it Spanish. The rendered text is checked
against the same list of English game words as the console games.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from support.english_words import english_terms_in
from support.webfixtures import Served, chromium, serve
from support.webpage import expect, open_page, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

TIMEOUT = 10_000  # ms
#: a person clicking quickly through a game is no flood
FAST = RateLimit(commands=1000, per_seconds=1)
DRAWN = "#turn, #table, #controls, #hand-panel, #ratings"
#: a move button of the drawn table or the controls, its title the move as the reader types it
MOVE_BUTTON = "#table button.ys-act[title], #controls button.move[title]"


async def _drawn_text(page: Any) -> str:
    parts = await page.locator(DRAWN).all_inner_texts()
    titles = await page.locator("#controls [title], #table [title]").evaluate_all(
        "(nodes) => nodes.map((n) => n.title)"
    )
    return "\n".join([*parts, *titles, await page.title()])


@asynccontextmanager
async def _otto_at(browser: Any, tmp_path: Path, game: str, locale: str) -> AsyncIterator[tuple[Served, Any]]:
    """A ``game`` table served alone, and otto's page in a browser set to ``locale``, signed in."""
    async with serve(
        tmp_path / "b.sqlite", games={game: discover()[game]}, default_game=game, rate_limit=FAST
    ) as served:
        page = await open_page(browser, served, locale=locale)
        await sign_in(page, "otto", timeout=TIMEOUT)
        yield served, page


async def _otto_plays_the_move_of(page: Any, table: Any, selector: str) -> str:
    """Once it is otto's turn, the move ``selector``'s first button names, typed as its title says."""
    for _attempt in range(100):  # the AI's answer first
        if table.running and table.players[table.plugin.to_act(table.state)[0]].nick == "otto":
            break
        await asyncio.sleep(0.1)
    button = page.locator(selector).first
    await expect(button).to_be_visible(timeout=TIMEOUT)
    shown = await button.get_attribute("title")
    before = table.moves_made
    await type_line(page, shown)
    for _wait in range(100):
        if table.moves_made > before:
            break
        await asyncio.sleep(0.05)
    assert table.moves_made > before, f"the move {shown!r} was not played"
    return shown


async def test_the_page_switches_language_at_once_and_shows_no_english_game_word(
    browser: Any, tmp_path: Path
) -> None:
    async with _otto_at(browser, tmp_path, "yspahan", "en-US") as (served, page):
        for line in ("/new yspahan", "/addbot easy", "/start"):
            await type_line(page, line)
        await expect(page.locator("#table")).to_contain_text("Tower", timeout=TIMEOUT)
        await expect(page.locator("#say-button")).to_have_text("Send")

        await type_line(page, "/sprache de")
        await expect(page.locator("#table")).to_contain_text("Würfelturm", timeout=TIMEOUT)
        await expect(page.locator("#turn")).to_have_text(
            re.compile("Du bist am Zug|Warte auf"), timeout=TIMEOUT
        )
        await expect(page.locator("#say-button")).to_have_text("Senden")  # the page's own words, no reload
        await expect(page.locator("#clock")).to_contain_text("noch")  # the turn's countdown
        assert await page.evaluate("document.documentElement.lang") == "de"
        table = served.hub.tables[("web", "#bazaar")]
        nicks = [s.nick for s in table.players]
        await _otto_plays_the_move_of(page, table, MOVE_BUTTON)  # from a German button
        await expect(page.locator("#ratings")).to_contain_text("Beste Spieler", timeout=TIMEOUT)
        german = await _drawn_text(page)
        for nick in nicks:
            german = german.replace(nick, "")
        assert not english_terms_in(german, "de"), (english_terms_in(german, "de"), german)

        await type_line(page, "/idioma es")
        await expect(page.locator("#table")).to_contain_text("Torre", timeout=TIMEOUT)
        await expect(page.locator("#say-button")).to_have_text("Enviar")
        await expect(page.locator("#clock")).to_contain_text("quedan")
        assert await page.evaluate("document.documentElement.lang") == "es"
        spanish = await _drawn_text(page)
        for nick in nicks:
            spanish = spanish.replace(nick, "")
        assert not english_terms_in(spanish, "es"), (english_terms_in(spanish, "es"), spanish)
        assert not page.errors, page.errors


@pytest.mark.parametrize("width", [1280, 800])
async def test_the_room_box_keeps_room_for_its_hint_in_german(tmp_path: Path, width: int) -> None:
    async with chromium() as browser, serve(tmp_path / "b.sqlite") as served:
        context = await browser.new_context(locale="de-DE", viewport={"width": width, "height": 800})
        page = await context.new_page()
        await page.goto(served.url + "/")
        await page.fill("#nick-input", "otto")
        await page.press("#nick-input", "Enter")
        box = page.locator("#join-room")
        await expect(box).to_have_attribute("placeholder", "#raum", timeout=TIMEOUT)
        await expect(box).to_be_visible(timeout=TIMEOUT)
        text, room = await box.evaluate(
            """(el) => {
                const style = getComputedStyle(el);
                const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
                const pen = document.createElement("canvas").getContext("2d");
                pen.font = style.font;
                return [pen.measureText(el.placeholder).width, el.clientWidth - pad];
            }"""
        )
        assert room >= text, f"the room box shows {room:.0f}px of the {text:.0f}px of '#raum'"


async def test_a_german_room_on_the_page_writes_no_english_game_word(browser: Any, tmp_path: Path) -> None:
    """The bot's lines in the room and in private, as the page shows them, after /sprache channel de."""
    async with _otto_at(browser, tmp_path, "jaipur", "de-DE") as (served, page):
        await type_line(page, "/new jaipur")
        await expect(page.locator("#table")).to_contain_text("otto", timeout=TIMEOUT)
        await type_line(page, "/sprache channel de")
        await expect(page.locator("#logs")).to_contain_text("Deutsch", timeout=TIMEOUT)
        # the lobby's seat buttons and seats speak German too
        await expect(page.locator("#add-ai")).to_have_text("KI dazusetzen", timeout=TIMEOUT)
        await expect(page.locator("#ai-level")).to_have_attribute("aria-label", "KI-Stufe")
        await expect(page.locator('#ai-level option[value="medium"]')).to_have_text("mittel")
        await expect(page.locator("#table")).to_contain_text("Platz 1: otto (Gastgeber)")
        room_before = await page.locator("#logs .k-bot .text").count()
        private_before = await page.locator("#private .k-tell .text").count()
        for line in ("/addbot easy", "/start"):
            await type_line(page, line)
        table = served.hub.tables[("web", "#bazaar")]
        for _move in range(4):  # the person's moves from the page's German buttons; the AI answers
            await _otto_plays_the_move_of(page, table, "#controls button.move[title]")
        await type_line(page, "/moves")
        await type_line(page, "/status")
        await expect(page.locator("#logs")).to_contain_text("Am Zug", timeout=TIMEOUT)
        room = (await page.locator("#logs .k-bot .text").all_inner_texts())[room_before:]
        private = (await page.locator("#private .k-tell .text").all_inner_texts())[private_before:]
        assert room and private
        nicks = [s.nick for s in table.players]
        leaks = {}
        for text in room + private:
            shown = text
            for nick in nicks:
                shown = shown.replace(nick, "")
            for word in english_terms_in(shown, "de"):
                leaks.setdefault(word, text)
        assert not leaks, leaks
        assert not page.errors, page.errors
