"""The drawn web table in a real browser: play by clicking, your hand apart, phone, reload, spectators.

The server runs in the test's own event loop; Playwright's async API drives
the system Chromium. Set BAZAARBOT_SCREENSHOTS to a folder to keep
screenshots of each game's table at the start and at the end.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from support.waits import wait_until
from support.webfixtures import Served, frames_in, player, serve
from support.webpage import TIMEOUT, button, drawn_at, expect, open_page, shot, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.messages import Incoming, User
from bazaarbot.registry import discover
from bazaarbot.tableview.table import INLINE_COMMANDS

pytestmark = pytest.mark.browser

GAMES = discover()
ROOM = "#bazaar"
#: players click faster than the default per-user command budget allows
FAST = RateLimit(commands=10_000, per_seconds=1)
PHONE = (390, 844)
LAPTOP = (1366, 768)
#: the bot's seed whose first Jaipur round, played by ``_jaipur_choice``, ends in 27 moves (the
#: default seed's takes 59) and still holds a take, a sale and an exchange
SHORT_ROUND_SEED = 21479
#: the bot's seed whose whole Jaipur match of ``_jaipur_choice`` against the test's hard AI takes 40
#: of the person's moves (the default seed's, 55)
SHORT_MATCH_SEED = 254


async def _open(browser: Any, served: Served, nick: str, width: int = 1200, height: int = 780) -> Any:
    """A player's page in a browser context of its own (its own storage: another person)."""
    page = await open_page(browser, served, size=(width, height))
    await sign_in(page, nick)
    return page


async def _sit_and_start(host: Any, guest: Any, game: str | None = None) -> None:
    """Everything by clicking: choose the game, sit down, start."""
    await button(host, "/join").click()
    await expect(guest.locator("#table")).to_contain_text("host", timeout=TIMEOUT)
    if game is not None:
        await button(host, f"/new {game}").click()
        await expect(guest.locator("#turn")).to_contain_text(GAMES[game].title, timeout=TIMEOUT)
    await button(guest, "/join").click()
    await expect(host.locator("#table")).to_contain_text("Seat 2", timeout=TIMEOUT)
    await expect(host.locator('#controls button[data-command="/start"]')).to_be_visible(timeout=TIMEOUT)
    await button(host, "/start").click()


@asynccontextmanager
async def _two_at_the_table(
    browser: Any,
    tmp_path: Path,
    game: str = "jaipur",
    sizes: tuple[tuple[int, int], tuple[int, int]] = ((1200, 780), (1200, 780)),
    start: bool = True,
    seed: int = 11,
) -> AsyncIterator[tuple[Served, Any, Any]]:
    """alice's and bob's pages at the room's ``game`` table (the bot's ``seed`` deals it); with
    ``start``, both seated and the game begun by clicking, every page showing it."""
    async with serve(
        tmp_path / f"{game}.sqlite", games=GAMES, default_game=game, rate_limit=FAST, seed=seed
    ) as served:
        alice = await _open(browser, served, "alice", *sizes[0])
        bob = await _open(browser, served, "bob", *sizes[1])
        if start:
            await _sit_and_start(alice, bob)
            await _settled(served, [alice, bob])
        yield served, alice, bob


def _table(served: Served) -> Any:
    return served.hub.tables[("web", ROOM)]


async def _settled(served: Served, pages: list[Any], timeout: int = TIMEOUT) -> Any:
    """Wait until every page shows the table's latest state; the table."""
    table = served.hub.tables[("web", ROOM)]
    for page in pages:
        await drawn_at(page, table.moves_made, timeout)
    return table


async def _moved(served: Served, before: int) -> None:
    table = served.hub.tables[("web", ROOM)]
    await wait_until(lambda: table.moves_made > before or not table.running, what="the click to make a move")


def _jaipur_choice(table: Any, turn: int) -> str:
    """A legal command that moves the match on: sell the most, else take, else exchange."""
    game = table.plugin
    seat = game.to_act(table.state)[0]
    commands = game.legal_commands(table.state, seat)
    exchanges = [c for c in commands if " give " in c]
    if exchanges and turn % 7 == 3:  # now and then an exchange, built card by card
        return exchanges[turn % len(exchanges)]
    sells = [c for c in commands if c.startswith("sell")]
    if sells:
        return max(sells, key=lambda c: int(c.split()[1]))
    takes = [c for c in commands if c.startswith("take") and "give" not in c]
    if takes:
        return takes[turn % len(takes)]
    return commands[turn % len(commands)]


async def _pick_a_jaipur_move(page: Any, table: Any, command: str) -> str:
    """Build ``command`` with the card picker: click its market cards, then its hand cards and camels."""
    from plugins.jaipur.data import KINDS
    from plugins.jaipur.rules import CAMELS, EXCHANGE, SELL, TAKE

    game = table.plugin
    seat = game.to_act(table.state)[0]
    action = game.parse(table.state, seat, command)
    take: dict[str, int] = {}
    give: dict[str, int] = {}
    if action[0] == TAKE:
        take[KINDS[action[1]]] = 1
    elif action[0] == CAMELS:
        take["camel"] = 1  # one click takes every camel of the market
    elif action[0] == EXCHANGE:
        take = {KINDS[k]: n for k, n in enumerate(action[1]) if n}
        give = {KINDS[k]: n for k, n in enumerate(action[2]) if n}
    elif action[0] == SELL:
        give[KINDS[action[1]]] = action[2]
    for place, wanted in (("#table .jp-market", take), ("#hand", give)):
        for kind, n in wanted.items():
            for _ in range(n):
                card = page.locator(f"{place} .jp-card.jp-{kind}:not([disabled])[aria-pressed='false']")
                await card.first.click()
    await expect(page.locator("#command-preview")).to_have_text(command)
    await page.locator("#play-picked").click()
    return command


async def _hand_names(page: Any) -> list[str]:
    return await page.locator("#hand .jp-goods .jp-name").all_inner_texts()


async def test_two_people_play_a_jaipur_round_by_clicking_only_and_the_match_result_stays(
    browser: Any, tmp_path: Path
) -> None:
    """Every move of the first round is built by clicking: takes, sells and exchanges card by card,
    each hand panel holding its own hand. The rest of the match is played while both have stepped
    away (a whole match by clicking alone: the addbot test below); the result is then in view on both
    pages, stays after a reload, and goes at the next /start."""
    game = GAMES["jaipur"]
    async with _two_at_the_table(browser, tmp_path, seed=SHORT_ROUND_SEED) as (served, alice, bob):
        table = _table(served)
        pages = {"alice": alice, "bob": bob}
        await shot(alice, "jaipur-start.png")
        turn = 0
        commands: list[str] = []
        while table.running and table.state.round_no == 1:
            seat = game.to_act(table.state)[0]
            page = pages[table.players[seat].nick]
            other = pages[table.players[1 - seat].nick]
            await expect(page.locator("#turn")).to_have_class("turn mine")
            await expect(other.locator("#turn")).not_to_have_class("turn mine")
            if turn % 10 == 0:  # each hand panel holds its own hand, never the other's
                for index, who in enumerate(table.players):
                    mine = game.private_data(table.state, index)["hand"]
                    assert await _hand_names(pages[who.nick]) == mine
            before = table.moves_made
            commands.append(await _pick_a_jaipur_move(page, table, _jaipur_choice(table, turn)))
            await _moved(served, before)
            await _settled(served, [alice, bob])
            turn += 1
        assert any(c.startswith("sell") for c in commands) and any(" give " in c for c in commands)
        assert any(c.startswith("take") and " give " not in c for c in commands)
        await alice.locator("#tab-gamelog").click()
        await expect(alice.locator("#gamelogs")).to_contain_text("Round 1 is over", timeout=TIMEOUT)
        for page in (alice, bob):
            await page.goto("about:blank")
        await _type_through_the_hub(served, _rest_of_the_game(served, 6))
        for page in (alice, bob):
            await page.goto(served.url + "/")
            await expect(page.locator("#turn")).to_contain_text("The game is over", timeout=TIMEOUT)
            await expect(page.locator("#table .result")).to_contain_text("★")
            await expect(page.locator("#table .jp-table")).to_be_visible()
        await shot(alice, "jaipur-end.png")
        # the result stays on the board, also after a reload, until the next /start
        await bob.reload()
        await expect(bob.locator("#table .result")).to_contain_text("Game over", timeout=TIMEOUT)
        await button(alice, "/start").click()
        for page in (alice, bob):
            await expect(page.locator("#table .result")).to_have_count(0, timeout=TIMEOUT)
            await expect(page.locator("#turn")).not_to_contain_text("The game is over")
        for page in (alice, bob):
            assert not page.errors, page.errors


async def _click_any_move(page: Any) -> None:
    """The first move the controls offer: a button, or the first entry of a list."""
    buttons = page.locator("#table button.move, #controls .verb-group:not(.jp-picker) button.move")
    await expect(buttons.first).to_be_visible(timeout=TIMEOUT)
    await buttons.first.click()


async def _few_turns_by_clicking(served: Served, name: str, alice: Any, bob: Any, decisions: int) -> None:
    game = GAMES[name]
    await _sit_and_start(alice, bob, name)
    table = await _settled(served, [alice, bob])
    pages = {"alice": alice, "bob": bob}
    for _ in range(decisions):
        seat = game.to_act(table.state)[0]
        page = pages[table.players[seat].nick]
        await expect(page.locator("#turn")).to_have_class("turn mine", timeout=TIMEOUT)
        before = table.moves_made
        await _click_any_move(page)
        await _moved(served, before)
        await _settled(served, [alice, bob])
    assert table.moves_made >= decisions


def _rest_of_the_game(served: Served, seed: int) -> list[tuple[str, str]]:
    """(nick, command) pairs that play the running game to its end, planned on a copy of it."""
    table = served.hub.tables[("web", ROOM)]
    game = table.plugin
    state = game.clone(table.state)
    rng = random.Random(seed)
    plan = []
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        game.apply(state, seat, game.parse(state, seat, command))
        plan.append((table.players[seat].nick, command))
    return plan


async def _type_through_the_hub(served: Served, plan: list[tuple[str, str]]) -> None:
    for nick, command in plan:
        await served.hub.handle(Incoming("web", ROOM, User(nick, account=nick), command))


@pytest.mark.parametrize(("name", "drawn"), [("yspahan", ".ys-tower"), ("bazaar", ".bz-exchange")])
async def test_a_few_turns_by_clicking(browser: Any, tmp_path: Path, name: str, drawn: str) -> None:
    async with _two_at_the_table(browser, tmp_path, start=False) as (served, alice, bob):
        await _few_turns_by_clicking(served, name, alice, bob, 6)
        for page in (alice, bob):
            await expect(page.locator(f"#table {drawn}")).to_be_visible()
        await shot(alice, f"{name}-start.png")
        plan = _rest_of_the_game(served, 4)
        # near the end (the board is still full), played while both have stepped away: each page
        # comes back (its nick and room found again) to the table as it stands, not hundreds of moves
        for page in (alice, bob):
            await page.goto("about:blank")
        await _type_through_the_hub(served, plan[:-12])
        for page in (alice, bob):
            await page.goto(served.url + "/")
        await _settled(served, [alice, bob])
        await shot(alice, f"{name}-end.png")
        await _type_through_the_hub(served, plan[-12:])
        for page in (alice, bob):
            await expect(page.locator("#table .result")).to_contain_text("Game over", timeout=TIMEOUT)
            await expect(page.locator(f"#table {drawn}")).to_be_visible()
        await shot(alice, f"{name}-over.png")
        for page in (alice, bob):
            assert not page.errors, page.errors


async def _finish_until(served: Served, done: Any, seed: int = 2) -> None:
    table = served.hub.tables[("web", ROOM)]
    game = table.plugin
    rng = random.Random(seed)
    for _ in range(2000):
        if done(table) or not table.running:
            return
        seat = game.to_act(table.state)[0]
        nick = table.players[seat].nick
        command = rng.choice(game.legal_commands(table.state, seat))
        await served.hub.handle(Incoming("web", ROOM, User(nick, account=nick), command))


async def test_a_refused_move_stays_unseen_the_keyboard_alone_plays_one_and_the_title_tells_whose_turn(
    browser: Any, tmp_path: Path
) -> None:
    """One Jaipur game from its start: a move refused to the waiting player is seen by nobody else and
    makes no move; the keyboard alone then reaches a move button and plays it; and over the next two
    turns the page's title and room tell each player whether it is their turn."""
    game = GAMES["jaipur"]
    async with _two_at_the_table(browser, tmp_path) as (served, alice, bob):
        table = _table(served)
        pages = {"alice": alice, "bob": bob}
        seat = game.to_act(table.state)[0]
        waiting = pages[table.players[1 - seat].nick]
        acting = pages[table.players[seat].nick]
        await type_line(waiting, "sell 2 spice")  # not their turn: refused
        # the refusal stands over the table, where the eye is, and not among the private lines
        await expect(waiting.locator("#feedback")).to_contain_text("not your turn", timeout=TIMEOUT)
        await expect(waiting.locator("#private-badge")).to_have_text("")
        assert "not your turn" not in await waiting.locator("#private").inner_text()
        await expect(waiting.locator("#logs")).to_contain_text("sell 2 spice")  # the author sees their line
        await type_line(waiting, "good luck")  # a chat line, to know the other page is up to date
        await expect(acting.locator("#logs")).to_contain_text("good luck", timeout=TIMEOUT)
        for place in ("#logs", "#gamelogs", "#private", "#table"):
            text = await acting.locator(place).inner_text()
            assert "sell 2 spice" not in text and "not your turn" not in text
        assert table.moves_made == 0

        # the acting page, never clicked: Tab through it until a move button has the focus, Enter
        focused = None
        for _ in range(80):
            await acting.keyboard.press("Tab")
            focused = await acting.evaluate("() => document.activeElement.dataset.command || null")
            if focused and focused in game.legal_commands(table.state, seat):
                break
        assert focused, "no move button can be reached with the keyboard"
        before = table.moves_made
        await acting.keyboard.press("Enter")
        await _moved(served, before)
        await expect(acting.locator("#gamelogs .entry-text").last).to_have_text(focused, timeout=TIMEOUT)
        await _settled(served, [alice, bob])

        for _ in range(2):
            seat = game.to_act(table.state)[0]
            mine, theirs = pages[table.players[seat].nick], pages[table.players[1 - seat].nick]
            await expect(mine).to_have_title("● your turn · #bazaar", timeout=TIMEOUT)
            await expect(theirs).to_have_title("bazaarbot · #bazaar", timeout=TIMEOUT)
            await expect(mine.locator(".room.my-turn")).to_have_count(1)
            before = table.moves_made
            await _pick_a_jaipur_move(mine, table, _jaipur_choice(table, 0))
            await _moved(served, before)
            await _settled(served, [alice, bob])


async def test_a_phone_keeps_board_and_hand_in_view_after_300_chat_lines(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(
        tmp_path / "p.sqlite",
        games=GAMES,
        default_game="jaipur",
        rate_limit=FAST,
        frame_rate=100_000,
        frame_burst=100_000,
    ) as served:
        alice = await _open(browser, served, "alice", 390, 844)
        bob, _token = await player(served, "bob")
        await button(alice, "/join").click()
        await bob.say(ROOM, "/join")
        await expect(alice.locator('#controls button[data-command="/start"]')).to_be_visible(timeout=TIMEOUT)
        await button(alice, "/start").click()
        await expect(alice.locator("#hand .jp-card").first).to_be_visible(timeout=TIMEOUT)
        for n in range(300):
            await bob.say(ROOM, f"chat line {n} " + "words " * (n % 7))
        await expect(alice.locator("#logs")).to_contain_text("chat line 299", timeout=TIMEOUT)
        # the chat is a drawer: 300 lines push nothing of the table away
        for place in ("#turn", "#table .jp-market"):
            box = await alice.locator(place).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, (place, box)
        hand = await alice.locator("#hand-panel").bounding_box()
        assert hand is not None and hand["height"] > 100, hand
        await alice.locator("#tab-chat").click()  # opens the drawer: the log scrolls in it
        log = alice.locator("#logs .log:not([hidden])")
        sizes = await log.evaluate("e => [e.scrollHeight, e.clientHeight, getComputedStyle(e).overflowY]")
        assert sizes[0] > sizes[1] and sizes[2] == "auto", sizes
        await shot(alice, "jaipur-phone.png")
        assert not alice.errors, alice.errors


#: true once the visible chat pane shows its last line (within a pixel)
_CHAT_AT_BOTTOM = """() => { const e = document.querySelector('#logs .log:not([hidden])');
  return !!e && e.scrollHeight - e.scrollTop - e.clientHeight < 2; }"""
#: resolves after two frames: a scroll's event, and what the page does at the next frame, have run
_TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


async def test_the_chat_follows_its_newest_line_until_the_reader_scrolls_up(
    browser: Any, tmp_path: Path
) -> None:
    fast = {"rate_limit": FAST, "frame_rate": 100_000, "frame_burst": 100_000}
    async with serve(tmp_path / "c.sqlite", **fast) as served:
        alice = await _open(browser, served, "alice", *LAPTOP)
        bob, _token = await player(served, "bob")
        log = alice.locator("#logs .log:not([hidden])")
        for n in range(80):  # a burst: the pane stays at its newest line
            await bob.say(ROOM, f"chat line {n}")
        await expect(log).to_contain_text("chat line 79", timeout=TIMEOUT)
        await alice.wait_for_function(_CHAT_AT_BOTTOM, timeout=TIMEOUT)
        # the reader scrolls up to read: new lines do not pull the pane down
        await log.evaluate("e => { e.scrollTop = 0; }")
        await alice.evaluate(_TWO_FRAMES)  # the pane's scroll event
        for n in range(80, 90):
            await bob.say(ROOM, f"chat line {n}")
        await expect(log).to_contain_text("chat line 89", timeout=TIMEOUT)
        await alice.evaluate(_TWO_FRAMES)  # the frames in which the pane would have moved
        assert await log.evaluate("e => e.scrollTop") == 0, "the pane stays where the reader put it"
        # back at the bottom, it follows again
        await log.evaluate("e => { e.scrollTop = e.scrollHeight; }")
        await alice.evaluate(_TWO_FRAMES)
        await bob.say(ROOM, "chat line 90")
        await expect(log).to_contain_text("chat line 90", timeout=TIMEOUT)
        await alice.wait_for_function(_CHAT_AT_BOTTOM, timeout=TIMEOUT)
        assert not alice.errors, alice.errors


async def test_the_spectator_page_shows_the_drawn_table_and_no_private_data(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(tmp_path / "w.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST) as served:
        frames: list[str] = []
        context = await browser.new_context(viewport={"width": 1280, "height": 800})
        watcher = await context.new_page()
        watcher.on(
            "websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload)))
        )
        await watcher.goto(served.url + "/watch/bazaar")
        alice = await _open(browser, served, "alice")
        bob = await _open(browser, served, "bob")
        await _sit_and_start(alice, bob)
        table = await _settled(served, [alice, bob])
        game = table.plugin
        before = table.moves_made
        seat = game.to_act(table.state)[0]
        page = {"alice": alice, "bob": bob}[table.players[seat].nick]
        await _pick_a_jaipur_move(page, table, _jaipur_choice(table, 1))
        await _moved(served, before)
        await _settled(served, [alice, bob, watcher])
        await expect(watcher.locator("#table .jp-market .jp-card")).to_have_count(5)
        assert await watcher.locator("#hand-panel, #hand, #private").count() == 0
        assert frames, "the spectator got no frames"
        for payload in frames:
            assert '"hand":[' not in payload and '"private"' not in payload
            for frame in frames_in(payload):
                assert frame["t"] not in ("tell", "mine", "echo")
                if frame["t"] in ("view", "watching"):  # a partial view may leave ``you`` out
                    assert frame.get("view") is None or frame["view"].get("you") is None
        await shot(watcher, "jaipur-spectator.png")


async def test_a_person_alone_plays_a_whole_jaipur_match_against_addbot_hard_by_clicking(
    browser: Any, tmp_path: Path
) -> None:
    game = GAMES["jaipur"]
    async with serve(
        tmp_path / "ai.sqlite", games=GAMES, default_game="jaipur", rate_limit=FAST, seed=SHORT_MATCH_SEED
    ) as served:
        alice = await _open(browser, served, "alice")
        await button(alice, "/join").click()
        await expect(alice.locator("#table")).to_contain_text("host", timeout=TIMEOUT)
        await type_line(alice, "/addbot hard")
        await expect(alice.locator("#table")).to_contain_text("AI:hard", timeout=TIMEOUT)
        await button(alice, "/start").click()
        table = served.hub.tables[("web", ROOM)]
        await wait_until(lambda: table.running and table.players, what="the click to start the game")
        game_id = table.game_id
        mine = next(i for i, s in enumerate(table.players) if s.nick == "alice")
        turn = 0
        while table.running:
            await wait_until(
                lambda: not table.running or game.to_act(table.state) == [mine], what="the AI's answer"
            )
            if not table.running:
                break
            assert game.to_act(table.state) == [mine], "the AI left alice waiting"
            await _settled(served, [alice])
            await expect(alice.locator("#turn")).to_have_class("turn mine")
            before = table.moves_made
            await _pick_a_jaipur_move(alice, table, _jaipur_choice(table, turn))
            await _moved(served, before)
            turn += 1
        await expect(alice.locator("#turn")).to_contain_text("The game is over", timeout=TIMEOUT)
        assert any(m["author"] == "ai:hard" for m in served.hub.store.moves(game_id))
        assert not alice.errors, alice.errors


async def _play_via_hub(served: Served, pick: Any, seed: int = 5, limit: int = 400) -> tuple[str, str]:
    """Random legal moves until ``pick(commands)`` names one; that one is played: (nick, command)."""
    table = served.hub.tables[("web", ROOM)]
    game = table.plugin
    rng = random.Random(seed)
    for _ in range(limit):
        seat = game.to_act(table.state)[0]
        nick = table.players[seat].nick
        commands = game.legal_commands(table.state, seat)
        wanted = pick(commands)
        command = wanted or rng.choice(commands)
        await served.hub.handle(Incoming("web", ROOM, User(nick, account=nick), command))
        if wanted:
            return nick, command
    raise AssertionError("no such move came up")


async def test_jaipur_marks_what_the_last_move_took_and_what_it_gave_to_the_market(
    browser: Any, tmp_path: Path
) -> None:
    async with _two_at_the_table(browser, tmp_path, sizes=(PHONE, PHONE)) as (served, alice, bob):
        pages = {"alice": alice, "bob": bob}
        exchange = lambda cs: next((c for c in cs if " give " in c), None)  # noqa: E731
        nick, command = await _play_via_hub(served, exchange)
        table = await _settled(served, [alice, bob])
        took, gave = command.split(" give ")
        for page in pages.values():
            strip = page.locator("#table .jp-market .jp-taken.last-here .jp-took")
            await expect(strip).to_have_count(_cards_in(took.removeprefix("take ")))
            marked = page.locator("#table .jp-market .jp-card.jp-came.last-here")
            assert await marked.count() == _cards_in(gave), command
        # the other player sees it on their own turn: the shot of a phone on its turn with the move marked
        other = alice if nick == "bob" else bob
        await expect(other.locator("#turn")).to_have_class("turn mine", timeout=TIMEOUT)
        await shot(other, "jaipur-phone-last-move.png")
        # a plain take marks its one card; camels, one camel for all of them
        for want in ("take camels", "take "):
            pick = lambda cs, w=want: next((c for c in cs if c.startswith(w) and " give " not in c), None)  # noqa: E731
            _nick, command = await _play_via_hub(served, pick, seed=len(want))
            await _settled(served, [alice, bob])
            kind = command.split()[-1]
            kind = "camel" if kind == "camels" else kind
            took = alice.locator("#table .jp-taken .jp-took")
            await expect(took).to_have_count(1)
            assert "jp-" + kind in (await took.get_attribute("class") or "").split(), command
        assert table.running
        for page in pages.values():
            assert not page.errors, page.errors


def _cards_in(words: str) -> int:
    """How many cards a list such as '2 camels spice' names."""
    total, n = 0, 1
    for word in words.split():
        if word.isdigit():
            n = int(word)
            continue
        total, n = total + n, 1
    return total


async def test_yspahan_marks_the_last_move_and_the_hand_panel_lists_only_your_own_cards(
    browser: Any, tmp_path: Path
) -> None:
    """One two-player game, a laptop and a phone: the supervisor moved and then the cube placed by the
    last move are marked on both pages; later, once both hold cards, each hand panel lists its own
    cards by name, never the other's."""
    async with _two_at_the_table(browser, tmp_path, "yspahan", sizes=(LAPTOP, PHONE)) as (served, alice, bob):
        moving = lambda cs: next((c for c in cs if c.startswith("move ")), None)  # noqa: E731
        await _play_via_hub(served, moving)
        table = await _settled(served, [alice, bob])
        supervisor = GAMES["yspahan"].public_data(table.state)["supervisor"]
        for page in (alice, bob):
            marked = page.locator("#table .ys-space.last-here")
            await expect(marked).to_have_count(1)
            assert await marked.get_attribute("data-space") == supervisor
            await expect(page.locator("#table .ys-shop.last-here")).to_have_count(0)
        placing = lambda cs: next((c for c in cs if c.startswith("place ")), None)  # noqa: E731
        _nick, command = await _play_via_hub(served, placing)
        await _settled(served, [alice, bob])
        souk = command.split()[1]
        for page in (alice, bob):
            shop = page.locator("#table .ys-souk .ys-shop.last-here")
            await expect(shop).to_have_count(1)
            assert "ys-cube" in (await shop.get_attribute("class") or "")  # the cube just put there
            line = page.locator("#table .ys-souk", has=page.locator(".ys-shop.last-here"))
            assert await line.get_attribute("data-souk") == souk, command
            await expect(page.locator("#table .ys-space.last-here")).to_have_count(0)
        await shot(bob, "yspahan-phone-last-move.png")
        game = GAMES["yspahan"]
        await _finish_until(
            served, lambda t: any(len(h) for h in t.state.hands) and t.state.hands[0] != t.state.hands[1]
        )
        assert table.running and table.state.hands[0] != table.state.hands[1]
        await _settled(served, [alice, bob])
        for index, seat in enumerate(table.players):
            page = alice if seat.nick == "alice" else bob
            cards = game.private_data(table.state, index)["cards"]
            shown = await page.locator("#hand .ys-card strong").all_inner_texts()
            assert shown == [c["name"] for c in cards]  # the card's name, never its identifier
            ids = await page.locator("#hand .ys-card").evaluate_all("cards => cards.map(c => c.dataset.card)")
            assert ids == [c["id"] for c in cards]
        for page in (alice, bob):
            assert not page.errors, page.errors


async def test_the_page_lists_a_long_verbs_moves_and_a_reload_returns_to_your_room_seat_and_hand(
    browser: Any, tmp_path: Path
) -> None:
    """One Jaipur game: a turn with more takes than the view carries lists every one, asked for by the
    page, and one of them is played from the list; then a reload of alice's page returns to her room,
    seat and hand without counting lines she has seen."""
    async with _two_at_the_table(browser, tmp_path) as (served, alice, bob):
        table = _table(served)
        takes: list[str] = []
        for _ in range(40):  # cards taken until a turn has more takes than the view carries
            seat = table.plugin.to_act(table.state)[0]
            legal = table.plugin.legal_commands(table.state, seat)
            takes = [c for c in legal if c.startswith("take")]
            if len(takes) > INLINE_COMMANDS:
                break
            nick = table.players[seat].nick
            await served.hub.handle(Incoming("web", ROOM, User(nick, account=nick), legal[0]))
        assert len(takes) > INLINE_COMMANDS
        await _settled(served, [alice, bob])
        view = served.hub.table_view("web", ROOM, table.players[seat].key)
        assert not [c for c in view["you"]["commands"] if c.startswith("take")]  # named, not listed
        page = {"alice": alice, "bob": bob}[table.players[seat].nick]
        listed = page.locator('#controls select.move-list[aria-label="take moves"]')
        options = listed.locator("option")
        await expect(options).to_have_count(len(takes), timeout=TIMEOUT)
        assert [await o.get_attribute("value") for o in await options.all()] == takes
        await listed.select_option(takes[-1])
        before = table.moves_made
        await page.locator('#controls .play-selected[data-verb="take"]').click()
        await _moved(served, before)
        assert table.last_played is not None and table.last_played.text == takes[-1]
        assert not page.errors, page.errors
        await _settled(served, [alice, bob])

        alice_seat = table.game_seat_of("a:alice")
        await type_line(alice, "/join #side")
        await expect(alice.locator("#room-title")).to_have_text("#side")
        await type_line(bob, "/join #side")
        await alice.locator(".room-name", has_text="#bazaar").click()
        await type_line(bob, "side news")  # bob's active room is #side now
        side_badge = alice.locator(".room", has_text="#side").locator(".badge")
        await expect(side_badge).to_have_text("1", timeout=TIMEOUT)
        await alice.locator(".room-name", has_text="#side").click()  # read it
        await expect(alice.locator("#logs")).to_contain_text("side news")
        await alice.locator(".room-name", has_text="#bazaar").click()
        await alice.reload()
        await expect(alice.locator("#room-title")).to_have_text("#bazaar", timeout=TIMEOUT)
        hand = GAMES["jaipur"].private_data(table.state, alice_seat)["hand"]
        await expect(alice.locator("#hand .jp-goods .jp-name")).to_have_text(hand, timeout=TIMEOUT)
        await expect(alice.locator("#table .jp-market")).to_be_visible()
        await expect(alice.locator("#logs .log:not([hidden])")).not_to_contain_text("Type /join to sit")
        await expect(alice.locator(".room", has_text="#side").locator(".badge")).to_have_text("")
        assert not alice.errors, alice.errors
