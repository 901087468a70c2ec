"""The replay page in a real browser: steps by buttons and arrow keys with the game's drawn table,
public facts only, no replay of a running game, and the review's win-chance graph."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from support.countgame import GAME as COUNT
from support.webfixtures import Served, serve
from support.webpage import TIMEOUT, no_serious_violation

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, User
from bazaarbot.table.steps import replay

pytestmark = pytest.mark.browser


#: the test types many moves through the hub at once
PLENTY = RateLimit(commands=100_000, per_seconds=1)


def _expect(locator: Any) -> Any:
    from playwright.async_api import expect

    return expect(locator)


def line(served: Served, nick: str, text: str, channel: str = "#j") -> None:
    served.hub.process(Incoming("web", channel, User(nick), text))


#: the random moves' seed whose whole Jaipur match (the first game of the bot's default seed) takes
#: 102 moves, the shortest found (seed 4's took 242): fewer steps to store, send and draw
SHORT_JAIPUR_MOVES = 282
#: the same for the random Yspahan game of ann and amy: 76 moves (seed 3's took 94)
SHORT_YSPAHAN_MOVES = 137


def finished_jaipur(served: Served, seed: int = SHORT_JAIPUR_MOVES) -> int:
    """A whole Jaipur match between alice and bob at #j, random legal moves; its game id."""
    from plugins.jaipur import GAME as jaipur

    rng = random.Random(seed)
    line(served, "alice", "/new jaipur")
    line(served, "bob", "/join")
    line(served, "alice", "/start")
    table = served.hub.tables[("web", "#j")]
    game_id = table.game_id
    nicks = [s.nick for s in table.players]
    for _ in range(2000):
        if not table.running:
            break
        seat = jaipur.to_act(table.state)[0]
        line(served, nicks[seat], rng.choice(jaipur.legal_commands(table.state, seat)))
    assert not table.running
    return game_id


async def _page(browser: Any, served: Served, path: str) -> Any:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    await page.goto(served.url + path)
    return page


async def _data(served: Served, game_id: int) -> dict[str, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{served.url}/replay/{game_id}/data") as response,
    ):
        assert response.status == 200
        return await response.json()


async def test_the_replay_steps_through_a_finished_game_on_its_drawn_table(
    browser: Any, tmp_path: Path
) -> None:
    from plugins.jaipur import GAME as jaipur

    async with serve(
        tmp_path / "r.sqlite", games={"jaipur": jaipur, "count": COUNT}, rate_limit=PLENTY
    ) as served:
        game_id = finished_jaipur(served)
        total = len(served.hub.store.moves(game_id))
        page = await _page(browser, served, f"/replay/{game_id}")
        step = page.locator("#step")
        await _expect(step).to_have_text(f"Step 0 of {total}", timeout=TIMEOUT)
        await _expect(page.locator("#table .jp-table .jp-market")).to_be_visible(timeout=TIMEOUT)
        await _expect(page.locator("#back")).to_be_disabled()
        await page.click("#forward")
        await _expect(step).to_have_text(f"Step 1 of {total}")
        first = served.hub.store.moves(game_id)[0]["text"]
        await _expect(page.locator("#move")).to_contain_text(first)
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowRight")
        await _expect(step).to_have_text(f"Step 3 of {total}")
        await page.keyboard.press("ArrowLeft")
        await _expect(step).to_have_text(f"Step 2 of {total}")
        # mid-game, on a laptop and on a phone, axe-core finds nothing critical or serious
        for width, height in ((1366, 768), (390, 844)):
            await page.set_viewport_size({"width": width, "height": height})
            await no_serious_violation(page, f"replay {width}x{height}")
        await page.click("#last")
        await _expect(step).to_have_text(f"Step {total} of {total}")
        await _expect(page.locator("#table .result")).to_contain_text("Game over:")
        await _expect(page.locator("#forward")).to_be_disabled()
        await page.keyboard.press("Home")
        await _expect(step).to_have_text(f"Step 0 of {total}")
        await page.click("#forward")
        await page.click("#first")
        await _expect(step).to_have_text(f"Step 0 of {total}")
        # what the page gets is each step's public board (the drawn table's public data), nothing else
        data = await _data(served, game_id)
        record = served.hub.store.game_record(game_id)
        steps, final = replay(jaipur, record["seed"], ["alice", "bob"], record["options"], record["moves"])
        publics = [jaipur.public_data(jaipur.from_json(s.before)) for s in steps[1:]] + [
            jaipur.public_data(final)
        ]
        assert [s["public"] for s in data["steps"]] == json.loads(json.dumps(publics))
        assert set(data["steps"][0]) == {"seat", "nick", "text", "said", "lines", "public", "to_act"}
        assert data["terms"] == jaipur.terms()  # the names the drawn table shows, as on the chat page
        hand = jaipur.private_view(final, 0)
        assert hand not in json.dumps(data) and hand not in await page.locator("body").inner_text()
        assert not page.errors, page.errors


async def test_a_running_game_cannot_be_replayed_and_the_game_over_box_links_to_its_replay(
    browser: Any, tmp_path: Path
) -> None:
    """A running game's replay page is a plain page with no steps and no secret; a missing game's
    too; and once a game is over, the box on the watching page links to its replay."""
    async with serve(tmp_path / "r.sqlite", rate_limit=PLENTY) as served:
        watcher = await _page(browser, served, "/watch/bazaar")
        line(served, "alice", "/new count", "#c")
        line(served, "bob", "/join", "#c")
        line(served, "alice", "/start", "#c")
        table = served.hub.tables[("web", "#c")]
        secret = str(table.state.secrets[0])
        page = await _page(browser, served, f"/replay/{table.game_id}")
        await _expect(page.locator("#table")).to_contain_text("still running", timeout=TIMEOUT)
        data = await _data(served, table.game_id)
        assert data["replayable"] is False and "steps" not in data and secret not in json.dumps(data)
        assert secret not in await page.locator("body").inner_text()
        # a plain page: no step controls, no graph, no empty title; a way back to the tables
        for shown in (page, missing := await _page(browser, served, "/replay/999")):
            await _expect(shown.locator(".replay-home")).to_be_visible(timeout=TIMEOUT)
            for hidden in ("#replay-controls", "#replay-review", "#replay-tagline"):
                await _expect(shown.locator(hidden)).to_be_hidden()
        await _expect(missing.locator("#table")).to_contain_text("There is no game 999", timeout=TIMEOUT)

        async def say(nick: str, text: str) -> None:
            await served.hub.handle(Incoming("web", "#bazaar", User(nick), text))

        # a game played to its end at #bazaar, watched: its game-over box links to its replay
        await say("carol", "/new count target=3")
        await say("dave", "/join")
        await say("carol", "/start")
        table = served.hub.tables[("web", "#bazaar")]
        game_id = table.game_id
        await say(table.players[0].nick, "add 3")
        link = watcher.locator(".result a.replay-link")
        await _expect(link).to_have_attribute("href", f"/replay/{game_id}", timeout=TIMEOUT)
        assert not watcher.errors, watcher.errors


async def test_every_finished_game_has_its_graph_without_review_and_a_click_on_it_jumps(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "r.sqlite", rate_limit=PLENTY, review_after_game=5.0) as served:
        line(served, "alice", "/new count target=10", "#c")
        line(served, "bob", "/join", "#c")
        line(served, "alice", "/start", "#c")
        table = served.hub.tables[("web", "#c")]
        game_id = table.game_id
        nicks = [s.nick for s in table.players]
        for seat, move in ((0, "add 3"), (1, "add 2"), (0, "add 2"), (1, "add 1"), (0, "add 2")):
            line(served, nicks[seat], move, "#c")
        # nobody asks for /review: the review is worked out after the game, and the page shows it
        page = await _page(browser, served, f"/replay/{game_id}")
        graph = page.locator("#chance-graph")
        await _expect(graph).to_be_visible(timeout=TIMEOUT)
        assert served.hub.teacher.stored_review(game_id) is not None
        await _expect(graph).to_be_visible(timeout=TIMEOUT)
        assert await graph.locator("polyline").count() == 2
        points = graph.locator("circle.point")
        assert await points.count() == 5
        await points.nth(await points.count() - 2).click()
        at = await page.locator("#step").get_attribute("data-at")
        clicked = await points.nth(await points.count() - 2).get_attribute("data-step")
        assert at == clicked
        await _expect(page.locator("#step")).to_have_text(f"Step {clicked} of 5")
        title = await points.nth(0).locator("title").text_content()
        assert nicks[0] in title and "win chance" in title
        # a click beside the points, on the graph's left edge, goes to the start
        box = await graph.bounding_box()
        await page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
        await _expect(page.locator("#step")).to_have_text("Step 0 of 5")
        assert not page.errors, page.errors


async def test_the_replay_badges_two_seats_of_one_initial_by_number_as_the_live_table(
    browser: Any, tmp_path: Path
) -> None:
    from plugins.yspahan import GAME as yspahan

    async with serve(tmp_path / "r.sqlite", games={"yspahan": yspahan}, rate_limit=PLENTY) as served:
        rng = random.Random(SHORT_YSPAHAN_MOVES)
        line(served, "ann", "/new yspahan")
        line(served, "amy", "/join")
        line(served, "ann", "/start")
        table = served.hub.tables[("web", "#j")]
        game_id = table.game_id
        while table.running:
            seat = yspahan.to_act(table.state)[0]
            line(served, table.players[seat].nick, rng.choice(yspahan.legal_commands(table.state, seat)))
        page = await _page(browser, served, f"/replay/{game_id}")
        await page.click("#last")
        badges = page.locator("#table .ys-players .ys-name .ys-cube")
        await _expect(badges).to_have_text(["1", "2"], timeout=TIMEOUT)
        assert not page.errors, page.errors


async def _data_in(served: Served, game_id: int, lang: str) -> dict[str, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{served.url}/replay/{game_id}/data?lang={lang}") as response,
    ):
        assert response.status == 200
        return await response.json()


async def test_the_replay_data_speaks_the_language_the_page_asks_for(tmp_path: Path) -> None:
    from plugins.jaipur import GAME as jaipur

    async with serve(
        tmp_path / "r.sqlite", games={"jaipur": jaipur, "count": COUNT}, rate_limit=PLENTY
    ) as served:
        game_id = finished_jaipur(served)
        first = served.hub.store.moves(game_id)[0]["text"]
        over = {"de": "Spiel vorbei:", "es": "Fin de la partida:", "en": "Game over:"}
        for lang, market in (("de", "Markt"), ("es", "Mercado"), ("en", "Market")):
            data = await _data_in(served, game_id, lang)
            step = data["steps"][0]
            assert step["text"] == first  # what the drawn table reads stays the rules' English
            assert step["said"] == jaipur.command_in(None, step["seat"], first, lang)
            assert step["public"]["labels"]["market"] == market
            assert data["result"]["headline"].startswith(over[lang])
