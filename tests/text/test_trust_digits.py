"""Every number a person types or a URL carries is read one way: odd digits get a plain answer.

``²`` and ``①`` pass ``str.isdigit`` and make ``int`` raise; ``٣`` and ``𝟙`` are
taken by ``int`` and by ``re``'s ``\\d``; a 5,000-digit string makes ``int`` raise.
These drive every declared command (with its aliases), every move verb of every
game, and every HTTP route with such numbers, huge ones and negative ones: the
answer is a plain refusal (or a 404), never "something went wrong", a traceback
or an HTTP 500.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from urllib.parse import quote

import aiohttp
import pytest
from support.botdriver import Driver, text
from support.webfixtures import serve

from bazaarbot.commands import REGISTRY
from bazaarbot.registry import discover
from bazaarbot.text.digits import is_number, number, signed_number

#: numbers nobody should be able to crash the bot with
ODD_NUMBERS = ("²", "①", "٣", "𝟙", "2²", "-1", "-99999999999", "+3", "1_000", "9" * 40, "0", "#²", "٣٣")
#: too long for ``int`` (more than 4,300 digits), sent where a line may be that long
HUGE = "7" * 5000


def test_one_helper_reads_ascii_digits_only_and_bounded():
    assert [number(w) for w in ("0", "42", "007")] == [0, 42, 7]
    assert [number(w) for w in ("²", "①", "٣", "𝟙", "", "-1", "+3", " 3", "1_000", "9" * 13, HUGE)] == [
        None
    ] * 11
    assert [signed_number(w) for w in ("+3", "-2", "5", "+-3", "--1", "-", "-²")] == [
        3,
        -2,
        5,
        None,
        None,
        None,
        None,
    ]
    assert is_number("9" * 12) and not is_number("9" * 13)


def quiet(caplog: pytest.LogCaptureFixture) -> None:
    """No traceback was logged (an exception that reached a handler's catch-all)."""
    failures = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]


def plain(answer: str, line: str) -> None:
    assert "went wrong" not in answer and "Traceback" not in answer, (line, answer)


@pytest.fixture
def bot(tmp_path: Path) -> Driver:
    return Driver(tmp_path / "bot.sqlite", games=discover())


def every_command_word() -> list[str]:
    return sorted({*(spec.name for spec in REGISTRY), *REGISTRY.aliases})


def test_every_command_with_odd_numbers_answers_plainly(bot: Driver, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING)
    words = every_command_word()
    for stage in ("no table", "lobby", "game"):
        if stage == "lobby":
            bot.line("alice", "/new jaipur")
            bot.line("alice", "/join")
        elif stage == "game":
            bot.line("bob", "/join")
            bot.line("alice", "/start")
        for word in words:
            for odd in ODD_NUMBERS:
                for line in (f"/{word} {odd}", f"/{word} all {odd} {odd}"):
                    answer = text(bot.line("carol" if word in ("join", "claim") else "alice", line))
                    plain(answer, line)
                    if stage == "game":  # in a direct chat too, where a seated player's lines go
                        plain(text(bot.dm("alice", line)), line)
    quiet(caplog)


@pytest.mark.parametrize("option", ["players", "seed", "clock", "x"])
def test_game_options_with_odd_numbers_are_refused_plainly(
    bot: Driver, caplog: pytest.LogCaptureFixture, option: str
):
    for odd in ODD_NUMBERS:
        for game in ("jaipur", "yspahan", "bazaar"):
            line = f"/new {game} {option}={odd}"
            plain(text(bot.line("alice", line, channel=f"#{game}")), line)
    quiet(caplog)


@pytest.mark.parametrize("game", ["jaipur", "yspahan", "bazaar"])
def test_every_move_with_odd_numbers_in_place_of_its_digits_is_refused_plainly(
    bot: Driver, caplog: pytest.LogCaptureFixture, game: str
):
    bot.line("alice", f"/new {game}")
    bot.script("alice: /join", "bob: /join", "alice: /start")
    table = bot.table
    for _turn in range(3):
        seat = table.plugin.to_act(table.state)[0]
        mover = table.players[seat].nick
        moves = table.plugin.legal_commands(table.state, seat)
        verbs = {m.split(" ", 1)[0] for m in moves}
        with_digits = [m for m in moves if re.search("[0-9]", m)][:40]
        for move in with_digits + [f"{verb} {odd}" for verb in verbs for odd in ODD_NUMBERS[:6]]:
            for odd in ODD_NUMBERS:
                line = re.sub("[0-9]+", odd, move)
                plain(text(bot.line(mover, line)), line)
        if moves:
            bot.line(mover, moves[0])
    quiet(caplog)


async def test_every_route_with_odd_numbers_answers_404_or_a_page_never_500(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.WARNING)
    async with serve(tmp_path / "bot.sqlite", games=discover(), default_game="jaipur") as served:
        routes = sorted(
            {r.resource.canonical for r in served.transport.app().router.routes() if r.resource is not None}
        )
        assert "/replay/{game_id}" in routes and "/replay/{game_id}/data" in routes
        async with aiohttp.ClientSession() as session:
            for route in routes:
                for odd in (*ODD_NUMBERS, HUGE[:2000]):
                    path = re.sub(r"\{[^}]+\}", quote(odd, safe=""), route)
                    for url in (served.url + path, served.url + path + "?page=" + quote(odd)):
                        async with session.get(url) as response:
                            body = await response.text()
                        assert response.status < 500, (url, response.status)
                        assert "Traceback" not in body, url
            for odd in ("²", "①", "٣", "𝟙"):
                async with session.get(served.url + "/replay/" + odd) as response:
                    assert response.status == 404
                async with session.get(served.url + "/replay/" + odd + "/data") as response:
                    assert response.status == 404
    quiet(caplog)


def test_review_with_odd_numbers_says_what_it_takes(bot: Driver, caplog: pytest.LogCaptureFixture):
    for odd in ("²", "①", "٣", "𝟙", "#²", "-3", "9" * 40, "1" * 13):
        answer = text(bot.dm("alice", f"/review {odd}"))
        assert answer == "/review takes the number of a game (/history lists yours), or nothing.", answer
    quiet(caplog)
