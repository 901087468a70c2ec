"""``/history``: the network's recent finished games, each a link to its replay, in the reader's
language and a phone's width; the replay page for an address naming no game links to it.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest
from support.inview import past_the_edge, sticking_out
from support.webfixtures import Served, serve
from support.webpage import TIMEOUT, expect, no_serious_violation, shot

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, User

PLENTY = RateLimit(commands=100_000, per_seconds=1)


def _line(served: Served, nick: str, text: str, room: str = "#c") -> None:
    served.hub.process(Incoming("web", room, User(nick), text))


def _finished_count_game(served: Served, room: str = "#c") -> int:
    """A count game alice wins; its id."""
    _line(served, "alice", "/new count target=7", room)
    _line(served, "bob", "/join", room)
    _line(served, "alice", "/start", room)
    table = served.hub.tables[("web", room)]
    game_id, nicks = table.game_id, [s.nick for s in table.players]
    for seat, move in ((0, "add 3"), (1, "add 3"), (0, "add 3"), (1, "add 3"), (0, "add 1")):
        _line(served, nicks[seat], move, room)
    assert not table.running
    return game_id


async def _json(url: str) -> tuple[int, str, Any]:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        body = await answer.json() if answer.content_type == "application/json" else await answer.text()
        return answer.status, answer.content_type, body


async def test_the_recent_games_data_lists_finished_games_latest_first_and_no_running_one(
    tmp_path: Path,
) -> None:
    async with serve(tmp_path / "h.sqlite", rate_limit=PLENTY) as served:
        status, kind, body = await _json(f"{served.url}/history/data")
        assert (status, kind, body) == (200, "application/json", {"games": []})
        first = _finished_count_game(served, "#c")
        second = _finished_count_game(served, "#d")
        _line(served, "carol", "/new count", "#e")
        _line(served, "dave", "/join", "#e")
        _line(served, "carol", "/start", "#e")  # running: not listed
        status, _kind, body = await _json(f"{served.url}/history/data?lang=de")
        assert status == 200
        assert [game["id"] for game in body["games"]] == [second, first]
        game = body["games"][0]
        assert game["game"] == "count" and game["title"] and game["ended"] > 0
        winners = [seat["nick"] for seat in game["players"] if seat["winner"]]
        assert winners == ["alice"] and [seat["nick"] for seat in game["players"]] == ["alice", "bob"], game
        assert all(isinstance(seat["score"], int) for seat in game["players"]), game
        status, kind, page = await _json(f"{served.url}/history")
        assert status == 200 and kind == "text/html" and 'id="games"' in page


@pytest.mark.browser
async def test_a_readers_phone_lists_the_recent_games_in_their_language_and_opens_a_replay(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "h.sqlite", rate_limit=PLENTY) as served:
        game_id = _finished_count_game(served)
        context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # the tables page links to the recent games (on a laptop's sidebar) ...
        await page.goto(f"{served.url}/")
        assert await page.locator("#history-link").get_attribute("href") == "/history"
        # ... and so does the replay page for no game
        await page.goto(f"{served.url}/replay/abc")
        recent = page.locator(".replay-recent")
        await expect(recent).to_have_text("Letzte Partien", timeout=TIMEOUT)
        async with page.expect_navigation():
            await recent.click()
        link = page.locator(".history-link")
        await expect(link).to_have_count(1, timeout=TIMEOUT)
        await expect(link).to_contain_text(f"Nr. {game_id}")
        await expect(page.locator("h2")).to_have_text("Letzte Partien")
        assert await past_the_edge(page) <= 0, await sticking_out(page)
        box = await link.bounding_box()
        assert box is not None and box["height"] >= 40, box  # a finger's tap
        await shot(page, "recent-games-phone.png")
        await no_serious_violation(page, "the recent games")
        async with page.expect_navigation():
            await link.click()
        assert page.url.endswith(f"/replay/{game_id}")
        await expect(page.locator("#step")).to_be_visible(timeout=TIMEOUT)
        assert not errors, errors
