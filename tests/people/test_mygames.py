""" "My games": /tables (alias /mygames) on the console, the web (frame and page) and a real IRC server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.consoleproc import Console, private
from support.webfixtures import player, serve

from bazaarbot.registry import discover

GAMES = discover()


def test_tables_on_the_console_lists_where_you_sit_your_move_first(tmp_path: Path) -> None:
    console = Console(tmp_path / "c.sqlite", seed=3)
    try:
        for line in (
            "ann@#one: /new jaipur",
            "bob@#one: /join",
            "ann@#one: /start",
            "ann@#two: /new yspahan",
            "cid@#two: /join",
        ):
            console.type(line)
        table_one = private(console.type("bob: /mygames"), "bob")
        assert table_one == ["#one, Jaipur: your move, 5m left"] or table_one == [
            "#one, Jaipur: ann to move, 5m left"
        ]
        mine = private(console.type("ann: /tables"), "ann")
        assert len(mine) == 2
        assert mine[-1] == "#two, Yspahan: waiting for /start"
        assert mine[0].startswith("#one, Jaipur: ")
        nobody = private(console.type("dee: /tables"), "dee")
        assert nobody == ["You sit at no table on this network. /join sits you down at this channel's."]
    finally:
        console.close()


async def _jaipur_for_two(served) -> tuple:
    ann, _ = await player(served, "ann", "#one")
    bob, _ = await player(served, "bob", "#one")
    await ann.say("#one", "/join")
    await ann.expect("bot", lambda f: "ann joins" in f["text"])
    await bob.say("#one", "/join")
    await bob.expect("bot", lambda f: "bob joins" in f["text"])
    await ann.say("#one", "/start")
    await ann.expect("bot", lambda f: "Jaipur starts" in f["text"])
    return ann, bob


async def test_the_web_page_gets_its_tables_when_it_opens_and_when_they_change(tmp_path: Path) -> None:
    async with serve(
        tmp_path / "w.sqlite", games={"jaipur": GAMES["jaipur"]}, default_game="jaipur"
    ) as served:
        ann, bob = await _jaipur_for_two(served)
        listed = await bob.expect("tables", lambda f: f["tables"] and f["tables"][0]["running"])
        entry = listed["tables"][0]
        assert entry["channel"] == "#one" and entry["game"] == "Jaipur" and entry["paused"] is False
        turn = served.hub.tables[("web", "#one")].plugin.to_act(served.hub.tables[("web", "#one")].state)[0]
        assert entry["your_move"] is (turn == 1)
        assert entry["text"].startswith("#one, Jaipur: ")
        # a new tab of the same browser (the page opened again) gets the list with its welcome
        token = next(f["token"] for f in bob.seen if f.get("t") == "claimed")
        again = await served.connect()
        await again.hello(token)
        opened = await again.expect("tables")
        assert [e["channel"] for e in opened["tables"]] == ["#one"]
        await bob.say(None, "/tables")
        told = await bob.expect("tell", lambda f: f["text"].startswith("#one, Jaipur: "))
        assert ("#one, Jaipur: your move" in told["text"]) is entry["your_move"]


async def test_the_web_page_shows_your_tables_in_their_own_element(browser: Any, tmp_path: Path) -> None:
    from playwright.async_api import expect

    async with serve(
        tmp_path / "b.sqlite", games={"jaipur": GAMES["jaipur"]}, default_game="jaipur"
    ) as served:
        page = await (await browser.new_context()).new_page()
        await page.goto(served.url + "/")
        await page.fill("#nick-input", "ann")
        await page.press("#nick-input", "Enter")
        await expect(page.locator("#line")).to_be_enabled()
        assert await page.locator("#my-tables").is_hidden()
        await page.fill("#line", "/join")
        await page.press("#line", "Enter")
        bob, _ = await player(served, "bob", "#bazaar")
        await bob.say("#bazaar", "/join")
        await bob.expect("bot", lambda f: "bob joins" in f["text"])
        await page.fill("#line", "/start")
        await page.press("#line", "Enter")
        item = page.locator("#my-tables-list li button")
        await expect(item.first).to_contain_text("#bazaar, Jaipur: ", timeout=10_000)
        await expect(page.locator("#my-tables")).to_be_visible()


@pytest.mark.irc
async def test_tables_over_irc_and_a_welcome_back_on_joining(
    irc_cast,
) -> None:
    players = {"ann": ("#one",), "bob": ("#one",)}
    cast = await irc_cast(players, games={"jaipur": GAMES["jaipur"]}, seed=11, channels=("#one", "#two"))
    hub, ann, bob = cast.hub, cast["ann"], cast["bob"]
    ann.say("#one", "!join")
    await ann.expect("ann joins")
    bob.say("#one", "!join")
    await bob.expect("bob joins")
    await cast.start("#one", "Your hand")
    table = hub.tables[("testnet", "#one")]
    mover = table.players[table.plugin.to_act(table.state)[0]].nick
    client = ann if mover == "ann" else bob
    client.say("bazaarbot", "!mygames")
    await client.expect(f"PRIVMSG {mover} :#one, Jaipur: your move")
    await client.join("#two")  # joining any channel the bot is in: told where it is their move
    await client.expect(f"PRIVMSG {mover} :Welcome back! Your move at #one (Jaipur")


def test_the_pages_list_carries_every_field_of_an_entry_and_its_line() -> None:
    from dataclasses import fields

    from bazaarbot.people.mygames import TableEntry, as_data

    entry = TableEntry("#a", "Jaipur", True, True, ("ann",), 61.4, False)
    (data,) = as_data([entry])
    assert set(data) == {f.name for f in fields(TableEntry)} | {"text", "line"}
    assert data["turn"] == ["ann"] and data["left"] == 61 and data["text"].startswith("#a, Jaipur: your move")
    # the line without the time left, which the page counts down itself
    assert data["line"] == "#a, Jaipur: your move" and data["text"].startswith(data["line"] + ", ")


def test_the_pages_list_says_each_entry_in_the_language_it_is_made_in() -> None:
    from bazaarbot.i18n import language
    from bazaarbot.people.mygames import TableEntry, as_data

    entry = TableEntry("#a", "Jaipur", True, False, ("ann",), None, False)
    with language("en"):
        (english,) = as_data([entry])
        (again,) = as_data([entry])
    with language("de"):
        (german,) = as_data([entry])
    assert english == again and english["line"] == "#a, Jaipur: ann to move"
    assert german["line"] != english["line"] and german["line"].startswith("#a, Jaipur: ")
    # an entry that changed (their move now) reads anew
    with language("en"):
        (moved,) = as_data([TableEntry("#a", "Jaipur", True, True, ("ann",), None, False)])
    assert moved["line"] == "#a, Jaipur: your move"
