"""The web page driver for the browser tests: a page of its own, signed in, typing, screenshots.

Each page lives in a browser context of its own (its own localStorage: another
person) and keeps the script errors it saw in ``page.errors``, so a test can
assert the page never failed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bazaarbot.messages import Incoming, User
from support.webfixtures import Served

TIMEOUT = 10_000  # ms: Playwright's waits


def expect(locator: Any) -> Any:
    """Playwright's ``expect``, imported only where a browser test runs."""
    from playwright.async_api import expect as playwright_expect

    return playwright_expect(locator)


async def open_page(
    browser: Any,
    served: Served,
    path: str = "/",
    size: tuple[int, int] = (1280, 800),
    console: bool = False,
    locale: str | None = None,
) -> Any:
    """``path`` of ``served`` at ``size`` (in a browser set to ``locale``); script errors (and console
    ones with ``console``) in ``errors``."""
    width, height = size
    options: dict[str, Any] = {"locale": locale} if locale else {}
    context = await browser.new_context(viewport={"width": width, "height": height}, **options)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if console:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    await page.goto(served.url + path)
    return page


async def sign_in(page: Any, nick: str, timeout: float | None = None, ready: bool = True) -> None:
    """Give ``nick`` on the welcome form; with ``ready``, wait until the command line takes input."""
    await page.fill("#nick-input", nick)
    await page.press("#nick-input", "Enter")
    await expect(page.locator("#me-nick")).to_have_text(nick, timeout=timeout)
    if ready:
        await expect(page.locator("#line")).to_be_enabled()


async def type_line(page: Any, text: str) -> None:
    """Type ``text`` into the command line and send it."""
    await page.fill("#line", text)
    await page.press("#line", "Enter")


def button(page: Any, command: str) -> Any:
    """The control button that sends ``command``."""
    return page.locator(f'#controls button[data-command="{command}"]')


async def shot(page: Any, name: str) -> None:
    """A screenshot into $BAZAARBOT_SCREENSHOTS, where that is set."""
    folder = os.environ.get("BAZAARBOT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(folder) / name))


#: the games and table sizes the page-layout tests draw: each game at two and at its most seats
GAME_SIZES = [("jaipur", 2), ("yspahan", 2), ("yspahan", 4), ("bazaar", 2), ("bazaar", 6)]


async def say_as(served: Served, nick: str, text: str, room: str = "#bazaar") -> None:
    """A line from ``nick``'s web identity handed straight to the hub (a tab the test does not draw)."""
    await served.hub.handle(Incoming("web", room, User(nick=nick, account=nick), text))


async def caught_up(page: Any, served: Served, room: str = "#bazaar") -> None:
    """Wait until ``page`` shows the table's latest move, drawn by the game's renderer (not the text)."""
    table = served.hub.tables[("web", room)]
    moves = str(table.moves_made)
    await expect(page.locator("#table")).to_have_attribute("data-moves", moves, timeout=TIMEOUT)
    await expect(page.locator("#table .board-fallback")).to_have_count(0, timeout=TIMEOUT)


async def no_serious_violation(page: Any, what: str) -> None:
    """axe-core finds nothing critical or serious on ``page``."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page)
    bad = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in results.response["violations"]
        if v["impact"] in ("critical", "serious")
    ]
    assert not bad, f"{what}: {bad}"
