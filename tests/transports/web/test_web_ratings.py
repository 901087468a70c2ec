"""Ratings on the web: GET /ratings/<room>, the best players beside the table, the players for spectators."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from support.webfixtures import player, serve
from support.webpage import TIMEOUT

from bazaarbot.plugin import Result
from bazaarbot.ratings import record_result
from bazaarbot.store import Store


def earlier_games(db: Path, winners: list[str]) -> None:
    """Rated games of alice and bob on the web network, filed before the bot starts."""
    store = Store(db)
    try:
        for winner in winners:
            keys = ["a:alice", "a:bob"] if winner == "alice" else ["a:bob", "a:alice"]
            nicks = [k[2:] for k in keys]
            record_result(store, "count", keys, Result({0: 1.0, 1: 0.0}, [[0], [1]], [0]), nicks, "web")
    finally:
        store.close()


async def test_the_ratings_route_gives_the_best_and_the_seated_players(tmp_path: Path) -> None:
    earlier_games(tmp_path / "w.sqlite", ["alice", "alice", "bob"])
    async with serve(tmp_path / "w.sqlite") as served:
        alice, _token = await player(served, "alice")
        await alice.say("#bazaar", "/join")
        await alice.expect("bot", lambda f: "joins" in f["text"])
        async with aiohttp.ClientSession() as session:
            async with session.get(served.url + "/ratings/bazaar") as response:
                assert response.status == 200
                view = await response.json()
            async with session.get(served.url + "/ratings/no%20such%20room!") as response:
                assert response.status == 404
        assert view["room"] == "#bazaar" and view["game"] == "count" and view["title"] == "Count"
        assert [entry["name"] for entry in view["top"]] == ["alice", "bob"]
        assert view["top"][0]["games"] == 3 and view["top"][0]["mu"] > view["top"][1]["mu"]
        assert [entry["name"] for entry in view["players"]] == ["alice"]


@pytest.mark.browser
async def test_the_chat_page_shows_the_best_and_the_spectator_page_the_players(
    browser: Any, tmp_path: Path
) -> None:
    earlier_games(tmp_path / "w.sqlite", ["alice", "bob", "alice"])
    async with serve(tmp_path / "w.sqlite") as served:
        from playwright.async_api import expect

        pages: list[Any] = []

        async def open_page(path: str) -> Any:
            context = await browser.new_context(viewport={"width": 1280, "height": 800})
            page = await context.new_page()
            page.errors = []
            page.on("pageerror", lambda e: page.errors.append(str(e)))
            await page.goto(served.url + path)
            pages.append(page)
            return page

        async def enter(nick: str) -> Any:
            page = await open_page("/")
            await page.fill("#nick-input", nick)
            await page.press("#nick-input", "Enter")
            await expect(page.locator("#line")).to_be_enabled(timeout=TIMEOUT)
            return page

        async def say(page: Any, line: str) -> None:
            await page.fill("#line", line)
            await page.press("#line", "Enter")

        alice = await enter("alice")
        bob = await enter("bob")
        board = alice.locator("#ratings-list li")
        await expect(board).to_have_count(2, timeout=TIMEOUT)
        await expect(board.nth(0)).to_contain_text("alice")
        await expect(board.nth(1)).to_contain_text("bob")
        await expect(alice.locator("#ratings")).to_contain_text("Count")
        before = await board.nth(0).inner_text()
        await say(alice, "/new count target=3")
        await expect(bob.locator("#logs")).to_contain_text("alice joins", timeout=TIMEOUT)
        await say(bob, "/join")
        await expect(alice.locator("#logs")).to_contain_text("bob joins", timeout=TIMEOUT)
        watcher = await open_page("/watch/bazaar")
        seated = watcher.locator("#ratings-list li")
        await expect(seated).to_have_count(2, timeout=TIMEOUT)
        await expect(watcher.locator("#ratings")).to_contain_text("Players")
        await say(alice, "/start")
        await expect(alice.locator("#board")).to_contain_text("Total 0", timeout=TIMEOUT)
        await say(alice, "add 3")
        await expect(alice.locator("#logs")).to_contain_text("Ratings (Count): alice", timeout=TIMEOUT)
        folder = os.environ.get("BAZAARBOT_SCREENSHOTS")
        if folder:
            await alice.screenshot(path=str(Path(folder) / "ratings-alice.png"))
            await watcher.screenshot(path=str(Path(folder) / "ratings-watcher.png"))
        # the pane follows the game's end: alice's figure moves up
        await expect(board.nth(0)).not_to_have_text(before, timeout=TIMEOUT)
        await expect(board.nth(0)).to_contain_text("alice")
        names = [await seated.nth(i).locator(".ratings-name").inner_text() for i in range(2)]
        assert names == ["alice", "bob"]
        # another room: its table plays the same default game, and the pane follows the room
        await say(bob, "/join #side")
        await expect(bob.locator("#room-title")).to_have_text("#side")
        await expect(bob.locator("#ratings-list li")).to_have_count(2, timeout=TIMEOUT)
        for page in pages:
            assert not page.errors, page.errors
