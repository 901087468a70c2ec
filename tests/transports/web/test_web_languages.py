"""The web page starts in the browser's language (navigator.languages), in a real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.webfixtures import serve
from support.webpage import TIMEOUT

pytestmark = pytest.mark.browser


def _expect(locator: Any) -> Any:
    from playwright.async_api import expect

    return expect(locator)


async def _page_in(browser: Any, url: str, locale: str) -> Any:
    context = await browser.new_context(locale=locale, viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    await page.goto(url)
    return page


@pytest.mark.parametrize(
    ("locale", "heading", "button", "welcome"),
    [
        ("de-AT", "Wähle einen Nicknamen", "Den Basar betreten", "Willkommen in #bazaar"),
        ("es-ES", "Elige un apodo", "Entrar en el bazar", "Bienvenido a #bazaar"),
        ("en-GB", "Choose a nickname", "Enter the bazaar", "Welcome to #bazaar"),
        ("fr-FR", "Choose a nickname", "Enter the bazaar", "Welcome to #bazaar"),
    ],
)
async def test_the_page_speaks_the_browsers_language(
    browser: Any, tmp_path: Path, locale, heading, button, welcome
) -> None:
    async with serve(tmp_path / "b.sqlite") as served:
        page = await _page_in(browser, served.url + "/", locale)
        await _expect(page.locator("#nick-form h2, form h2").first).to_have_text(heading, timeout=TIMEOUT)
        await _expect(page.get_by_role("button", name=button)).to_be_visible(timeout=TIMEOUT)
        await page.fill("#nick-input", "alice")
        await page.press("#nick-input", "Enter")
        await _expect(page.locator("#logs")).to_contain_text(welcome, timeout=TIMEOUT)
        assert await page.evaluate("document.documentElement.lang") == locale.split("-")[0].replace(
            "fr", "en"
        )
        assert not page.errors


async def test_the_spectator_page_speaks_german_too(browser: Any, tmp_path: Path) -> None:
    async with serve(tmp_path / "b.sqlite") as served:
        page = await _page_in(browser, served.url + "/watch/bazaar", "de-DE")
        await _expect(page.locator("h2").first).to_have_text("Wer hier ist", timeout=TIMEOUT)
        await _expect(page.locator("#board")).to_have_text("Hier läuft noch keine Partie.", timeout=TIMEOUT)
        assert await page.title() == "bazaarbot — Zuschauer in #bazaar"
        assert not page.errors
