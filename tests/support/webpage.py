"""The web page driver for the browser tests: a page of its own, signed in, typing, screenshots.

Each page lives in a browser context of its own (its own localStorage: another
person) and keeps the script errors it saw in ``page.errors``, so a test can
assert the page never failed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from support.webfixtures import Served

TIMEOUT = 20_000  # ms: Playwright's waits (they end as soon as they hold: room for a loaded machine)


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
    """``path`` of ``served`` at ``size`` (in a browser set to ``locale``, where given); script errors
    (and console ones with ``console``) in ``errors``."""
    width, height = size
    context = await browser.new_context(
        viewport={"width": width, "height": height}, **({"locale": locale} if locale else {})
    )
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if console:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    await page.goto(served.url + path)
    return page


async def against_an_easy_ai(page: Any, served: Served, drawn: str = "#hand-panel") -> tuple[Any, int]:
    """alice signed in on ``page``, seated against an easy AI and the game started (``drawn`` shown):
    the running table and alice's seat in its game."""
    await sign_in(page, "alice", timeout=TIMEOUT)
    for line in ("/join", "/addbot easy", "/start"):
        await type_line(page, line)
    await expect(page.locator(drawn)).to_be_visible(timeout=TIMEOUT)
    table = served.hub.tables[("web", "#bazaar")]
    return table, next(i for i, seat in enumerate(table.players) if seat.nick == "alice")


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


#: resolves true once the table is drawn at ``n`` moves (``data-moves``), false after ``ms``: told by
#: the page itself when it sets the attribute, so waiting costs the page nothing
_DRAWN_AT = """([n, ms]) => new Promise((done) => {
  const table = document.querySelector('#table');
  if (!table) return done(false);
  if (table.dataset.moves === n) return done(true);
  const seen = new MutationObserver(() => {
    if (table.dataset.moves === n) { seen.disconnect(); clearTimeout(late); done(true); }
  });
  seen.observe(table, { attributes: true, attributeFilter: ['data-moves'] });
  const late = setTimeout(() => { seen.disconnect(); done(false); }, ms);
})"""


async def drawn_at(page: Any, moves: int, timeout: float = TIMEOUT) -> None:
    """Wait until ``page`` has drawn its table at ``moves`` moves.

    The page tells when it draws it (an ``expect`` backs off to a check a
    second, which idles a test that waits on every move; a check at every
    frame keeps the page drawing frames while it waits).
    """
    if not await page.evaluate(_DRAWN_AT, [str(moves), timeout]):
        shown = await page.evaluate("() => document.querySelector('#table')?.dataset.moves")
        raise AssertionError(f"the page shows the table at {shown!r} moves, not {moves}")


def button(page: Any, command: str) -> Any:
    """The control button that sends ``command``."""
    return page.locator(f'#controls button[data-command="{command}"]')


async def shot(page: Any, name: str) -> None:
    """A screenshot into $BAZAARBOT_SCREENSHOTS, where that is set."""
    folder = os.environ.get("BAZAARBOT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(folder) / name))


async def no_serious_violation(page: Any, what: str) -> None:
    """axe-core finds nothing critical or serious on ``page`` (``what`` names it in the failure)."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page)
    bad = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in results.response["violations"]
        if v["impact"] in ("critical", "serious")
    ]
    assert not bad, f"{what}: {bad}"
