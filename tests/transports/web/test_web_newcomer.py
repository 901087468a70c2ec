"""A newcomer at the web table: buttons for the seats, answers where the eye is, the clock on screen.

Each test is a Jaipur table on its own sqlite
file, where a person sits down, adds an AI and starts by buttons only.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from support.waits import wait_until
from support.webfixtures import Served, serve
from support.webpage import TIMEOUT

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, Say, Tell, User
from bazaarbot.registry import discover
from bazaarbot.table.options import hints_on

pytestmark = pytest.mark.browser

GAMES = discover()
FAST = RateLimit(commands=10_000, per_seconds=1)
ALICE = User("alice", account="alice")  # the web identity of the page's player


def _expect(locator: Any) -> Any:
    from playwright.async_api import expect

    return expect(locator)


async def _open(browser: Any, served: Served, nick: str, width: int = 390, height: int = 844) -> Any:
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    await page.goto(served.url + "/")
    await page.fill("#nick-input", nick)
    await page.press("#nick-input", "Enter")
    await _expect(page.locator("#me-nick")).to_have_text(nick, timeout=TIMEOUT)
    return page


async def _type(page: Any, text: str) -> None:
    await page.fill("#line", text)
    await page.press("#line", "Enter")


async def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("BAZAARBOT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(folder) / name))


def _button(page: Any, command: str) -> Any:
    return page.locator(f'#controls button[data-command="{command}"]')


async def _against_the_ai(page: Any, served: Served) -> Any:
    """Sit down, add an easy AI, start: all by buttons. The running table."""
    await page.locator("#sit-down").click()
    await _expect(page.locator("#add-ai")).to_be_visible(timeout=TIMEOUT)
    await page.select_option("#ai-level", "easy")
    await page.locator("#add-ai").click()
    await _expect(page.locator("#table")).to_contain_text("AI:easy", timeout=TIMEOUT)
    await _button(page, "/start").click()
    await _expect(page.locator("#hand-panel")).to_be_visible(timeout=TIMEOUT)
    return served.hub.tables[("web", "#bazaar")]


async def _alone_against_the_ai(browser: Any, served: Served) -> tuple[Any, Any]:
    """alice's phone page at a table against an easy AI, her turn come: the page and the table."""
    alice = await _open(browser, served, "alice")
    table = await _against_the_ai(alice, served)
    await _expect(alice.locator("#turn")).to_contain_text("Your turn", timeout=TIMEOUT)
    return alice, table


async def _with_bob(browser: Any, served: Served) -> tuple[Any, Any, Any, int]:
    """alice (on a phone) sits down by the button, the game as set; bob (on a laptop) joins; alice
    starts. Their pages, the table, alice's seat."""
    alice = await _open(browser, served, "alice")
    bob = await _open(browser, served, "bob", 1366, 768)
    await alice.locator("#sit-down").click()
    await _expect(alice.locator("#add-ai")).to_be_visible(timeout=TIMEOUT)
    await _button(bob, "/join").click()
    await _expect(alice.locator("#table")).to_contain_text("bob", timeout=TIMEOUT)
    await _button(alice, "/start").click()
    await _expect(alice.locator("#hand-panel")).to_be_visible(timeout=TIMEOUT)
    table = served.hub.tables[("web", "#bazaar")]
    return alice, bob, table, table.game_seat_of("a:alice")


async def test_seat_buttons_sit_down_add_an_ai_start_and_none_at_a_full_table(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "s.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        alice = await _open(browser, served, "alice")
        bob = await _open(browser, served, "bob", 1366, 768)
        await _expect(bob.locator("#sit-down")).to_be_visible(timeout=TIMEOUT)
        table = await _against_the_ai(alice, served)
        assert [s.nick for s in table.players] == ["alice", "AI:easy"] or len(table.players) == 2
        # the commands the buttons sent show in the author's log, as typed ones do
        for command in ("/join", "/addbot easy", "/start"):
            await _expect(alice.locator("#logs")).to_contain_text(command)
        # on a phone the chat is a closed drawer that still counts what people say
        await _type(bob, "welcome alice")
        await _expect(alice.locator("#chat-badge")).to_have_text("1", timeout=TIMEOUT)
        await alice.locator("#tab-chat").click()
        await _expect(alice.locator("#logs")).to_contain_text("welcome alice")
        await _expect(alice.locator("#chat-badge")).to_have_text("")
        await alice.locator("#tab-chat").click()  # and closes again
        # the table is full: bob is offered no seat, and sees the game
        await _expect(bob.locator("#table .jp-market")).to_be_visible(timeout=TIMEOUT)
        assert await _button(bob, "/join").count() == 0
        await _expect(bob.locator("#turn")).not_to_contain_text("2–2")
        assert not alice.errors and not bob.errors, (alice.errors, bob.errors)


async def test_a_refusal_stands_over_the_table_in_its_room_until_the_next_action(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "r.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        alice, table = await _alone_against_the_ai(browser, served)
        await _expect(alice.locator("#controls .verb-group").first).to_be_visible(timeout=TIMEOUT)
        kinds = set(table.plugin.public_data(table.state)["market"])
        missing = next(
            k for k in ("diamond", "gold", "silver", "cloth", "spice", "leather") if k not in kinds
        )
        before = table.moves_made
        await _type(alice, f"take {missing}")
        feedback = alice.locator("#feedback")
        await _expect(feedback).to_be_visible(timeout=TIMEOUT)
        await _expect(feedback).to_contain_text(f"no {missing}", timeout=TIMEOUT)
        box = await feedback.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box  # in sight
        assert table.moves_made == before
        await _shot(alice, "jaipur-refusal-phone.png")
        # not among the private lines, and the hand refreshes so far made no badge
        assert f"no {missing}" not in await alice.locator("#private").inner_text()
        await _expect(alice.locator("#private-badge")).to_have_text("")
        # a second room keeps its own answers: the refusal is not shown there
        await alice.fill("#join-room", "#side")
        await alice.press("#join-room", "Enter")
        await _expect(alice.locator("#room-title")).to_have_text("#side", timeout=TIMEOUT)
        await _expect(feedback).to_be_hidden()
        await alice.locator(".room-name", has_text="#bazaar").click()
        await _expect(feedback).to_contain_text(f"no {missing}")
        # the next action clears it; a command's answer takes its place
        await _type(alice, "/rules")
        await _expect(feedback).not_to_contain_text(f"no {missing}", timeout=TIMEOUT)
        # the answer itself, before the next line (the box empties at once when a line is typed,
        # and an answer still on its way would stand in it after the chat line)
        await _expect(feedback).to_contain_text("Which game?", timeout=TIMEOUT)
        await _type(alice, "good luck")
        await _expect(feedback).to_be_hidden(timeout=TIMEOUT)
        assert not alice.errors, alice.errors


async def test_the_countdown_shows_on_every_tab_and_turns_urgent_in_the_last_30_seconds(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serve(tmp_path / "c.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        # a tab asks the server's time again after its first clock reading (a view may come late)
        asked: set[int] = set()
        answer = served.transport._ping

        async def ping(conn: Any, frame: dict[str, Any]) -> None:
            asked.add(id(conn))
            await answer(conn, frame)

        monkeypatch.setattr(served.transport, "_ping", ping)
        alice, table = await _alone_against_the_ai(browser, served)
        clock = alice.locator("#clock")
        await _expect(clock).to_be_visible(timeout=TIMEOUT)  # the default clock: minutes, not urgent
        await _expect(clock).not_to_have_class("clock mine urgent")
        await _type(alice, "/clock 90s")  # long enough for a loaded machine's slow reads below
        await _expect(alice.locator("#logs")).to_contain_text("Turn clock: 1m 30s", timeout=TIMEOUT)
        await _expect(clock).to_contain_text("alice: 1:", timeout=TIMEOUT)  # "alice: 1:30 left"
        await _expect(clock).to_have_class("clock mine")
        # the table's clock follows the awaited decision (a tab's view until then foresees its deadline):
        # the second tab's joining then sends the deadline it runs to to both tabs
        await served.hub.tick()
        assert "foreseen" not in served.hub.table_view("web", "#bazaar", "a:alice")["clock"]
        second = await alice.context.new_page()  # another tab of the same person
        second.errors = []
        second.on("pageerror", lambda e: second.errors.append(str(e)))
        await second.goto(served.url + "/")
        await _expect(second.locator("#clock")).to_be_visible(timeout=TIMEOUT)
        await served.hub.tick()
        # both tabs count down to the same deadline, within a second
        views = [served.hub.table_view("web", "#bazaar", "a:alice")["clock"] for _ in range(2)]
        assert views[0]["deadline"] == views[1]["deadline"]
        # each tab ticks on its own timer, which a loaded machine may run late: read both until the
        # reads fall within one tick of each other
        shown: list[str] = []

        async def read_both() -> list[int] | None:
            shown[:] = [await p.locator("#clock").inner_text() for p in (alice, second)]
            times = [re.search(r"(\d+):(\d\d)", text) for text in shown]
            left = [int(m.group(1)) * 60 + int(m.group(2)) for m in times if m]
            return left if len(left) == 2 and abs(left[0] - left[1]) <= 1 else None

        left = await wait_until(read_both, what="both tabs within one tick of each other", interval=0.25)
        assert abs(left[0] - left[1]) <= 1 and 30 < left[0] <= 90, shown
        await wait_until(lambda: len(asked) >= 2, what="each tab asking the server's time")
        await _type(alice, "/clock 30s")  # the last call: the countdown turns urgent
        await _expect(clock).to_have_class("clock mine urgent", timeout=TIMEOUT)
        await _expect(second.locator("#clock")).to_have_class("clock mine urgent", timeout=TIMEOUT)
        assert table.running
        assert not alice.errors and not second.errors, (alice.errors, second.errors)


async def test_answers_and_news_of_your_own_seat_stand_in_view_and_the_drawer_opens_at_the_newest_line(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "a.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        alice = await _open(browser, served, "alice")
        # before sitting: the game, hints and the clock are buttons; Sit down sends them
        await alice.locator('.setup-choice button[data-choice="yspahan"]').click()
        await alice.locator('.setup-choice button[data-choice="on"]').click()
        await alice.locator('.setup-choice button[data-choice="5m"]').click()
        await alice.locator("#sit-down").click()
        await _expect(alice.locator("#table")).to_contain_text("alice", timeout=TIMEOUT)
        await wait_until(lambda: ("web", "#bazaar") in served.hub.tables, TIMEOUT / 1000, "alice's table")
        table = served.hub.tables[("web", "#bazaar")]
        assert table.game_name == "yspahan" and hints_on(table.options)
        await _expect(alice.locator("#logs")).to_contain_text("/clock 5m", timeout=TIMEOUT)
        assert table.clock_seconds() == 300
        feedback = alice.locator("#feedback")

        async def in_view(text: str) -> None:
            await _expect(feedback).to_contain_text(text, timeout=TIMEOUT)
            box = await feedback.bounding_box()
            drawer = await alice.locator(".chat").bounding_box()
            assert (
                box is not None
                and drawer is not None
                and box["y"] >= 0
                and box["y"] + box["height"] <= drawer["y"]
            )

        # the answer to a command typed alone at the table
        await _type(alice, "/start")
        await in_view("needs at least 2 players")
        # a public line about the reader's own seat, and a reminder of the clock, stand there too
        await served.transport.send(
            Say("web", "#bazaar", "Time is up for alice: the AI plays it.", about="alice")
        )
        await in_view("Time is up for alice")
        await served.transport.send(
            Say("web", "#bazaar", "Time is up for bob: the AI plays it.", about="bob")
        )
        await served.transport.send(
            Tell("web", "alice", "Your move at #bazaar: 1m left.", key=ALICE.key, urgent=True)
        )
        await in_view("1m left")
        assert "bob" not in await feedback.inner_text()
        # many lines later the drawer opens at the newest one
        for i in range(60):
            await served.transport.send(Say("web", "#bazaar", f"line {i}"))
        await alice.locator("#tab-chat").click()
        newest = alice.locator("#logs .log:not([hidden]) .line").last
        await _expect(newest).to_contain_text("line 59", timeout=TIMEOUT)
        pane = await alice.locator("#logs").bounding_box()
        last = await newest.bounding_box()
        assert (
            pane is not None
            and last is not None
            and last["y"] + last["height"] <= pane["y"] + pane["height"] + 1
        )
        assert not alice.errors, alice.errors


async def test_the_nickname_dialog_is_over_the_banner_and_a_refused_notification_is_said(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "n.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        # the browser refuses notifications, as a person who taps "Block" makes it
        await context.add_init_script("Notification.requestPermission = () => Promise.resolve('denied')")
        page = await context.new_page()
        await page.goto(served.url + "/")
        nick = page.locator("#nick-input")
        await _expect(nick).to_be_visible(timeout=TIMEOUT)
        box = await nick.bounding_box()
        assert box is not None
        on_top = await page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).id", [box["x"] + 5, box["y"] + box["height"] / 2]
        )
        assert on_top == "nick-input"
        await page.fill("#nick-input", "carol")
        await page.press("#nick-input", "Enter")
        await _expect(page.locator("#me-nick")).to_have_text("carol", timeout=TIMEOUT)
        await page.set_viewport_size({"width": 1366, "height": 768})
        await page.locator("#notify").click()
        await _expect(page.locator("#feedback")).to_contain_text("blocks notifications", timeout=TIMEOUT)
        await _expect(page.locator("#notify")).to_be_hidden()


async def test_leave_during_a_game_asks_first_then_an_ai_plays_on_and_the_seat_comes_back_in_a_reopened_tab(
    browser: Any, tmp_path: Path
) -> None:
    # bob plays on, so the game does not pause (a paused game gives the seat back when its owner returns)
    async with serve(tmp_path / "l.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        alice, bob, table, seat = await _with_bob(browser, served)
        # one tap only asks; "Stay" keeps the seat as it was
        await alice.locator("#leave-game").click()
        await _expect(alice.locator(".leave-question")).to_contain_text("An AI plays on for you")
        leave = alice.locator('#seat-controls button[data-command="/leave"]')  # under the table, not a move
        assert await leave.count() == 1
        await alice.locator("#leave-stay").click()
        await _expect(alice.locator("#leave-game")).to_be_visible()
        assert table.players[seat].ai is None and await leave.count() == 0
        # asked again and confirmed: /leave is sent, an AI plays on, the page offers the seat back
        await alice.locator("#leave-game").click()
        await leave.click()
        await _expect(alice.locator("#logs")).to_contain_text("/leave", timeout=TIMEOUT)
        back = _button(alice, "/join")
        await _expect(back).to_have_text("Take my seat back", timeout=TIMEOUT)
        assert table.players[seat].ai is not None and table.running
        await _expect(alice.locator("#leave-game")).to_have_count(0)
        await alice.reload()  # a reopened tab says what happened and how to come back
        await _expect(alice.locator("#feedback")).to_contain_text("An AI plays your seat", timeout=TIMEOUT)
        await _expect(back).to_have_text("Take my seat back", timeout=TIMEOUT)
        await back.click()
        await _expect(alice.locator("#logs")).to_contain_text("alice is back", timeout=TIMEOUT)
        assert table.players[seat].ai is None
        await _expect(back).to_have_count(0)
        assert not alice.errors and not bob.errors, (alice.errors, bob.errors)


async def test_yspahan_the_supervisor_moves_by_a_road_space_and_a_cube_goes_by_a_shop(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "y.sqlite", games=GAMES, default_game="yspahan", rate_limit=FAST) as served:
        alice = await _open(browser, served, "alice", 1366, 768)
        await alice.locator("#sit-down").click()  # the first seat: the game as set
        await _expect(alice.locator("#table")).to_contain_text("alice", timeout=TIMEOUT)
        await served.hub.handle(Incoming("web", "#bazaar", User("bob", account="bob"), "/join"))
        await _button(alice, "/start").click()
        await _expect(alice.locator("#hand-panel")).to_be_visible(timeout=TIMEOUT)
        table = served.hub.tables[("web", "#bazaar")]
        game, rng = table.plugin, random.Random(3)
        seat = table.game_seat_of("a:alice")
        done: set[str] = set()
        for _ in range(600):
            if not table.running or done == {"move", "place"}:
                break
            acting = game.to_act(table.state)[0]
            commands = game.legal_commands(table.state, acting)
            before = table.moves_made
            if acting == seat:
                await _expect(alice.locator("#table")).to_have_attribute("data-moves", str(before))
                lit = alice.locator("#table button.ys-space.dest")
                shop = alice.locator("#table button.ys-place")
                if "move" not in done and await lit.count():
                    # a tap on the space shows its moves; a tap on one of them plays it
                    await lit.first.click()
                    here = alice.locator("#ys-facts button.ys-move-here").first
                    command = await here.get_attribute("data-command")
                    assert await alice.locator(f'#controls [data-command="{command}"]').count() == 0
                    await here.click()
                    done.add("move")
                elif "place" not in done and await shop.count():
                    command = await shop.first.get_attribute("data-command")
                    await shop.first.click()
                    done.add("place")
                else:
                    command = rng.choice(commands)
                    await served.hub.handle(
                        Incoming("web", "#bazaar", User("alice", account="alice"), command)
                    )
                await _expect(alice.locator("#table")).not_to_have_attribute("data-moves", str(before))
                assert command in commands and table.moves_made > before
            else:
                choice = rng.choice(commands)
                await served.hub.handle(Incoming("web", "#bazaar", User("bob", account="bob"), choice))
        assert done == {"move", "place"}, done
        assert not alice.errors, alice.errors


#: a browser whose notifications are allowed and whose tab is in the background: each one is kept
NOTIFICATIONS_KEPT = """
window.__shown = [];
window.Notification = class { constructor(title, options) { window.__shown.push([title, options.body]); } };
window.Notification.permission = "granted";
Object.defineProperty(document, "hidden", { get: () => true });
"""


async def test_a_table_opening_is_told_in_the_page_and_by_the_browser_to_whom_asked(
    browser: Any, tmp_path: Path
) -> None:
    from support.webpage import open_page, sign_in, type_line

    async with serve(tmp_path / "o.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        await context.add_init_script(NOTIFICATIONS_KEPT)
        bob = await context.new_page()
        errors: list[str] = []
        bob.on("pageerror", lambda e: errors.append(str(e)))
        await bob.goto(served.url + "/")
        await sign_in(bob, "bob")
        await type_line(bob, "/notify on")
        await _expect(bob.locator("#feedback")).to_contain_text("You are called", timeout=TIMEOUT)
        alice = await open_page(browser, served, size=(1366, 768))
        await sign_in(alice, "alice")
        await type_line(alice, "/new jaipur")
        await _expect(bob.locator("#feedback")).to_contain_text(
            "bob: alice opened a table of Jaipur here", timeout=TIMEOUT
        )
        shown = await bob.evaluate("window.__shown")
        assert shown == [["A table opens in #bazaar", shown[0][1]]] and "opened a table" in shown[0][1]
        assert await alice.evaluate("typeof window.__shown") == "undefined"
        assert not errors and not alice.errors
