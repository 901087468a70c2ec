"""Your own turn at a glance: on a phone the part of the board you act on, your hand and a move
control are in view together; every control is finger-sized; on a laptop the hand and the controls
are above the fold; the banner stays on top; axe-core finds nothing critical or serious.

One browser for the module; each case is one game played to the page's own turn (the other seats
are played by moves handed straight to the hub under their web identities), then checked at
390x844 and 1366x768 on the play page and the spectator's page (the README's pictures come from
test_web_layout.py).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from support.webfixtures import Served, serve
from support.webpage import (
    GAME_SIZES,
    caught_up,
    expect,
    no_serious_violation,
    open_page,
    say_as,
    sign_in,
)

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

TIMEOUT = 10_000  # ms: Playwright's waits
PHONE = (390, 844)
LAPTOP = (1366, 768)
GAMES = discover()
FAST = RateLimit(commands=100_000, per_seconds=1.0)
#: a control that plays a move: the action bar's, or one drawn on the table
MOVE = "#controls button.move:not([disabled]), #table button.move:not([disabled])"
#: Tab presses at most before the keyboard reaches a move
MAX_TABS = 60
#: the smallest a control may be on a phone, in CSS pixels (half a pixel of rounding allowed)
FINGER = 40

#: every control a finger or a keyboard reaches
CONTROLS = "button, a[href], summary, select, input, [role=tab], [tabindex]:not([tabindex='-1'])"

#: where each part sits on the page, in the viewport's coordinates, and what may cover it
WHERE = """(sel) => [...document.querySelectorAll(sel)].filter((n) => n.offsetParent !== null).map((n) => {
  const r = n.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
})"""

#: the top of the chat drawer on a phone (the viewport's height when it is not fixed at the bottom)
DRAWER_TOP = """() => {
  const chat = document.querySelector('.chat');
  const fixed = chat && getComputedStyle(chat).position === 'fixed';
  return fixed ? chat.getBoundingClientRect().top : window.innerHeight;
}"""

#: the visible controls smaller than a finger: "what (w x h)"
TOO_SMALL = """([sel, least]) => [...document.querySelectorAll(sel)]
  .filter((n) => n.offsetParent !== null && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => [n, n.getBoundingClientRect()])
  .filter(([n, r]) => r.width > 0 && (r.width < least - 0.5 || r.height < least - 0.5))
  .map(([n, r]) => (n.id ? '#' + n.id : n.tagName.toLowerCase() + '.' + [...n.classList].join('.'))
    + ' "' + (n.textContent || n.getAttribute('aria-label') || '').trim().slice(0, 30) + '" '
    + Math.round(r.width) + 'x' + Math.round(r.height))"""


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    return module_browser


async def _size(page: Any, size: tuple[int, int]) -> None:
    await page.set_viewport_size({"width": size[0], "height": size[1]})
    await page.evaluate("() => window.scrollTo(0, 0)")
    await page.wait_for_timeout(60)


def _inside(boxes: list[dict[str, float]], bottom: float, what: str) -> None:
    assert boxes, f"{what} is not on the page"
    for box in boxes:
        assert box["top"] >= -0.5 and box["bottom"] <= bottom + 0.5, f"{what} at {box}, view ends at {bottom}"


async def _play_to_my_turn(served: Served, rng: random.Random, seat: int, at_least: int) -> list[int]:
    """Random legal moves by the others until it is ``seat``'s turn (after ``at_least`` moves);
    the seats that moved since ``seat``'s own last move."""
    table = served.hub.tables[("web", "#bazaar")]
    made = 0
    since: list[int] = []
    while table.running:
        acting = table.plugin.to_act(table.state)[0]
        if acting == seat and made >= at_least:
            return since
        commands = table.plugin.legal_commands(table.state, acting)
        await say_as(served, table.players[acting].nick, rng.choice(commands))
        since = [] if acting == seat else [*since, acting]
        made += 1
    raise AssertionError("the game ended before the page's turn came")


@pytest.mark.parametrize(("game", "n"), GAME_SIZES)
async def test_own_turn_at_a_glance_on_a_phone_finger_sized_and_on_top_on_a_laptop(
    browser: Any, tmp_path: Path, game: str, n: int
) -> None:
    async with serve(tmp_path / "g.sqlite", games=GAMES, default_game=game, rate_limit=FAST) as served:
        page = await open_page(browser, served, size=PHONE, console=True)
        await sign_in(page, "alice", timeout=TIMEOUT, ready=False)
        await page.locator("#sit-down").click()
        await expect(page.locator("#table")).to_contain_text("alice", timeout=TIMEOUT)
        for i in range(2, n + 1):
            await say_as(served, f"p{i}", "/join")
        await page.locator('#controls button[data-command="/start"]').click()
        table = served.hub.tables[("web", "#bazaar")]
        for _wait in range(400):  # the click's /start reaches the hub through the websocket
            if table.running:
                break
            await asyncio.sleep(0.05)
        seat = next(i for i, s in enumerate(table.players) if s.nick == "alice")
        since = await _play_to_my_turn(served, random.Random(f"{game}{n}"), seat, at_least=3 * n)
        await caught_up(page, served)
        await expect(page.locator("#turn")).to_have_class("turn mine", timeout=TIMEOUT)
        watcher = await open_page(browser, served, "/watch/bazaar", size=PHONE, console=True)
        await expect(watcher.locator("#table")).to_have_attribute(
            "data-moves", str(table.moves_made), timeout=TIMEOUT
        )

        # a phone, the page at its top: the acting part of the board, the hand and a move control in view
        await _size(page, PHONE)
        bottom = await page.evaluate(DRAWER_TOP)
        _inside(await page.evaluate(WHERE, "#table .acting"), bottom, f"{game} {n}p: the acting area")
        _inside(await page.evaluate(WHERE, "#hand-panel"), bottom, f"{game} {n}p: your hand")
        enabled = (
            "#controls button.move:not([disabled]), #controls select.move-list, #table .acting button.move"
        )
        _inside((await page.evaluate(WHERE, enabled))[:1], bottom, f"{game} {n}p: a move control")
        # the banner names every move since the page's last turn, not only the last one
        await expect(page.locator("#last-move li")).to_have_count(len(since) or 1)
        # finger-sized: no visible control smaller than 40x40 on the table, in the room bar or the drawer
        small = await page.evaluate(TOO_SMALL, [CONTROLS, FINGER])
        assert not small, f"{game} {n}p on a phone: {small}"
        await no_serious_violation(page, f"{game} {n}p play page, phone")
        await no_serious_violation(watcher, f"{game} {n}p watch page, phone")

        # a laptop: the hand and the controls above the fold; the banner stays on top when the page scrolls
        await _size(page, LAPTOP)
        _inside(await page.evaluate(WHERE, "#hand-panel, #controls"), LAPTOP[1], f"{game} {n}p laptop")
        await no_serious_violation(page, f"{game} {n}p play page, laptop")
        await watcher.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        await no_serious_violation(watcher, f"{game} {n}p watch page, laptop")
        for size in (LAPTOP, PHONE):
            await _size(page, size)
            await page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
            await page.wait_for_timeout(60)
            _inside(await page.evaluate(WHERE, "#turn"), size[1], f"{game} {n}p: the banner after scrolling")

        # a laptop and the keyboard alone: Tab to a move, a ring shows where, Enter plays it
        await _size(page, LAPTOP)
        await page.evaluate("() => document.activeElement && document.activeElement.blur()")
        for _ in range(MAX_TABS):
            await page.keyboard.press("Tab")
            if await page.evaluate(f"() => !!document.activeElement.matches({MOVE!r})"):
                break
        else:
            raise AssertionError(f"{game} {n}p: Tab never reached a move")
        ring = await page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert ring not in ("none", ""), f"{game} {n}p: no focus ring on the move"
        before = table.moves_made
        await page.keyboard.press("Enter")
        await expect(page.locator("#table")).not_to_have_attribute("data-moves", str(before), timeout=TIMEOUT)
        assert table.moves_made > before
        assert not page.errors and not watcher.errors, (page.errors, watcher.errors)
