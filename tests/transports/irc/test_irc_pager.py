"""Paging and packing of long private listings on IRC, without a server."""

from __future__ import annotations

import io

import pytest

from bazaarbot.config import ConfigError, IrcNetwork, parse_config
from bazaarbot.messages import Say, Tell
from bazaarbot.text.commandmark import render
from bazaarbot.transports.console import ConsoleTransport
from bazaarbot.transports.irc import IrcTransport
from bazaarbot.transports.irc.pager import Pager, more_line
from bazaarbot.transports.irc.split import LINELEN, pack_lines


def transport(**overrides: object) -> IrcTransport:
    values: dict[str, object] = {"name": "net", "host": "irc.example.org", "channels": ("#bazaar",)}
    values.update(overrides)
    return IrcTransport(IrcNetwork(**values))  # type: ignore[arg-type]


def listing(count: int, word: str = "line") -> str:
    return "\n".join(f"{word} {i}" for i in range(count))


def texts(bot: IrcTransport) -> list[str]:
    return [line.split(" :", 1)[1] for line in bot.queue.lines]


def test_the_more_line_counts_in_words_that_fit_the_number() -> None:
    assert render(more_line(1)) == "(1 more line: /more)"
    assert render(more_line(14), "!") == "(14 more lines: !more)"


async def test_a_long_listing_sends_its_first_page_and_says_how_many_lines_are_left() -> None:
    bot = transport()
    await bot.send(Tell("net", "alice", listing(20), listing=True))
    assert texts(bot) == [f"line {i}" for i in range(6)] + ["(14 more lines: !more)"]
    assert all(line.startswith("PRIVMSG alice :") for line in bot.queue.lines)


async def test_more_sends_the_next_page_and_says_when_nothing_is_left() -> None:
    bot = transport(page_lines=8)
    await bot.send(Tell("net", "alice", listing(20), listing=True))
    bot.queue.clear()
    assert bot.next_page("Alice")  # nicks fold as the server folds them
    assert texts(bot) == [f"line {i}" for i in range(8, 16)] + ["(4 more lines: !more)"]
    bot.queue.clear()
    assert bot.next_page("alice")
    assert texts(bot) == [f"line {i}" for i in range(16, 20)]
    bot.queue.clear()
    assert not bot.next_page("alice")
    assert not bot.next_page("bob")
    assert bot.queue.lines == []


async def test_a_short_listing_is_sent_whole() -> None:
    bot = transport()
    await bot.send(Tell("net", "alice", listing(6), listing=True))
    assert texts(bot) == [f"line {i}" for i in range(6)]
    assert not bot.next_page("alice")


async def test_a_new_listing_replaces_what_was_left_unsent() -> None:
    bot = transport()
    await bot.send(Say("net", "#bazaar", "alice takes 2 spice."))
    await bot.send(Tell("net", "alice", "Your hand: 2 spice"))
    await bot.send(Tell("net", "alice", listing(20, "old"), listing=True))
    await bot.send(Tell("net", "alice", listing(3, "new"), listing=True))
    assert texts(bot) == ["alice takes 2 spice.", "Your hand: 2 spice", "new 0", "new 1", "new 2"]
    assert not bot.next_page("alice")


async def test_game_messages_are_never_paged_or_dropped() -> None:
    bot = transport()
    await bot.send(Tell("net", "alice", listing(20, "board"), listing=False))
    await bot.send(Tell("net", "alice", listing(20, "listing"), listing=True))
    assert texts(bot)[:20] == [f"board {i}" for i in range(20)]
    assert texts(bot)[20:] == [f"listing {i}" for i in range(6)] + ["(14 more lines: !more)"]


async def test_pages_keep_the_notice_preference() -> None:
    bot = transport(page_lines=2)
    await bot.send(Tell("net", "alice", listing(3), notice=True, listing=True))
    bot.queue.clear()
    assert bot.next_page("alice")
    assert bot.queue.lines == ["NOTICE alice :line 2"]


async def test_command_listings_are_packed_with_bars_within_the_byte_budget() -> None:
    bot = transport()
    commands = [f"take {good} give 2 camels" for good in ("diamond", "gold", "silver", "cloth", "spice")] * 20
    await bot.send(Tell("net", "alice", "\n".join(commands), listing=True, commands=True))
    lines = bot.queue.lines
    assert len(lines) < 10 and lines[-1].endswith("more lines: !more)")
    bot.queue.clear()
    while bot.next_page("alice"):
        lines += bot.queue.lines
        bot.queue.clear()
    sent = [part for line in lines if "more line" not in line for part in line.split(" :", 1)[1].split(" | ")]
    assert sent == commands  # every command once, in order, exactly typeable
    for line in lines:
        relayed = f":bazaarbot__!~bazaarbot@{'h' * 63} {line}\r\n"
        assert len(relayed.encode()) <= LINELEN
    assert len(lines) <= len("\n".join(commands).encode()) // 350 + 3  # close to as few as fit


async def test_a_listing_of_sentences_is_paged_but_not_packed() -> None:
    bot = transport()
    await bot.send(Tell("net", "alice", "Rules, line one.\nRules, line two.", listing=True))
    assert texts(bot) == ["Rules, line one.", "Rules, line two."]


def test_packing_keeps_a_line_too_long_to_join_on_its_own() -> None:
    assert pack_lines(["a" * 10, "b" * 10, "c" * 30, "d"], 25) == ["a" * 10 + " | " + "b" * 10, "c" * 30, "d"]
    assert pack_lines([], 100) == []


def test_pages_follow_a_nick_change() -> None:
    pager = Pager(1)
    first = pager.start("alice", "alice", "PRIVMSG", ["a", "b"])
    assert [render(line, "!") for line in first.lines] == ["a", "(1 more line: !more)"]
    pager.renamed("alice", "alicia", "Alicia")
    assert pager.next("alice") is None
    page = pager.next("alicia")
    assert page is not None and page.nick == "Alicia" and page.lines == ["b"]


def test_only_the_most_recent_people_keep_pages() -> None:
    pager = Pager(1, limit=2)
    for nick in ("a", "b", "c"):
        pager.start(nick, nick, "PRIVMSG", ["1", "2"])
    assert pager.left("a") == 0 and pager.left("b") == pager.left("c") == 1


def test_a_page_needs_a_line() -> None:
    with pytest.raises(ValueError):
        Pager(0)


async def test_the_console_keeps_one_command_per_line() -> None:
    out = io.StringIO()
    console = ConsoleTransport(out=out)
    await console.send(Tell("console", "alice", "take leather\ntake camels", listing=True, commands=True))
    assert out.getvalue() == "@alice> take leather\n@alice> take camels\n"


def test_page_lines_is_a_network_setting_of_at_least_one() -> None:
    network = {"name": "x", "host": "h"}
    assert parse_config({"irc": {"networks": [network]}}).irc[0].page_lines == 6
    assert parse_config({"irc": {"networks": [{**network, "page_lines": 12}]}}).irc[0].page_lines == 12
    with pytest.raises(ConfigError, match=r"irc\.networks\[0\]\.page_lines must be at least 1"):
        parse_config({"irc": {"networks": [{**network, "page_lines": 0}]}})
