"""The clock's reminder over the table and the list of the reader's tables say the same time left
as the banner's clock.

The reminder is said once (at half time: "2m 30s left"); the banner counts down. The line that
stands over the table counts down with the banner, and so does the time left in "your tables", so a
reader never sees "2m 30s left" beside "0:59"; the line as said stays in the Private pane, and the
reminder passes when the table moves on. The hub's wall clock is a fake one the test moves, and
so is the page's (Playwright's clock).

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from support.clocked import FakeClock
from support.waits import wait_until
from support.webfixtures import serve
from support.webpage import TIMEOUT, drawn_at, expect, shot, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

FAST = RateLimit(commands=10_000, per_seconds=1)
#: a countdown as the page writes it: "0:59"
FIGURE = re.compile(r"(\d+):(\d\d)")


def _seconds(text: str) -> int | None:
    found = FIGURE.search(text)
    return int(found.group(1)) * 60 + int(found.group(2)) if found else None


async def test_the_clocks_reminder_and_your_tables_say_the_banners_time_left(
    browser: Any, tmp_path: Path
) -> None:
    clock = FakeClock()
    async with serve(
        tmp_path / "c.sqlite", games=discover(), default_game="jaipur", rate_limit=FAST, wall_clock=clock
    ) as served:
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.clock.install()
        await page.goto(served.url + "/")
        await sign_in(page, "alice", timeout=TIMEOUT)
        for line in ("/join", "/addbot easy", "/clock 5m"):
            await type_line(page, line)
        await expect(page.locator("#logs")).to_contain_text("Turn clock: 5m", timeout=TIMEOUT)
        await type_line(page, "/start")
        table = served.hub.tables[("web", "#bazaar")]
        await wait_until(lambda: table.running, TIMEOUT / 1000, "the game started by /start")
        mine = next(i for i, seat in enumerate(table.players) if seat.nick == "alice")
        await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "alice's turn")
        await drawn_at(page, table.moves_made)
        await served.hub.tick()  # the clock times alice's decision from now
        clock.now += 150  # half time: the reminder
        await served.hub.tick()
        private = page.locator("#private .k-tell .text")
        await expect(private.last).to_contain_text("2m 30s left", timeout=TIMEOUT)
        feedback, banner = page.locator("#feedback-text"), page.locator("#clock")
        listed = page.locator("#my-tables-list li button").first  # "#bazaar, Jaipur: your move, 2:30 left"
        await expect(feedback).to_contain_text("2:", timeout=TIMEOUT)
        await page.clock.run_for(91_000)  # nothing is said at 59 s left; the banner counts on
        shown: list[str] = []

        async def same_figure() -> int | None:
            shown[:] = [await banner.inner_text(), await feedback.inner_text(), await listed.inner_text()]
            figures = {_seconds(text) for text in shown}
            return figures.pop() if len(figures) == 1 and None not in figures else None

        left = await wait_until(
            same_figure, TIMEOUT / 1000, "the banner and the reminder agree", interval=0.1
        )
        assert 55 <= left <= 60, shown  # 2:30 less the 91 s the page lived
        assert not any("2m 30s" in text for text in shown[1:])
        await shot(page, "clock-reminder-phone.png")
        await page.set_viewport_size({"width": 1366, "height": 768})
        await shot(page, "clock-reminder-laptop.png")
        # once alice moves, the reminder is over
        before = table.moves_made
        command = table.plugin.legal_commands(table.state, mine)[0]
        await type_line(page, table.plugin.command_in(table.state, mine, command, "en"))
        await wait_until(lambda: table.moves_made > before, TIMEOUT / 1000, "alice's move")
        await expect(feedback).not_to_contain_text("Your move:", timeout=TIMEOUT)
        assert not errors, errors
