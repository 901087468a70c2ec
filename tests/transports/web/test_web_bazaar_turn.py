"""Bazaar on the page for a newcomer: a trade's button says what it gives and what it gets, in the
reader's words (not "row 2" or "5 back"), a purchase's names its field (not a bare "1"), and on a
phone the part of the table the turn acts on (the exchange for a trade, the fields for a purchase)
is in view when the turn comes.

Set BAZAARBOT_SCREENSHOTS to a folder to keep the pictures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.waits import wait_until
from support.webfixtures import serve
from support.webpage import TIMEOUT, against_an_easy_ai, drawn_at, expect, open_page, shot, type_line

from bazaarbot.config import RateLimit
from bazaarbot.registry import discover

pytestmark = pytest.mark.browser

FAST = RateLimit(commands=10_000, per_seconds=1)
LOCALE = {"en": "en-US", "de": "de-DE", "es": "es-ES"}


async def _bazaar_against_the_ai(
    browser: Any, served: Any, lang: str, size: tuple[int, int]
) -> tuple[Any, Any, int]:
    """alice's page at a Bazaar table against an easy AI, the game started."""
    page = await open_page(browser, served, size=size, locale=LOCALE[lang])
    table, mine = await against_an_easy_ai(page, served, "#table .bz-exchange")
    return page, table, mine


async def _my_turn(page: Any, table: Any, mine: int) -> None:
    """Wait for alice's decision, drawn on her page."""
    await wait_until(lambda: table.plugin.to_act(table.state) == [mine], TIMEOUT / 1000, "alice's turn")
    await drawn_at(page, table.moves_made)


async def _play(page: Any, table: Any, mine: int, command: str) -> None:
    before = table.moves_made
    await type_line(page, table.plugin.command_in(table.state, mine, command, "en"))
    await wait_until(lambda: table.moves_made > before, TIMEOUT / 1000, f"alice's {command}")


async def _a_turn_with_trades(page: Any, table: Any, mine: int, back: bool = False) -> list[str]:
    """Play alice's moves (a draw, a joker's colour) until a turn of hers offers trades (with
    ``back``, one that gives an exchange row's right side too)."""
    for _turn in range(30):
        await _my_turn(page, table, mine)
        legal = table.plugin.legal_commands(table.state, mine)
        trades = [c for c in legal if c.startswith("trade ")]
        if trades and (not back or any(c.endswith(" back") for c in trades)):
            return trades
        await _play(page, table, mine, legal[0])
    raise AssertionError("no such trade offered to alice in 30 turns")


def _group(counts: list[int], lang: str) -> str:
    """Stones as the page's trade buttons name them: "2 green + 1 red", in ``lang``."""
    from bazaarbot.i18n import language
    from plugins.bazaar import colours

    with language(lang):
        return " + ".join(f"{n} {colours.name(c)}" for c, n in enumerate(counts) if n)


#: the drawer of chat at the page's foot: what is under it is not in view
DRAWER = ".chat"
#: whether the boxes of ``sel`` lie whole between the page's top and the top of the chat drawer
_IN_VIEW = """([sel, drawer]) => {
  const foot = document.querySelector(drawer).getBoundingClientRect().top;
  return [...document.querySelectorAll(sel)].map((n) => {
    const r = n.getBoundingClientRect();
    const at = `${Math.round(r.top)}..${Math.round(r.bottom)} (fold ${Math.round(foot)})`;
    return r.top >= 0 && r.bottom <= foot ? '' : `${sel} ${at}`;
  }).filter(Boolean);
}"""


async def _an_answer_over_the_table(page: Any) -> None:
    """A question a player asks at their turn: its answer stands over the table."""
    await type_line(page, "/clock")
    await expect(page.locator("#feedback")).to_contain_text("turn clock", timeout=TIMEOUT)


async def test_a_bazaar_trade_button_says_what_it_gives_and_what_it_gets(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(
        tmp_path / "b.sqlite", games=discover(), default_game="bazaar", rate_limit=FAST
    ) as served:
        page, table, mine = await _bazaar_against_the_ai(browser, served, "en", (1366, 768))
        trades = await _a_turn_with_trades(page, table, mine, back=True)
        from plugins.bazaar.rules import trade_sides

        for lang in ("en", "de", "es"):  # the same turn read in each language in turn
            if lang != "en":
                await type_line(page, f"/lang {lang}")
            for command in trades:
                words = command.split(" ")
                give, get = trade_sides(table.state, int(words[1]) - 1, words[-1] == "back")
                shown = page.locator(
                    f'#controls button[data-command="{command}"], #controls option[value="{command}"]'
                )
                await expect(shown).to_have_count(1, timeout=TIMEOUT)
                await expect(shown).to_contain_text(_group(list(get), lang), timeout=TIMEOUT)
                label = (await shown.text_content() or "").strip()
                assert words[1] in label and "back" not in label, label
                at_give, at_get = label.find(_group(list(give), lang)), label.find(_group(list(get), lang))
                assert 0 <= at_give < at_get, (
                    command,
                    label,
                    _group(list(give), lang),
                    _group(list(get), lang),
                )
            await shot(page, f"bazaar-trades-{lang}-laptop.png")
        await page.set_viewport_size({"width": 390, "height": 844})
        await drawn_at(page, table.moves_made)
        await shot(page, "bazaar-trades-es-phone.png")
        assert not page.errors, page.errors


async def test_on_a_phone_the_part_of_bazaar_the_turn_acts_on_is_in_view(
    browser: Any, tmp_path: Path
) -> None:
    async with serve(
        tmp_path / "b.sqlite", games=discover(), default_game="bazaar", rate_limit=FAST
    ) as served:
        page, table, mine = await _bazaar_against_the_ai(browser, served, "en", (390, 844))
        await _a_turn_with_trades(page, table, mine)
        # a trade: the whole exchange under the reader's stones, an answer standing over the table too
        await expect(page.locator("#table .bz-exchange.acting")).to_be_visible(timeout=TIMEOUT)
        await _an_answer_over_the_table(page)
        await page.evaluate("() => window.scrollTo(0, 0)")
        assert not await page.evaluate(_IN_VIEW, ["#table .bz-exchange.acting", DRAWER])
        assert not await page.evaluate(_IN_VIEW, ["#hand-panel", DRAWER])
        await shot(page, "bazaar-trade-turn-phone.png")
        # a purchase: alice holds the first field's top combination and draws, then may buy it
        state = table.state
        top = state.fields[0][-1]
        state.hands[mine][:] = [
            max(held, wanted) for held, wanted in zip(state.hands[mine], top, strict=True)
        ]
        await _play(page, table, mine, "draw")
        await wait_until(
            lambda: (
                table.plugin.to_act(table.state) == [mine]
                and any(c.startswith("buy ") for c in table.plugin.legal_commands(table.state, mine))
            ),
            TIMEOUT / 1000,
            "alice may buy",
        )
        await drawn_at(page, table.moves_made)
        await expect(page.locator("#table .bz-fields.acting")).to_be_visible(timeout=TIMEOUT)
        await expect(page.locator('#controls button[data-command="buy 1"]')).to_have_text("field 1")
        await _an_answer_over_the_table(page)
        await page.evaluate("() => window.scrollTo(0, 0)")
        assert not await page.evaluate(_IN_VIEW, ["#table .bz-fields.acting .bz-field", DRAWER])
        await shot(page, "bazaar-buy-turn-phone.png")
        await page.set_viewport_size({"width": 1366, "height": 768})
        await drawn_at(page, table.moves_made)
        await shot(page, "bazaar-buy-turn-laptop.png")
        assert not page.errors, page.errors
