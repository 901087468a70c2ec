"""The drawn table on a phone, a tablet and a laptop, in every game, at every stage of a game, and
your own turn at a glance.

Each game is one page whose viewport is switched between the three sizes at each checkpoint (start,
mid-game on the player's own turn, mid-game off it, the end). Everything that holds the board (the
market, tower or exchange, the hand, every opponent's panel) must lie inside the viewport or inside
the page's own scroll: no box of the table may scroll inside itself, none may collapse.

On the player's own turn (after 3n moves and again after 4n) the same page is also checked at a
glance: on a phone the part of the board you act on, your hand and a move control are in view
together; every control is finger-sized; on a laptop the hand and the controls are above the fold;
the banner stays on top; the keyboard alone reaches a move and plays it; and at the first of the
two, axe-core finds nothing critical or serious on the play page or the spectator's page (at two
players: a bigger table draws the same kinds of parts). The other seats are played by moves handed
straight to the hub under their web identities.
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
from support.webpage import TIMEOUT, drawn_at, expect, no_serious_violation, open_page, sign_in

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, User
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

PHONE = (390, 844)
LAPTOP = (1366, 768)
VIEWPORTS = {"phone": PHONE, "tablet": (768, 1024), "laptop": LAPTOP}
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

#: per game: what holds its board (each must be whole and in view or in the page's scroll)
PARTS = {
    "jaipur": [".jp-market", ".jp-piles", ".jp-player"],
    "yspahan": [".ys-tower", ".ys-map", ".ys-nb", ".ys-players tr"],
    "bazaar": [".bz-exchange", ".bz-fields", ".bz-player"],
}

#: the page's own check (every part present, not collapsed, not cut by any box that clips)
CHECK = (TESTS_DIR / "support" / "layout_check.js").read_text()


#: after a resize: two frames drawn (the page's own resize handlers have run), or 0.2 s at most
SETTLED = """() => new Promise((done) => {
  requestAnimationFrame(() => requestAnimationFrame(done));
  setTimeout(done, 200);
})"""


async def _page(browser: Any, served: Served, nick: str) -> Any:
    page = await open_page(browser, served, size=LAPTOP, console=True)
    await sign_in(page, nick, timeout=TIMEOUT)
    return page


async def _watch(browser: Any, served: Served) -> Any:
    """The spectator page of the room, its errors kept."""
    return await open_page(browser, served, "/watch/bazaar", size=PHONE, console=True)


async def _say(served: Served, nick: str, text: str) -> None:
    """A line from ``nick``'s web identity, handed straight to the hub (a tab the test does not draw)."""
    await served.hub.handle(Incoming("web", "#bazaar", User(nick=nick, account=nick), text))


async def _caught_up(page: Any, served: Served) -> None:
    await drawn_at(page, served.hub.tables[("web", "#bazaar")].moves_made, TIMEOUT)
    # and drawn by the game's renderer, which the page loads by itself the first time (not the text)
    await expect(page.locator("#table .board-fallback")).to_have_count(0, timeout=TIMEOUT)


async def _size(page: Any, size: tuple[int, int]) -> None:
    """``size`` for ``page``, at the page's top, once the page has drawn itself at that size."""
    await page.set_viewport_size({"width": size[0], "height": size[1]})
    await page.evaluate("() => window.scrollTo(0, 0)")
    await page.evaluate(SETTLED)


async def _check_everywhere(page: Any, game: str, stage: str, n: int, extra: list[str]) -> None:
    for size, (width, height) in VIEWPORTS.items():
        await page.set_viewport_size({"width": width, "height": height})
        await page.evaluate(SETTLED)
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


def _inside(boxes: list[dict[str, float]], bottom: float, what: str) -> None:
    assert boxes, f"{what} is not on the page"
    for box in boxes:
        assert box["top"] >= -0.5 and box["bottom"] <= bottom + 0.5, f"{what} at {box}, view ends at {bottom}"


async def _play_until(
    pages: list[Any], served: Served, rng: random.Random, done: Any, at_least: int = 0, seat: int = -1
) -> list[int]:
    """Random legal moves by whoever is to act, until ``done(table)`` (after ``at_least`` moves); the
    seats that moved since ``seat``'s own last move.

    Every few moves the page catches up: a tab that falls far behind is disconnected (and comes back),
    which is not what this test is about."""
    table = served.hub.tables[("web", "#bazaar")]
    made = 0
    since: list[int] = []
    while table.running and not (made >= at_least and done(table)):
        if made and made % 20 == 0:
            for page in pages:
                await _caught_up(page, served)
        acting = table.plugin.to_act(table.state)[0]
        commands = table.plugin.legal_commands(table.state, acting)
        before = table.moves_made
        await _say(served, table.players[acting].nick, rng.choice(commands))
        assert table.moves_made > before or not table.running, commands
        since = [] if acting == seat else [*since, acting]
        made += 1
    return since


async def _check_at_a_glance(
    page: Any, watcher: Any, served: Served, what: str, since: list[int], axe: bool = True
) -> None:
    """The page on its own turn: what a phone shows at once, finger-sized controls, axe-core on both
    pages at both sizes (with ``axe``), the banner on top, and a move reached and played by the keyboard
    alone."""
    table = served.hub.tables[("web", "#bazaar")]
    await expect(page.locator("#turn")).to_have_class("turn mine", timeout=TIMEOUT)
    await drawn_at(watcher, table.moves_made, TIMEOUT)

    # a phone, the page at its top: the acting part of the board, the hand and a move control in view
    await _size(page, PHONE)
    bottom = await page.evaluate(DRAWER_TOP)
    _inside(await page.evaluate(WHERE, "#table .acting"), bottom, f"{what}: the acting area")
    _inside(await page.evaluate(WHERE, "#hand-panel"), bottom, f"{what}: your hand")
    enabled = "#controls button.move:not([disabled]), #controls select.move-list, #table .acting button.move"
    _inside((await page.evaluate(WHERE, enabled))[:1], bottom, f"{what}: a move control")
    # the banner names every move since the page's last turn, not only the last one
    await expect(page.locator("#last-move li")).to_have_count(len(since) or 1)
    # finger-sized: no visible control smaller than 40x40 on the table, in the room bar or the drawer
    small = await page.evaluate(TOO_SMALL, [CONTROLS, FINGER])
    assert not small, f"{what} on a phone: {small}"
    if axe:
        await no_serious_violation(page, f"{what} play page, phone")
        await no_serious_violation(watcher, f"{what} watch page, phone")

    # a laptop: the hand and the controls above the fold; the banner stays on top when the page scrolls
    await _size(page, LAPTOP)
    _inside(await page.evaluate(WHERE, "#hand-panel, #controls"), LAPTOP[1], f"{what} laptop")
    if axe:
        await no_serious_violation(page, f"{what} play page, laptop")
        await watcher.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        await no_serious_violation(watcher, f"{what} watch page, laptop")
        await watcher.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    for size in (LAPTOP, PHONE):
        await _size(page, size)
        await page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        await page.evaluate(SETTLED)
        _inside(await page.evaluate(WHERE, "#turn"), size[1], f"{what}: the banner after scrolling")

    # a laptop and the keyboard alone: Tab to a move, a ring shows where, Enter plays it
    await _size(page, LAPTOP)
    await page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(MAX_TABS):
        await page.keyboard.press("Tab")
        if await page.evaluate(f"() => !!document.activeElement.matches({MOVE!r})"):
            break
    else:
        raise AssertionError(f"{what}: Tab never reached a move")
    ring = await page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring not in ("none", ""), f"{what}: no focus ring on the move"
    before = table.moves_made
    await page.keyboard.press("Enter")
    await expect(page.locator("#table")).not_to_have_attribute("data-moves", str(before), timeout=TIMEOUT)
    assert table.moves_made > before


@pytest.mark.parametrize(
    ("game", "n"),
    [("jaipur", 2), ("yspahan", 2), ("yspahan", 4), ("bazaar", 2), ("bazaar", 6)],
)
async def test_whole_table_in_view_on_phone_tablet_and_laptop_and_own_turn_at_a_glance(
    browser: Any, tmp_path: Path, game: str, n: int
) -> None:
    games = discover()
    fast = RateLimit(commands=100_000, per_seconds=1.0)  # the test plays whole games in seconds
    async with serve(tmp_path / "l.sqlite", games=games, default_game=game, rate_limit=fast) as served:
        page = await _page(browser, served, "alice")
        watcher = await _watch(browser, served)
        # seated and started by the page's own buttons
        await page.locator("#sit-down").click()
        await expect(page.locator("#table")).to_contain_text("alice", timeout=TIMEOUT)
        for i in range(2, n + 1):
            await _say(served, f"p{i}", "/join")
        await page.locator('#controls button[data-command="/start"]').click()
        started = expect(page.locator("#table"))
        await started.not_to_have_attribute("data-moves", "", timeout=TIMEOUT)
        table = served.hub.tables[("web", "#bazaar")]
        assert table.running
        seat = next(i for i, s in enumerate(table.players) if s.nick == "alice")
        rng = random.Random(f"{game}{n}")
        hand = ["#hand-panel"] if game != "bazaar" else []  # Bazaar has no secrets
        await _caught_up(page, served)
        await _check_everywhere(page, game, "start", n, hand)
        mine = lambda t: seat in t.plugin.to_act(t.state)  # noqa: E731
        # the own turn after 3n moves, and again after 4n (a longer banner, another tower and hand)
        for stage, moves in (("my-turn", 3 * n), ("my-turn-later", 4 * n)):
            later = max(0, moves - table.moves_made)
            since = await _play_until([page, watcher], served, rng, mine, at_least=later, seat=seat)
            await _caught_up(page, served)
            await expect(page.locator("button.move").first).to_be_visible()
            await _check_everywhere(page, game, stage, n, [*hand, "button.move"])
            # axe-core once per game, at two players: the later turn, and a bigger table, draw the same
            # kinds of parts again
            first = stage == "my-turn" and n == 2
            await _check_at_a_glance(page, watcher, served, f"{game} {n}p after {moves} moves", since, first)
        await _play_until([page, watcher], served, rng, lambda t: not mine(t), at_least=1)
        await _caught_up(page, served)
        await _check_everywhere(page, game, "off-turn", n, hand)
        # the rest of the game: both pages step away and come back at the end (a reload finds the
        # nick and the room again), which keeps the browser from drawing tables nobody looks at (a
        # whole match drawn on the player's page: test_web_table)
        await page.goto("about:blank")
        await watcher.goto("about:blank")
        await _play_until([], served, rng, lambda t: False)
        await page.goto(served.url + "/")
        await watcher.goto(served.url + "/watch/bazaar")
        await expect(page.locator(".result")).to_be_visible(timeout=TIMEOUT)
        await _check_everywhere(page, game, "end", n, [".result", ".result-breakdown tr"])
        await expect(watcher.locator(".result")).to_be_visible(timeout=TIMEOUT)
        assert not page.errors, page.errors
        assert not watcher.errors, watcher.errors  # the spectator's page
