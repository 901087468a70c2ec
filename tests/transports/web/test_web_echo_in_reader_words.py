"""What a button sent is echoed as its reader would have typed it: the command in their words
(``extra build-without-camels``, ``nimm silber``), never the rules' ids (``extra build_no_camels``).

The page sends the command as the rules spell it and says its words in ``said``; the author's tabs
echo those words.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support.webfixtures import player, serve
from support.webpage import TIMEOUT, drawn_at, expect, open_page, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, User
from bazaarbot.registry import discover

FAST = RateLimit(commands=10_000, per_seconds=1)
ROOM = "#bazaar"


async def test_a_lines_said_words_are_what_its_authors_tabs_echo(tmp_path: Path) -> None:
    async with serve(tmp_path / "e.sqlite") as served:
        alice, token = await player(served, "alice")
        other = await served.connect()
        await other.hello(token)
        await other.join(ROOM)
        await alice.send(t="say", room=ROOM, text="/help", said="/hilfe")
        for tab in (alice, other):
            echo = await tab.expect("echo")
            assert echo["text"] == "/hilfe", echo
        # without its words a line is echoed as it was sent; words that are no text are not taken
        await alice.send(t="say", room=ROOM, text="/help")
        assert (await alice.expect("echo"))["text"] == "/help"
        await alice.send(t="say", room=ROOM, text="/help", said=["x"])
        assert (await alice.expect("echo"))["text"] == "/help"
        # a line to the bot itself, in the Private pane, too
        await alice.send(t="say", room=None, text="/help", said="/hilfe")
        assert (await alice.expect("mine"))["text"] == "/hilfe"


async def _hub_line(served: Any, nick: str, text: str) -> None:
    await served.hub.handle(Incoming("web", ROOM, User(nick=nick, account=nick), text))


@pytest.mark.browser
async def test_a_card_button_is_echoed_in_its_readers_words_not_its_ids(browser: Any, tmp_path: Path) -> None:
    async with serve(
        tmp_path / "y.sqlite", games=discover(), default_game="yspahan", rate_limit=FAST
    ) as served:
        page = await open_page(browser, served, size=(390, 844), console=True)
        await sign_in(page, "alice", timeout=TIMEOUT)
        await type_line(page, "/join")
        await expect(page.locator("#table")).to_contain_text("alice", timeout=TIMEOUT)
        await _hub_line(served, "bob", "/join")
        await type_line(page, "/start")
        await expect(page.locator("#hand-panel")).to_be_visible(timeout=TIMEOUT)
        table = served.hub.tables[("web", ROOM)]
        mine = table.game_seat_of("a:alice")
        rng = random.Random(5)
        # random moves until a command with an id (a card's) is alice's to play by a button
        for _ in range(600):
            assert table.running
            acting = table.plugin.to_act(table.state)[0]
            legal = table.plugin.legal_commands(table.state, acting)
            with_ids = [c for c in legal if "_" in c] if acting == mine else []
            if with_ids:
                await drawn_at(page, table.moves_made)
                shown = [c for c in with_ids if await page.locator(f'button[data-command="{c}"]').count()]
                if shown:
                    break
            await _hub_line(served, table.players[acting].nick, rng.choice(legal))
        else:
            raise AssertionError("no card's command was ever alice's to play by a button")
        command = shown[0]
        words = table.plugin.command_in(table.state, mine, command, "en")
        assert words != command
        await page.locator(f'button[data-command="{command}"]').first.click()
        mine_lines = page.locator("#logs .line.k-mine")
        await expect(mine_lines.last).to_contain_text(words, timeout=TIMEOUT)
        assert "_" not in await mine_lines.last.inner_text()
        assert not page.errors, page.errors


@pytest.mark.browser
async def test_a_move_button_is_echoed_in_german_for_a_german_reader(browser: Any, tmp_path: Path) -> None:
    async with serve(
        tmp_path / "j.sqlite", games=discover(), default_game="jaipur", rate_limit=FAST
    ) as served:
        page = await open_page(browser, served, size=(1366, 768), console=True)
        await sign_in(page, "alice", timeout=TIMEOUT)
        await type_line(page, "/lang de")
        await type_line(page, "/join")
        await type_line(page, "/addbot easy")
        await expect(page.locator("#table")).to_contain_text("KI:", timeout=TIMEOUT)
        await type_line(page, "/start")
        await expect(page.locator("#turn")).to_have_class("turn mine", timeout=TIMEOUT)
        table = served.hub.tables[("web", ROOM)]
        mine = table.game_seat_of("a:alice")
        command = next(c for c in table.plugin.legal_commands(table.state, mine) if c.startswith("take "))
        words = table.plugin.command_in(table.state, mine, command, "de")
        await page.locator(f'#controls button[data-command="{command}"]').click()
        await expect(page.locator("#logs .line.k-mine").last).to_contain_text(words, timeout=TIMEOUT)
        assert command not in await page.locator("#logs .line.k-mine").last.inner_text()
        assert not page.errors, page.errors
