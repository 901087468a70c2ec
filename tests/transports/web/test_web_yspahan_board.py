"""Yspahan's drawn city on a phone (390x844) and a laptop (1366x768), on the player's own turn with
the supervisor free to move: every road space and every souk is a finger-sized button whose facts
(who sits there, what moving there costs) are read without hovering, the supervisor moves by tapping
its road space (no list of moves), the tower's buttons are finger-sized, and a control scrolled or
tabbed to never lies under the sticky turn bar (or the phone's chat drawer).

The other seats are played by moves handed straight to the hub under their web identities. Checks
that only read a turn share one game, the page resized between the sizes; a move played by a check
is followed by the next such turn of the same game.
Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support.webfixtures import Served, serve
from support.webpage import TIMEOUT, drawn_at, expect, no_serious_violation, open_page, shot, sign_in

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, User
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

PHONE = (390, 844)
LAPTOP = (1366, 768)
SIZES = {"phone": PHONE, "laptop": LAPTOP}
FAST = RateLimit(commands=100_000, per_seconds=1.0)
#: the smallest a tap target may be, in CSS pixels (half a pixel of rounding allowed)
FINGER = 40

#: every visible road space, souk and free shop of the map: "tag.class WxH"
SIZES_OF = """(sel) => [...document.querySelectorAll(sel)].filter((n) => n.offsetParent !== null).map((n) => {
  const r = n.getBoundingClientRect();
  const what = n.tagName.toLowerCase() + '.' + [...n.classList].join('.');
  const text = n.dataset.space || n.textContent;
  return { what: what + ' ' + text, tag: n.tagName, width: r.width, height: r.height };
})"""

#: after a resize: two frames drawn (the page's own resize handlers have run), or 0.2 s at most
SETTLED = """() => new Promise((done) => {
  requestAnimationFrame(() => requestAnimationFrame(done));
  setTimeout(done, 200);
})"""

#: the focused control's box, the sticky turn bar's bottom, the drawer's top and what is drawn at the
#: control's centre (the control itself, or what covers it)
FOCUSED = """() => {
  const node = document.activeElement;
  const r = node.getBoundingClientRect();
  const bar = document.querySelector('#turn-bar').getBoundingClientRect();
  const chat = document.querySelector('.chat');
  const drawer = getComputedStyle(chat).position === 'fixed' ? chat.getBoundingClientRect().top : innerHeight;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { top: r.top, bottom: r.bottom, bar: bar.bottom, end: Math.min(innerHeight, drawer),
           onTop: !!hit && (hit === node || node.contains(hit)),
           what: (node.dataset.command || node.dataset.space || node.textContent).trim() };
}"""

#: per node: whether it lies whole between the sticky turn bar and the end of the view (or the drawer)
IN_VIEW = """(nodes) => {
  const bar = document.querySelector('#turn-bar').getBoundingClientRect().bottom;
  const chat = document.querySelector('.chat');
  const end = getComputedStyle(chat).position === 'fixed' ? chat.getBoundingClientRect().top : innerHeight;
  const whole = (r) => r.top >= bar - 0.5 && r.bottom <= end + 0.5;
  return nodes.map((n) => whole(n.getBoundingClientRect()));
}"""


@dataclass
class Turn:
    """alice's page on her own turn, with the supervisor free to move."""

    served: Served
    page: Any
    table: Any
    seat: int
    #: the random moves' source, kept for the next such turn of the same game
    rng: random.Random

    def legal(self) -> list[str]:
        return self.table.plugin.legal_commands(self.table.state, self.seat)


async def _say(served: Served, nick: str, text: str) -> None:
    """A line from ``nick``'s web identity, handed straight to the hub (a tab the test does not draw)."""
    await served.hub.handle(Incoming("web", "#bazaar", User(nick=nick, account=nick), text))


def _owned_shops(table: Any) -> int:
    public = table.plugin.public_data(table.state)
    return sum(
        s["owner"] is not None
        for nb in public["neighbourhoods"]
        for souk in nb["souks"]
        for s in souk["shops"]
    )


@asynccontextmanager
async def _supervisor_turn(
    browser: Any, tmp_path: Path, n: int, size: tuple[int, int]
) -> AsyncIterator[Turn]:
    """alice seated (by her page's buttons) with ``n - 1`` others, random legal moves until her turn
    comes with a supervisor's move and cubes in the souks, her page drawn at ``size``."""
    async with serve(
        tmp_path / "y.sqlite", games=discover(), default_game="yspahan", rate_limit=FAST
    ) as served:
        page = await open_page(browser, served, size=size, console=True)
        await sign_in(page, "alice", timeout=TIMEOUT)
        await page.locator("#sit-down").click()
        await expect(page.locator("#table")).to_contain_text("alice", timeout=TIMEOUT)
        for i in range(2, n + 1):
            await _say(served, f"p{i}", "/join")
        await page.locator('#controls button[data-command="/start"]').click()
        await expect(page.locator("#table")).not_to_have_attribute("data-moves", "", timeout=TIMEOUT)
        table = served.hub.tables[("web", "#bazaar")]
        seat = next(i for i, s in enumerate(table.players) if s.nick == "alice")
        turn = Turn(served, page, table, seat, random.Random(f"ys{n}"))
        await _next_supervisor_turn(turn, n)
        yield turn
        assert not page.errors, page.errors


async def _next_supervisor_turn(turn: Turn, n: int) -> None:
    """Random legal moves (alice's too, handed to the hub) until her turn comes with a supervisor's
    move, after ``3n`` moves and with cubes in the souks; her page drawn at it."""
    table = turn.table
    for _ in range(2000):
        acting = table.plugin.to_act(table.state)[0]
        commands = table.plugin.legal_commands(table.state, acting)
        moving = any(c.startswith("move ") for c in commands)
        if acting == turn.seat and moving and table.moves_made >= 3 * n and _owned_shops(table) >= 2:
            break
        await _say(turn.served, table.players[acting].nick, turn.rng.choice(commands))
    else:
        raise AssertionError("alice never had a supervisor's move")
    await drawn_at(turn.page, table.moves_made)
    await expect(turn.page.locator("#table .ys-space").first).to_be_visible()


async def _resize(page: Any, size: tuple[int, int]) -> None:
    await page.set_viewport_size({"width": size[0], "height": size[1]})
    await page.evaluate("() => window.scrollTo(0, 0)")
    await page.evaluate(SETTLED)


def _road_moves(turn: Turn) -> dict[str, list[dict[str, Any]]]:
    """alice's supervisor moves by the space they lead to."""
    private = turn.table.plugin.private_data(turn.table.state, turn.seat)
    to: dict[str, list[dict[str, Any]]] = {}
    for move in private["road_moves"]:
        to.setdefault(move["to"], []).append(move)
    return to


def _too_small(boxes: list[dict[str, Any]], least_width: float) -> list[str]:
    return [
        f"{b['what']} {round(b['width'])}x{round(b['height'])}"
        for b in boxes
        if b["height"] < FINGER - 0.5 or b["width"] < least_width - 0.5
    ]


async def _finger_sized_city(turn: Turn, n: int, name: str) -> None:
    """Every road space, souk and free shop a button of 40x40 at least, the map's facts in no title."""
    page = turn.page
    spaces = 1 + sum(len(arm["spaces"]) for arm in turn.table.plugin.public_data(turn.table.state)["road"])
    road = await page.evaluate(SIZES_OF, "#table .ys-space:not(.ys-nb-away)")
    assert len(road) == spaces, f"{name}: {len(road)} road spaces drawn of {spaces}"
    assert {b["tag"] for b in road} == {"BUTTON"}, f"{name}: a road space is no button"
    souks = await page.evaluate(SIZES_OF, "#table .ys-souk-name")
    assert souks and {b["tag"] for b in souks} == {"BUTTON"}, f"{name}: a souk is no button"
    places = await page.evaluate(SIZES_OF, "#table button.ys-place")
    # 40x40 on both sizes: a phone draws each arm of the road as rows of spaces, a laptop
    # gives the city the width of 18 spaces of 40 px
    small = _too_small(road + souks + places, FINGER)
    assert not small, f"{n}p {name}: {small}"
    # the map's facts are never in a hover-only title
    titled = await page.locator("#table .ys-map [title]").count()
    assert titled == 0, f"{name}: {titled} titles in the city"


async def _tower_buttons_finger_tall(turn: Turn, n: int, name: str) -> None:
    tower = await turn.page.evaluate(SIZES_OF, "#table .ys-tower button")
    assert tower, f"{name}: the tower offers no button"
    small = _too_small(tower, FINGER)
    assert not small, f"{n}p {name}: {small}"


async def _own_turn_picture(turn: Turn, n: int, name: str) -> None:
    """The picture of the own turn (kept with BAZAARBOT_SCREENSHOTS), with axe-core on it."""
    await expect(turn.page.locator("#turn")).to_have_class("turn mine")
    await no_serious_violation(turn.page, f"yspahan {n}p {name}")
    await shot(turn.page, f"yspahan-{n}p-supervisor-turn-{name}.png")


@pytest.mark.parametrize("n", [2, 4])
async def test_yspahan_city_and_tower_are_finger_sized_and_the_own_turn_passes_axe_on_a_phone_and_a_laptop(
    browser: Any, tmp_path: Path, n: int
) -> None:
    """One own turn, each size in turn: road spaces, souks, free shops and the tower's buttons are
    finger-sized buttons, the city has no hover-only title, and axe-core finds nothing serious."""
    async with _supervisor_turn(browser, tmp_path, n, LAPTOP) as turn:
        for name, size in SIZES.items():
            await _resize(turn.page, size)
            await _finger_sized_city(turn, n, name)
            await _tower_buttons_finger_tall(turn, n, name)
            await _own_turn_picture(turn, n, name)


async def _road_space_tapped(turn: Turn, size: str) -> None:
    """A road space tapped shows who sits beside it and what moving there costs; a space out of reach
    says so; a souk tapped names each of its shops' sitters."""
    page = turn.page
    public = turn.table.plugin.public_data(turn.table.state)
    sitters: dict[str, list[tuple[str, str]]] = {}
    for nb in public["neighbourhoods"]:
        for souk in nb["souks"]:
            for shop in souk["shops"]:
                for space in (shop["space"] or "").split("/"):
                    if space and shop["owner"] is not None:
                        sitters.setdefault(space, []).append(
                            (souk["id"], public["players"][shop["owner"]]["name"])
                        )
    to = _road_moves(turn)
    # a space the supervisor may reach, with a cube beside it if there is one
    target = next((s for s in to if s in sitters), next(iter(to)))
    space = page.locator(f'#table button.ys-space[data-space="{target}"]')
    label = await space.get_attribute("aria-label") or ""
    for move in to[target]:
        assert f"{move['gold']} gold" in label or not move["gold"], label
    await space.click()
    await expect(space).to_have_attribute("aria-pressed", "true")
    facts = page.locator("#ys-facts")
    await expect(facts).to_contain_text(target)
    await expect(facts).to_be_in_viewport()
    for souk, nick in sitters.get(target, []):
        await expect(facts).to_contain_text(f"{souk}: {nick}")
    here = facts.locator("button.ys-move-here")
    await expect(here).to_have_count(len(to[target]))
    shown = await here.all_inner_texts()
    for move, words in zip(to[target], shown, strict=True):
        assert f"{move['dice']}s" in words, words
        assert (f"{move['gold']} gold" in words) == bool(move["gold"]), words
    # a space nobody can reach now tells so, and who sits beside it
    elsewhere = page.locator("#table button.ys-space:not(.dest)").first
    await elsewhere.click()
    await expect(facts).to_contain_text("The supervisor cannot reach this space now.")
    # a souk tapped: each of its shops' sitter in words
    owned = next(
        (souk, [public["players"][s["owner"]]["name"] for s in souk["shops"] if s["owner"] is not None])
        for nb in public["neighbourhoods"]
        for souk in nb["souks"]
        if any(s["owner"] is not None for s in souk["shops"])
    )
    souk_button = page.locator(f'#table .ys-souk[data-souk="{owned[0]["id"]}"] button.ys-souk-name')
    await souk_button.click()
    await expect(souk_button).to_have_attribute("aria-pressed", "true")
    for nick in owned[1]:
        await expect(facts).to_contain_text(nick)
    await expect(facts).to_contain_text(f"{owned[0]['points']} points")
    await no_serious_violation(page, f"yspahan 4p {size}, a souk's facts shown")
    await shot(page, f"yspahan-4p-souk-facts-{size}.png")


async def _move_controls_clear_of_the_turn_bar(turn: Turn, size: str) -> None:
    """Every move control focused from the page's far end lies in view, under the sticky turn bar, on
    top; on a laptop all of them fit the view at once; the first is in view from the page's top."""
    page = turn.page
    controls = page.locator(
        "#table .ys-tower button.move, #table button.ys-space.dest, #table button.ys-place"
    )
    count = await controls.count()
    assert count >= 2
    for i in range(count):
        # from the page's far end (the turn bar sticks over the table): focus scrolls the page back
        await page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        await controls.nth(i).focus()
        place = await page.evaluate(FOCUSED)
        assert place["top"] >= place["bar"] - 0.5, f"{size}: {place['what']} under the turn bar: {place}"
        assert place["bottom"] <= place["end"] + 0.5, f"{size}: {place['what']} out of view: {place}"
        assert place["onTop"], f"{size}: {place['what']} covered: {place}"
    if size == "laptop":
        # the first of them scrolled to the top (it stops under the bar): every one of them in view
        await page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        await controls.first.evaluate("(n) => n.scrollIntoView({ block: 'start' })")
        shown = await controls.evaluate_all(IN_VIEW)
        assert all(shown), f"{size}: {shown.count(False)} of {count} move controls out of view"
    # the first of them from the page's top too: in view at once, under the bar
    await _resize(page, SIZES[size])
    await page.locator("#table .ys-tower button.move").first.focus()
    place = await page.evaluate(FOCUSED)
    assert place["bar"] - 0.5 <= place["top"] and place["bottom"] <= place["end"] + 0.5, place
    await page.evaluate("() => document.activeElement.blur()")


async def test_yspahan_4p_move_controls_lie_clear_of_the_turn_bar_and_a_tapped_space_or_souk_shows_its_facts(
    browser: Any, tmp_path: Path
) -> None:
    """One four-player own turn, on a phone and then a laptop: every move control tabbed to lies clear
    of the sticky turn bar; then, on each size again, a road space tapped shows who sits beside it and
    what moving there costs, and a souk tapped its sitters (axe-core on the facts shown)."""
    async with _supervisor_turn(browser, tmp_path, 4, PHONE) as turn:
        for size in SIZES:
            await _resize(turn.page, SIZES[size])
            await _move_controls_clear_of_the_turn_bar(turn, size)
        for size in SIZES:
            await _resize(turn.page, SIZES[size])
            await _road_space_tapped(turn, size)


async def _supervisor_moved_by_tapping(turn: Turn) -> None:
    """No list of the supervisor's moves: its lit road spaces are the control, a tap on one and on
    one of its moves plays it."""
    page = turn.page
    # no list (nor button) of the supervisor's moves under the turn: the road is the control
    await expect(page.locator('#controls [data-command^="move "]')).to_have_count(0)
    assert await page.locator("#controls select.move-list").count() == 0
    to = _road_moves(turn)
    lit = await page.locator("#table button.ys-space.dest").evaluate_all(
        "ns => ns.map((n) => n.dataset.space)"
    )
    assert sorted(lit) == sorted(to)
    target = max(to, key=lambda s: len(to[s]))
    await page.locator(f'#table button.ys-space[data-space="{target}"]').click()
    here = page.locator("#ys-facts button.ys-move-here").last
    command = await here.get_attribute("data-command")
    assert command in turn.legal(), (command, turn.legal())
    before = turn.table.moves_made
    await here.click()
    await expect(page.locator("#table")).not_to_have_attribute("data-moves", str(before), timeout=TIMEOUT)
    assert turn.table.last_played is not None and turn.table.last_played.text == command
    assert turn.table.plugin.public_data(turn.table.state)["supervisor"] == target


async def _supervisor_moved_by_the_keyboard(turn: Turn) -> None:
    """Enter on a lit road space gives its first move the keyboard (with a focus ring); one more
    Enter plays it."""
    page = turn.page
    lit = page.locator("#table button.ys-space.dest").first
    target = await lit.get_attribute("data-space")
    await lit.focus()
    await page.keyboard.press("Enter")
    # the space's first move has the keyboard now, not the next space of the road
    focused = page.locator("#ys-facts button.ys-move-here:focus")
    await expect(focused).to_have_count(1)
    command = await focused.get_attribute("data-command")
    assert command in turn.legal(), (command, turn.legal())
    ring = await page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring not in ("none", ""), "no focus ring on the move"
    before = turn.table.moves_made
    await page.keyboard.press("Enter")
    await expect(page.locator("#table")).not_to_have_attribute("data-moves", str(before), timeout=TIMEOUT)
    assert turn.table.last_played is not None and turn.table.last_played.text == command
    assert turn.table.plugin.public_data(turn.table.state)["supervisor"] == target


async def test_yspahan_the_supervisor_moves_by_tapping_its_road_space_not_from_a_list_and_by_the_keyboard(
    browser: Any, tmp_path: Path
) -> None:
    """Three of alice's supervisor turns in one two-player game: moved by tapping on a phone, by
    tapping on a laptop, then on the laptop by the keyboard (its road space, and one more Enter)."""
    async with _supervisor_turn(browser, tmp_path, 2, PHONE) as turn:
        await _supervisor_moved_by_tapping(turn)
        await _resize(turn.page, LAPTOP)
        await _next_supervisor_turn(turn, 2)
        await _supervisor_moved_by_tapping(turn)
        await _next_supervisor_turn(turn, 2)
        await _supervisor_moved_by_the_keyboard(turn)
