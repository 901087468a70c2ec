"""The drawn table on a phone, a tablet and a laptop, in every game, at every stage of a game.

One browser per module; each game is one page whose viewport is switched
between the three sizes at each checkpoint (start, mid-game on the
player's own turn, mid-game off it, the end). Everything that holds the
board (the market, tower or exchange, the hand, every opponent's panel)
must lie inside the viewport or inside the page's own scroll: no box of
the table may scroll inside itself, none may collapse. The other seats are
played by moves handed straight to the hub under their web identities.
Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures (docs/screenshots/).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from support.paths import TESTS_DIR
from support.webfixtures import Served, serve
from support.webpage import GAME_SIZES, caught_up, expect, open_page, say_as, sign_in

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

TIMEOUT = 10_000  # ms: Playwright's waits
VIEWPORTS = {"phone": (390, 844), "tablet": (768, 1024), "laptop": (1366, 768)}
#: per game: what holds its board (each must be whole and in view or in the page's scroll)
PARTS = {
    "jaipur": [".jp-market", ".jp-piles", ".jp-player"],
    "yspahan": [".ys-tower", ".ys-map", ".ys-nb", ".ys-players tr"],
    "bazaar": [".bz-exchange", ".bz-fields", ".bz-player"],
}

#: the page's own check (every part present, not collapsed, not cut by any box that clips)
CHECK = (TESTS_DIR / "support" / "layout_check.js").read_text()


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    return module_browser


async def _page(browser: Any, served: Served, nick: str) -> Any:
    page = await open_page(browser, served, size=(1366, 768), console=True)
    await sign_in(page, nick, timeout=TIMEOUT)
    return page


async def _watch(browser: Any, served: Served) -> Any:
    """The spectator page of the room, its errors kept."""
    return await open_page(browser, served, "/watch/bazaar", size=(390, 844), console=True)


async def _check_everywhere(page: Any, game: str, stage: str, n: int, extra: list[str]) -> None:
    for size, (width, height) in VIEWPORTS.items():
        await page.set_viewport_size({"width": width, "height": height})
        await page.wait_for_timeout(30)
        problems = await page.evaluate(CHECK, PARTS[game] + extra)
        assert not problems, f"{game} {n}p, {stage}, {size} {width}x{height}: {problems}"
        folder = os.environ.get("BAZAARBOT_SCREENSHOTS")
        wanted = n == 2 and (stage == "my-turn" or (stage == "end" and size == "phone"))
        if folder and wanted and size in ("phone", "laptop"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            # your own turn on a phone: what the screen shows at once (the rest of the page scrolls)
            whole = not (stage == "my-turn" and size == "phone")
            await page.evaluate("() => window.scrollTo(0, 0)")
            await page.screenshot(path=str(Path(folder) / f"{game}-{n}p-{stage}-{size}.png"), full_page=whole)


async def _play_until(
    pages: list[Any], served: Served, rng: random.Random, done: Any, at_least: int = 0
) -> None:
    """Random legal moves by whoever is to act, until ``done(table)`` (after ``at_least`` moves).

    Every few moves the page catches up: a tab that falls far behind is disconnected (and comes back),
    which is not what this test is about."""
    table = served.hub.tables[("web", "#bazaar")]
    made = 0
    while table.running and not (made >= at_least and done(table)):
        if made and made % 20 == 0:
            for page in pages:
                await caught_up(page, served)
        seat = table.plugin.to_act(table.state)[0]
        commands = table.plugin.legal_commands(table.state, seat)
        before = table.moves_made
        await say_as(served, table.players[seat].nick, rng.choice(commands))
        assert table.moves_made > before or not table.running, commands
        made += 1


@pytest.mark.parametrize(("game", "n"), GAME_SIZES)
async def test_whole_table_in_view_on_phone_tablet_and_laptop(
    browser: Any, tmp_path: Path, game: str, n: int
) -> None:
    games = discover()
    fast = RateLimit(commands=100_000, per_seconds=1.0)  # the test plays whole games in seconds
    async with serve(tmp_path / "l.sqlite", games=games, default_game=game, rate_limit=fast) as served:
        page = await _page(browser, served, "alice")
        watcher = await _watch(browser, served)
        nicks = ["alice"] + [f"p{i}" for i in range(2, n + 1)]
        await page.fill("#line", "/join")
        await page.press("#line", "Enter")
        await expect(page.locator("#table")).to_contain_text("alice", timeout=TIMEOUT)
        for nick in nicks[1:]:
            await say_as(served, nick, "/join")
        await page.fill("#line", "/start")
        await page.press("#line", "Enter")
        started = expect(page.locator("#table"))
        await started.not_to_have_attribute("data-moves", "", timeout=TIMEOUT)
        table = served.hub.tables[("web", "#bazaar")]
        seat = next(i for i, s in enumerate(table.players) if s.nick == "alice")
        rng = random.Random(f"{game}{n}")
        hand = ["#hand-panel"] if game != "bazaar" else []  # Bazaar has no secrets
        await caught_up(page, served)
        await _check_everywhere(page, game, "start", n, hand)
        mine = lambda t: seat in t.plugin.to_act(t.state)  # noqa: E731
        await _play_until([page, watcher], served, rng, mine, at_least=4 * n)
        await caught_up(page, served)
        await expect(page.locator("button.move").first).to_be_visible()
        await _check_everywhere(page, game, "my-turn", n, [*hand, "button.move"])
        await _play_until([page, watcher], served, rng, lambda t: not mine(t), at_least=1)
        await caught_up(page, served)
        await _check_everywhere(page, game, "off-turn", n, hand)
        # the rest of the game: the spectator watches a whole game of each game (at two players), and the
        # player's page all of Jaipur's; the other pages step away and come back at the end (a reload finds
        # the nick and the room again), which keeps the browser from drawing tables nobody looks at
        whole = game == "jaipur"
        watched = n == 2
        staying = [tab for tab, stays in ((page, whole), (watcher, watched)) if stays]
        for tab in (page, watcher):
            if tab not in staying:
                await tab.goto("about:blank")
        await _play_until(staying, served, rng, lambda t: False)
        if not whole:
            await page.goto(served.url + "/")
        if not watched:
            await watcher.goto(served.url + "/watch/bazaar")
        await expect(page.locator(".result")).to_be_visible(timeout=TIMEOUT)
        await _check_everywhere(page, game, "end", n, [".result", ".result-breakdown tr"])
        await expect(watcher.locator(".result")).to_be_visible(timeout=TIMEOUT)
        assert not page.errors, page.errors
        assert not watcher.errors, watcher.errors  # the spectator's page
