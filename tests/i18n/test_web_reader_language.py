"""A German or Spanish reader at an English room's web table reads every line in their language.

On the web every tab gets its own copy of every line, so the room's public lines too (the bot's
announcements, the AI's moves, the answers to ``/status``) are in the reader's language, and its AI
seats are named in it (``KI:leicht``), while IRC, Matrix and Discord channels read the room's. A
reader on a phone (``/lang``, the browser's locale) with a 24-character nickname plays moves against
an AI; nothing on the page (banner, answer box, hand, controls, the table, chat, game log, private
lines) holds an English game word (``english_words``), an identifier or an ``AI:`` name.

Both sizes in one game: the first turn's board is uncovered by its answer box on the phone and, the
viewport widened, on the laptop; after the moves the page is read on the phone, and at either size
it never scrolls sideways, Send is whole in view and no word of the table is split across two lines.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from support.english_words import english_terms_in
from support.inview import broken_words, not_in_view, overlaps, past_the_edge, sticking_out
from support.waits import wait_until
from support.webfixtures import serve
from support.webpage import TIMEOUT, drawn_at, expect, shot, sign_in, type_line

from bazaarbot.config import RateLimit
from bazaarbot.i18n import language
from bazaarbot.registry import discover
from plugins.jaipur.data import KINDS

pytestmark = pytest.mark.browser

FAST = RateLimit(commands=10_000, per_seconds=1)
LONGEST = "Abcdefghijklmnopqrstuvwx"
LOCALE = {"de": "de-DE", "es": "es-ES"}
#: how the bot names an easy AI in each language
AI_NICK = {"de": "KI:leicht", "es": "IA:fácil"}
#: the parts of the page a player reads
PARTS = ["#turn-bar", "#hand-panel", "#table", "#seat-controls", "#logs", "#gamelogs", "#private"]
#: a programmer's identifier: ``souk_cube``, ``build_no_gold``
IDENTIFIER = re.compile(r"(?<![#/\w])[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
#: the moves the reader plays before the page is read
MOVES = 6
GAMES = ["jaipur", "yspahan", "bazaar"]
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
#: the part of each game's board the first turn acts on
BOARD = {"jaipur": ".jp-market", "yspahan": ".ys-tower", "bazaar": ".bz-exchange"}


#: the short labels of a table (Yspahan's caravan rows, German "Reihe 2") that take two lines
_WRAPPED_LABELS = """() => [...document.querySelectorAll('#table .ys-row-name')]
  .filter((n) => n.getClientRects().length
    && n.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(n).fontSize))
  .map((n) => n.textContent)"""


async def _at_size(page: Any, size: str) -> None:
    """Resize the viewport to ``size`` and wait until the page has laid itself out at it."""
    width, height = SIZES[size]
    await page.set_viewport_size({"width": width, "height": height})
    await page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


async def _holds_its_width(page: Any, size: str) -> None:
    """The page never scrolls sideways and Send is whole in view (a long nickname pushes nothing off)."""
    assert await past_the_edge(page) <= 0, (size, await sticking_out(page))
    assert not await not_in_view(page, "#say-button"), (size, await not_in_view(page, "#say-button"))


async def _page_text(page: Any) -> dict[str, str]:
    """What each part of the page says, every pane of the drawer opened in turn."""
    read: dict[str, str] = {}
    for tab in ("#tab-chat", "#tab-gamelog", "#tab-private"):
        await page.locator(tab).click()
        await page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
        for part in PARTS:
            node = page.locator(part)
            if await node.count() and await node.is_visible():
                read[part] = read.get(part, "") + "\n" + await node.inner_text()
        await page.locator(tab).click()  # the drawer closes again
    return read


def _leaks(read: dict[str, str], lang: str, typed: set[str]) -> list[str]:
    found = []
    for part, text in read.items():
        for line in text.splitlines():
            if line.strip() in typed:
                continue
            body = line.replace(LONGEST, "")
            found += [f"{part}: {word!r} in {line!r}" for word in english_terms_in(body, lang)]
            found += [f"{part}: the id {word!r} in {line!r}" for word in IDENTIFIER.findall(body)]
            if "AI:" in body:
                found.append(f"{part}: an English AI name in {line!r}")
    return found


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("game", GAMES)
async def test_a_readers_page_at_an_english_rooms_table_holds_no_english_game_word(
    browser: Any, tmp_path: Path, game: str, lang: str
) -> None:
    async with serve(tmp_path / "r.sqlite", games=discover(), default_game=game, rate_limit=FAST) as served:
        context = await browser.new_context(viewport={"width": 390, "height": 844}, locale=LOCALE[lang])
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(served.url + "/")
        await sign_in(page, LONGEST, timeout=TIMEOUT)
        typed = {f"/lang {lang}", "/join", "/addbot easy", "/start", "/status", "/clock"}
        for line in (f"/lang {lang}", "/join", "/addbot easy"):
            await type_line(page, line)
        await expect(page.locator("#table")).to_contain_text(AI_NICK[lang], timeout=TIMEOUT)
        # the host's buttons for another game name it by its title, not its id
        others = page.locator('button[data-command^="/new "]')
        await expect(others).to_have_count(len(GAMES) - 1, timeout=TIMEOUT)
        titles = sorted(
            plugin.title for name, plugin in served.hub.games.items() if name in GAMES and name != game
        )
        assert sorted(await others.all_inner_texts()) == titles
        await type_line(page, "/start")
        await expect(page.locator("#hand-panel")).to_be_visible(timeout=TIMEOUT)
        # the first turn's answer box stands clear of the board at either size
        await expect(page.locator("#feedback")).to_be_visible(timeout=TIMEOUT)
        for size in ("laptop", "phone"):
            await _at_size(page, size)
            await page.evaluate("() => window.scrollTo(0, 0)")
            covered = await overlaps(page, f"#table {BOARD[game]}", "#feedback")
            assert not covered, (size, covered)
            await _holds_its_width(page, size)
        table = served.hub.tables[("web", "#bazaar")]
        mine = next(i for i, seat in enumerate(table.players) if seat.nick == LONGEST)
        rng = random.Random(3)
        for _ in range(MOVES):
            await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "my turn")
            await drawn_at(page, table.moves_made)
            command = rng.choice(table.plugin.legal_commands(table.state, mine))
            words = table.plugin.command_in(table.state, mine, command, lang)
            typed.add(words)
            before = table.moves_made
            await type_line(page, words)
            await wait_until(lambda before=before: table.moves_made > before, TIMEOUT / 1000, "my move")
        await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "my turn")
        for line in ("/status", "/clock"):
            await type_line(page, line)
            await expect(page.locator("#logs .line.k-mine").last).to_contain_text(line, timeout=TIMEOUT)
        await expect(page.locator("#feedback")).to_be_visible(timeout=TIMEOUT)
        await drawn_at(page, table.moves_made)
        assert table.moves_made >= MOVES
        read = await _page_text(page)  # the words are the same at either size: read once, on the phone
        assert AI_NICK[lang] in read["#table"]
        leaks = _leaks(read, lang, typed)
        assert not leaks, "\n".join(leaks)
        for size in ("phone", "laptop"):
            await _at_size(page, size)
            await _holds_its_width(page, size)
            # a long nickname squeezes no heading or number of the table into pieces ("Pk|t.")
            assert not await broken_words(page, "#table"), (size, await broken_words(page, "#table"))
            assert not await page.evaluate(_WRAPPED_LABELS), (size, await page.evaluate(_WRAPPED_LABELS))
            await shot(page, f"reader-{lang}-{game}-{size}.png")
        assert not errors, errors


async def test_a_move_buttons_goods_are_named_as_the_board_names_them(browser: Any, tmp_path: Path) -> None:
    """``1 Tuch`` on a German reader's sell button, as the market names cloth, not the typed ``1 tuch``."""
    async with serve(
        tmp_path / "b.sqlite", games=discover(), default_game="jaipur", rate_limit=FAST
    ) as served:
        context = await browser.new_context(viewport={"width": 1366, "height": 768}, locale="de-DE")
        page = await context.new_page()
        await page.goto(served.url + "/")
        await sign_in(page, "alice", timeout=TIMEOUT)
        for line in ("/lang de", "/join", "/addbot easy", "/start"):
            await type_line(page, line)
        await expect(page.locator("#turn")).to_have_class("turn mine", timeout=TIMEOUT)
        table = served.hub.tables[("web", "#bazaar")]
        mine = next(i for i, seat in enumerate(table.players) if seat.nick == "alice")
        for _ in range(10):  # take goods the hand holds until it holds a pair to sell
            await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "my turn")
            legal = table.plugin.legal_commands(table.state, mine)
            if any(c.startswith("sell ") and int(c.split(" ")[1]) > 1 for c in legal):
                break
            held = {KINDS[k] for k in table.state.hands[mine]}
            takes = [c for c in legal if c.startswith("take ") and c.count(" ") == 1 and c != "take camels"]
            take = next((c for c in takes if c.split(" ")[1] in held), takes[0] if takes else "take camels")
            before = table.moves_made
            await type_line(page, take)
            await wait_until(lambda before=before: table.moves_made > before, TIMEOUT / 1000, "my move")
        await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "my turn")
        await drawn_at(page, table.moves_made)
        # the names the drawn hand and market give the goods
        shown = set(await page.locator("#hand-panel .jp-name, #table .jp-name").all_inner_texts())
        buttons = page.locator('#controls button[data-command^="sell "]')
        assert await buttons.count()
        with language("de"):
            terms = table.plugin.terms()
        counts = set()
        for i in range(await buttons.count()):
            command = await buttons.nth(i).get_attribute("data-command")
            _, n, good = command.split(" ")
            label = (await buttons.nth(i).inner_text()).strip()
            count, name = label.split(" ", 1)
            counts.add(int(n))
            if int(n) == 1:
                assert count == n and name in shown and name != good, (command, label, shown)
            else:  # several are named as several: "2 Gewürze", "2 Diamanten"
                singular = good[:-1] if good.endswith("s") else good
                assert count == n and name == terms[singular + "+"], (command, label)
        assert max(counts) > 1, counts  # the deal holds a pair to sell
