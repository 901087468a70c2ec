"""The web page in a real browser: two players, a spectator, escaping, a server restart.

The server runs in the test's own event loop; Playwright's async API drives
the system Chromium. Set BAZAARBOT_SCREENSHOTS to a folder to keep a
screenshot of a game in progress.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.countgame import GAME as COUNT
from support.waits import wait_until
from support.webfixtures import Served, serve
from support.webpage import TIMEOUT, drawn_at, expect, open_page, shot, sign_in, type_line

pytestmark = pytest.mark.browser


async def _page(browser: Any, served: Served, path: str = "/") -> Any:
    """A page in a browser context of its own (its own localStorage: another person)."""
    return await open_page(browser, served, path)


async def _open(browser: Any, served: Served, nick: str, path: str = "/") -> Any:
    page = await _page(browser, served, path)
    if path == "/":
        await sign_in(page, nick)
    return page


async def _seat_both(alice: Any, bob: Any) -> None:
    await expect(alice.locator("#members")).to_contain_text("bob", timeout=TIMEOUT)
    await type_line(alice, "/join")
    await expect(bob.locator("#logs")).to_contain_text("alice joins", timeout=TIMEOUT)
    await type_line(bob, "/join")
    await expect(alice.locator("#logs")).to_contain_text("bob joins", timeout=TIMEOUT)
    await type_line(alice, "/start")


async def test_two_browsers_play_count_and_see_only_their_own_hand(browser: Any, tmp_path: Path) -> None:
    async with serve(tmp_path / "b.sqlite") as served:
        alice = await _open(browser, served, "alice")
        bob = await _open(browser, served, "bob")
        watcher = await _open(browser, served, "", "/watch/bazaar")
        await type_line(alice, "hello bob")
        await expect(bob.locator("#logs")).to_contain_text("hello bob", timeout=TIMEOUT)
        await _seat_both(alice, bob)
        for page in (alice, bob, watcher):
            await expect(page.locator("#board")).to_contain_text("Total 0", timeout=TIMEOUT)
        state = served.hub.tables[("web", "#bazaar")].state
        mine, theirs = f"Your secret: {state.secrets[0]}", f"Your secret: {state.secrets[1]}"
        await expect(alice.locator("#private")).to_contain_text(mine, timeout=TIMEOUT)
        await expect(bob.locator("#private")).to_contain_text(theirs, timeout=TIMEOUT)
        await type_line(alice, "add 2")
        for page in (alice, bob, watcher):
            await expect(page.locator("#board")).to_contain_text("Total 2", timeout=TIMEOUT)
        await expect(alice.locator("#private")).not_to_contain_text(theirs)
        await expect(bob.locator("#private")).not_to_contain_text(mine)
        watched = await watcher.locator("body").inner_text()
        assert "secret" not in watched.lower() and await watcher.locator("#private").count() == 0
        assert "hello bob" in watched
        await shot(alice, "count-alice.png")
        # a second room: its own chat and board; the first one's board comes back on switching
        await type_line(alice, "/join #side")
        await expect(alice.locator("#room-title")).to_have_text("#side")
        await expect(alice.locator("#board")).to_have_text("No game is running here yet.")
        await type_line(alice, "side talk")
        await expect(alice.locator("#logs")).to_contain_text("side talk", timeout=TIMEOUT)
        await alice.locator(".room-name", has_text="#bazaar").click()
        await expect(alice.locator("#board")).to_contain_text("Total 2")
        assert "side talk" not in await bob.locator("#logs").inner_text()
        for page in (alice, bob, watcher):
            assert not page.errors, page.errors


async def test_two_browsers_play_jaipur(browser: Any, tmp_path: Path) -> None:
    from plugins.jaipur import GAME as game

    games = {"jaipur": game, "count": COUNT}
    async with serve(tmp_path / "j.sqlite", games=games, default_game="jaipur") as served:
        alice = await _open(browser, served, "alice")
        bob = await _open(browser, served, "bob")
        await _seat_both(alice, bob)
        for page in (alice, bob):  # a drawn game's text board comes once "Board as text" is open
            await drawn_at(page, 0)  # the start redraws the page: a click during it may land elsewhere
            await page.locator("details.board-text summary").click()
            await expect(page.locator("#board")).to_contain_text("Jaipur", timeout=TIMEOUT)
        table = served.hub.tables[("web", "#bazaar")]
        pages = {0: alice, 1: bob}
        for _ in range(3):  # three moves, each by whoever is to act, each a legal one
            seat = game.to_act(table.state)[0]
            before = table.moves_made
            await type_line(pages[seat], game.legal_commands(table.state, seat)[0])
            await wait_until(lambda made=before: table.moves_made > made, what="the typed move at the hub")
            board = game.board(table.state)
            for page in (alice, bob):
                await expect(page.locator("#board")).to_have_text(board, timeout=TIMEOUT)
        views = [game.private_view(table.state, s) for s in (0, 1)]
        assert views[0] != views[1]
        await expect(alice.locator("#private")).to_contain_text(views[0], timeout=TIMEOUT)
        await expect(bob.locator("#private")).to_contain_text(views[1], timeout=TIMEOUT)
        assert views[1] not in await alice.locator("#private").inner_text()
        assert views[0] not in await bob.locator("#private").inner_text()
        await type_line(bob, "/moves")
        await shot(alice, "jaipur-alice.png")
        await shot(bob, "jaipur-bob.png")
        for page in (alice, bob):
            assert not page.errors, page.errors


MARKUP = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><b>bold</b>'


async def test_markup_renders_as_text_and_never_runs(browser: Any, tmp_path: Path) -> None:
    async with serve(tmp_path / "x.sqlite") as served:
        alice = await _open(browser, served, "alice")
        bob = await _open(browser, served, "bob")
        watcher = await _open(browser, served, "", "/watch/bazaar")
        dialogs: list[str] = []
        for page in (alice, bob, watcher):
            page.on("dialog", lambda d: dialogs.append(d.message))
        # a nick full of markup is refused, and the refusal is plain text
        mallory = await _page(browser, served)
        await mallory.fill("#nick-input", '<img src=x onerror="alert(1)">')
        await mallory.press("#nick-input", "Enter")
        await expect(mallory.locator("#nick-error")).to_contain_text("letters", timeout=TIMEOUT)
        # and a nick another browser holds is refused with a clear message
        await mallory.fill("#nick-input", "alice")
        await mallory.press("#nick-input", "Enter")
        await expect(mallory.locator("#nick-error")).to_contain_text("taken by another browser")
        await expect(mallory.locator("#nick-box")).to_be_visible()
        await mallory.evaluate(
            """() => { const ws = new WebSocket('ws://' + location.host + '/ws');
                ws.onopen = () => { ws.send(JSON.stringify({t: 'hello', token: null}));
                ws.send(JSON.stringify({t: 'claim', nick: '<img src=x onerror=alert(1)>'})); }; }"""
        )
        await type_line(alice, MARKUP)
        await type_line(alice, "/" + MARKUP)  # the bot quotes the unknown command back
        await type_line(alice, "alert('x')</span><img src=y onerror=alert(2)>")
        for page in (alice, bob, watcher):
            await expect(page.locator("#logs")).to_contain_text(MARKUP, timeout=TIMEOUT)
            logs = expect(page.locator("#logs"))
            await logs.to_contain_text("<img src=y onerror=alert(2)>", timeout=TIMEOUT)
        await expect(alice.locator("#logs")).to_contain_text("I do not know the command", timeout=TIMEOUT)
        # no element came of the markup (counted below), so no handler of one can run later
        for page in (alice, bob, watcher, mallory):
            assert await page.evaluate("window.__xss") is None
            shown = "#logs img, #logs script, #logs b, #private img, #feedback img"
            assert await page.locator(shown).count() == 0
            assert not page.errors, page.errors
        assert dialogs == []


async def test_page_reconnects_after_a_restart_and_shows_the_table(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    async with serve(db) as served:
        port = served.transport.port
        alice = await _open(browser, served, "alice")
        bob = await _open(browser, served, "bob")
        await _seat_both(alice, bob)
        await type_line(alice, "add 3")
        await expect(bob.locator("#board")).to_contain_text("Total 3", timeout=TIMEOUT)
        secret = served.hub.tables[("web", "#bazaar")].state.secrets[1]
    await expect(bob.locator("#status")).to_contain_text("reconnecting", timeout=TIMEOUT)
    async with serve(db, port=port) as served:
        await bob.reload()  # a fresh page load finds the nick (token) and its rooms again
        for page in (alice, bob):
            await expect(page.locator("#status")).to_have_text("connected", timeout=TIMEOUT)
            await expect(page.locator("#board")).to_contain_text("Total 3", timeout=TIMEOUT)
        await expect(bob.locator("#me-nick")).to_have_text("bob")
        await expect(bob.locator("#private")).to_contain_text(f"Your secret: {secret}", timeout=TIMEOUT)
        await type_line(bob, "add 1")
        await expect(alice.locator("#board")).to_contain_text("Total 4", timeout=TIMEOUT)
