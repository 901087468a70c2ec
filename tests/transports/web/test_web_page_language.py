"""The page in its reader's language, in Chromium: /lang switches it at once, with no English game word.

An English browser joins a Yspahan table against an AI; ``/sprache de`` turns the
page German without a reload (the page's own words, the drawn table, the turn line,
the move buttons, the ratings panel, the title), and a German move typed as a button
shows it is played; ``/idioma es`` turns it Spanish. The rendered text is checked
against the same list of English game words as the console games.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from support.english_words import english_terms_in
from support.waits import wait_until
from support.webfixtures import serve
from support.webpage import TIMEOUT, drawn_at

from bazaarbot.config import RateLimit

pytestmark = pytest.mark.browser

#: a person clicking quickly through a game is no flood
FAST = RateLimit(commands=1000, per_seconds=1)
DRAWN = "#turn, #table, #controls, #hand-panel, #ratings"
#: a move button of the drawn table or the controls, its title the move as the reader types it
MOVE_BUTTON = "#table button.ys-act[title], #controls button.move[title]"
#: a move of the game log as the page shows it (its pane hidden or not)
LOGGED_MOVE = "#gamelogs .entry-text"


def _expect(locator: Any) -> Any:
    from playwright.async_api import expect

    return expect(locator)


async def _type(page: Any, text: str) -> None:
    await page.fill("#line", text)
    await page.press("#line", "Enter")


async def _drawn_text(page: Any) -> str:
    parts = await page.locator(DRAWN).all_inner_texts()
    titles = await page.locator("#controls [title], #table [title]").evaluate_all(
        "(nodes) => nodes.map((n) => n.title)"
    )
    return "\n".join([*parts, *titles, await page.title()])


async def test_the_page_switches_language_at_once_and_shows_no_english_game_word(
    browser: Any, tmp_path: Path
) -> None:
    from plugins.yspahan import GAME as YSPAHAN

    async with serve(
        tmp_path / "b.sqlite", games={"yspahan": YSPAHAN}, default_game="yspahan", rate_limit=FAST
    ) as served:
        context = await browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(served.url + "/")
        await page.fill("#nick-input", "otto")
        await page.press("#nick-input", "Enter")
        await _expect(page.locator("#line")).to_be_enabled(timeout=TIMEOUT)
        for line in ("/new yspahan", "/addbot easy", "/start"):
            await _type(page, line)
        await _expect(page.locator("#table")).to_contain_text("Tower", timeout=TIMEOUT)
        await _expect(page.locator("#say-button")).to_have_text("Send")

        await _type(page, "/sprache de")
        await _expect(page.locator("#table")).to_contain_text("Würfelturm", timeout=TIMEOUT)
        await _expect(page.locator("#turn")).to_have_text(
            re.compile("Du bist am Zug|Warte auf"), timeout=TIMEOUT
        )
        await _expect(page.locator("#say-button")).to_have_text("Senden")  # the page's own words, no reload
        await _expect(page.locator("#clock")).to_contain_text("noch")  # the turn's countdown
        assert await page.evaluate("document.documentElement.lang") == "de"
        table = served.hub.tables[("web", "#bazaar")]
        nicks = [s.nick for s in table.players]
        # wait for the person's decision, then play it from a German button
        await wait_until(
            lambda: table.players[YSPAHAN.to_act(table.state)[0]].nick == "otto", what="otto's turn"
        )
        before = table.moves_made
        await drawn_at(page, before)  # the buttons are those of otto's decision
        # the moves played before the switch, in the game log and the banner, are read again in German
        await _expect(page.locator(LOGGED_MOVE)).to_have_count(before, timeout=TIMEOUT)
        logged = await page.locator(f"{LOGGED_MOVE}, #last-move li").all_text_contents()
        assert not english_terms_in("\n".join(logged), "de"), logged
        button = page.locator(MOVE_BUTTON).first
        await _expect(button).to_be_visible(timeout=TIMEOUT)
        shown = await button.get_attribute("title")
        await _type(page, shown)
        await wait_until(lambda: table.moves_made > before, what=f"the German move {shown!r}")
        await _expect(page.locator("#ratings")).to_contain_text("Beste Spieler", timeout=TIMEOUT)
        german = await _drawn_text(page)
        for nick in nicks:
            german = german.replace(nick, "")
        assert not english_terms_in(german, "de"), (english_terms_in(german, "de"), german)

        await _type(page, "/idioma es")
        await _expect(page.locator("#table")).to_contain_text("Torre", timeout=TIMEOUT)
        await _expect(page.locator("#say-button")).to_have_text("Enviar")
        await _expect(page.locator("#clock")).to_contain_text("quedan")
        assert await page.evaluate("document.documentElement.lang") == "es"
        spanish = await _drawn_text(page)
        for nick in nicks:
            spanish = spanish.replace(nick, "")
        assert not english_terms_in(spanish, "es"), (english_terms_in(spanish, "es"), spanish)
        assert not errors, errors


@pytest.mark.parametrize("width", [1280, 800])
async def test_the_room_box_keeps_room_for_its_hint_in_german(
    browser: Any, tmp_path: Path, width: int
) -> None:
    async with serve(tmp_path / "b.sqlite") as served:
        context = await browser.new_context(locale="de-DE", viewport={"width": width, "height": 800})
        page = await context.new_page()
        await page.goto(served.url + "/")
        await page.fill("#nick-input", "otto")
        await page.press("#nick-input", "Enter")
        box = page.locator("#join-room")
        await _expect(box).to_have_attribute("placeholder", "#raum", timeout=TIMEOUT)
        await _expect(box).to_be_visible(timeout=TIMEOUT)
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
    from plugins.jaipur import GAME as JAIPUR

    async with serve(
        tmp_path / "b.sqlite", games={"jaipur": JAIPUR}, default_game="jaipur", rate_limit=FAST
    ) as served:
        context = await browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(served.url + "/")
        await page.fill("#nick-input", "otto")
        await page.press("#nick-input", "Enter")
        await _expect(page.locator("#line")).to_be_enabled(timeout=TIMEOUT)
        await _type(page, "/new jaipur")
        await _expect(page.locator("#table")).to_contain_text("otto", timeout=TIMEOUT)
        await _type(page, "/sprache channel de")
        await _expect(page.locator("#logs")).to_contain_text("Deutsch", timeout=TIMEOUT)
        # the lobby's seat buttons and seats speak German too
        await _expect(page.locator("#add-ai")).to_have_text("KI dazusetzen", timeout=TIMEOUT)
        await _expect(page.locator("#ai-level")).to_have_attribute("aria-label", "KI-Stufe")
        await _expect(page.locator('#ai-level option[value="medium"]')).to_have_text("mittel")
        await _expect(page.locator("#table")).to_contain_text("Platz 1: otto (Gastgeber)")
        room_before = await page.locator("#logs .k-bot .text").count()
        private_before = await page.locator("#private .k-tell .text").count()
        for line in ("/addbot easy", "/start"):
            await _type(page, line)
        table = served.hub.tables[("web", "#bazaar")]
        for _move in range(4):  # the person's moves from the page's German buttons; the AI answers
            await wait_until(
                lambda: table.running and table.players[JAIPUR.to_act(table.state)[0]].nick == "otto",
                what="otto's turn",
            )
            before = table.moves_made
            await drawn_at(page, before)  # the buttons are those of otto's turn, not of the AI's
            button = page.locator("#controls button.move[title]").first
            await _expect(button).to_be_visible(timeout=TIMEOUT)
            await _type(page, await button.get_attribute("title"))
            await wait_until(lambda made=before: table.moves_made > made, what=f"otto's move after {before}")
        await _type(page, "/moves")
        await _type(page, "/status")
        await _expect(page.locator("#logs")).to_contain_text("Am Zug", timeout=TIMEOUT)
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
        assert not errors, errors
