"""The replay page on a phone and a laptop: the graph's points take a finger's tap, and an address
that names no game is a page in the reader's language that says where their games are listed.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest
from support.webfixtures import Served, serve
from support.webpage import TIMEOUT, expect, shot

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, User

pytestmark = pytest.mark.browser

PLENTY = RateLimit(commands=100_000, per_seconds=1)
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
#: the least a finger's tap area is across (CSS pixels), and the least a drawn dot is
TAP = 24
DOT = 6
#: each point's centre and drawn radius on the screen, and what the page finds under a tap beside it
_POINTS = """(reach) => [...document.querySelectorAll('#chance-graph circle.point')].map((dot) => {
  const box = dot.getBoundingClientRect();
  const scale = dot.ownerSVGElement.getBoundingClientRect().width / 600;
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const beside = [[reach, 0], [-reach, 0], [0, reach], [0, -reach]].map(([dx, dy]) =>
    document.elementFromPoint(x + dx, y + dy) === dot);
  return { x, y, radius: dot.r.baseVal.value * scale, step: dot.dataset.step, beside };
})"""


def _line(served: Served, nick: str, text: str) -> None:
    served.hub.process(Incoming("web", "#c", User(nick), text))


def _finished_count_game(served: Served) -> int:
    _line(served, "alice", "/new count target=10")
    _line(served, "bob", "/join")
    _line(served, "alice", "/start")
    table = served.hub.tables[("web", "#c")]
    game_id, nicks = table.game_id, [s.nick for s in table.players]
    for seat, move in ((0, "add 3"), (1, "add 2"), (0, "add 2"), (1, "add 1"), (0, "add 2")):
        _line(served, nicks[seat], move)
    assert not table.running
    return game_id


@pytest.mark.parametrize("size", sorted(SIZES))
async def test_a_replay_graphs_points_take_a_fingers_tap(browser: Any, tmp_path: Path, size: str) -> None:
    async with serve(tmp_path / "r.sqlite", rate_limit=PLENTY, review_after_game=5.0) as served:
        game_id = _finished_count_game(served)
        width, height = SIZES[size]
        context = await browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(f"{served.url}/replay/{game_id}")
        await expect(page.locator("#chance-graph circle.point")).to_have_count(5, timeout=TIMEOUT)
        await page.locator("#chance-graph").scroll_into_view_if_needed()
        points = await page.evaluate(_POINTS, TAP / 2 - 0.5)
        for point in points:
            assert all(point["beside"]), f"{size}: a tap {TAP / 2 - 0.5:.1f} px beside {point} misses it"
            assert point["radius"] * 2 >= DOT, f"{size}: a dot {point['radius'] * 2:.1f} px across"
        for point in (points[1], points[-2]):  # a tap just below a point jumps to its step
            await page.touchscreen.tap(point["x"], point["y"] + TAP / 2 - 1)
            await expect(page.locator("#step")).to_have_attribute("data-at", point["step"])
        await shot(page, f"replay-graph-{size}.png")
        assert not errors, errors


@pytest.mark.parametrize("address", ["abc", "999"])
async def test_an_address_naming_no_game_is_a_page_in_the_readers_language_linking_to_the_tables(
    browser: Any, tmp_path: Path, address: str
) -> None:
    async with serve(tmp_path / "r.sqlite") as served:
        # no game id at all, or no such game: an HTML page answered as not found
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{served.url}/replay/{address}") as answer,
        ):
            assert answer.status == 404 and answer.content_type == "text/html"
        for size, (width, height) in SIZES.items():
            context = await browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            response = await page.goto(f"{served.url}/replay/{address}")
            assert response is not None and response.status == 404
            await expect(page.locator(".replay-where")).to_contain_text("/history", timeout=TIMEOUT)
            shown = await page.locator("#table").inner_text()
            assert "Partie" in shown and "game" not in shown, shown  # the reader's words
            await shot(page, f"replay-missing-{address}-{size}.png")
            home = page.locator(".replay-home")
            await expect(home).to_have_text("Zurück zu den Tischen")
            async with page.expect_navigation():
                await home.click()
            await expect(page.locator("#nick-input")).to_be_visible(timeout=TIMEOUT)  # the tables page
            assert not errors, errors
            await context.close()
