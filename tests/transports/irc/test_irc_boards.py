"""Boards are state, not history: the send queue and the IRC transport, without a server.

A board queued for a channel yields to the channel's moves, is drawn again when
the table changed while it waited, is sent once to somebody who asks again, and
one person's bulk output in a channel is bounded (the rest goes to them
privately, with a line saying so). The same on a real ngircd with the default
pacing: ``test_irc_speaks_irc.py``.
"""

from __future__ import annotations

import pytest

from bazaarbot.config import ConfigError, IrcNetwork, parse_config
from bazaarbot.messages import Say, User
from bazaarbot.transports.irc import IrcTransport
from bazaarbot.transports.irc.bulk import PublicBulk
from bazaarbot.transports.irc.fairqueue import FairQueue
from bazaarbot.transports.irc.prefix import incoming

CHAN = "#t"
ALICE = User("alice", mask="alice!a@host")


class Drawing:
    """What a board's lines show: stale when told, drawn again as ``now``."""

    def __init__(self, now: list[str]) -> None:
        self.now = now
        self.changed = False
        self.asked: list[int] = []

    def stale(self) -> bool:
        return self.changed

    def redraw(self, waiting: int) -> list[str]:
        self.changed = False
        self.asked.append(waiting)
        return self.now[len(self.now) - waiting :] if self.now else []


def drain(queue: FairQueue) -> list[str]:
    out = []
    while queue:
        try:
            target, _line = queue.peek()
        except IndexError:
            break
        out.append(queue.pop(target))
    return out


def test_a_moves_announcement_goes_before_the_board_queued_for_its_channel() -> None:
    queue = FairQueue()
    board = Drawing([])
    for i in range(6):
        queue.put(f"board {i}", CHAN, shows=board)
    queue.put("ada takes silver", CHAN)
    queue.put("Market: ...", CHAN)
    assert drain(queue) == ["ada takes silver", "Market: ..."] + [f"board {i}" for i in range(6)]


def test_a_channel_list_yields_to_later_game_lines_but_a_private_listing_keeps_its_order() -> None:
    queue = FairQueue()
    queue.put("top 1", CHAN, yields=True)
    queue.put("top 2", CHAN, yields=True)
    queue.put("move", CHAN)
    queue.put("listing", "alice", bulk=True)
    queue.put("hand", "alice")
    assert [line for line in drain(queue) if line in ("top 1", "top 2", "move")] == ["move", "top 1", "top 2"]
    queue.put("listing", "alice", bulk=True)
    queue.put("hand", "alice")
    assert drain(queue) == ["listing", "hand"]


def test_a_stale_board_is_drawn_again_from_its_first_line_not_yet_sent() -> None:
    queue = FairQueue()
    board = Drawing(["new 0", "new 1", "new 2", "new 3"])
    for i in range(4):
        queue.put(f"old {i}", CHAN, shows=board)
    target, line = queue.peek()
    assert queue.pop(target) == "old 0"
    board.changed = True  # a move: the three lines still waiting show the old position
    assert drain(queue) == ["new 1", "new 2", "new 3"]
    assert board.asked == [3] and queue.stale == 3


def test_a_board_whose_game_is_gone_is_dropped_before_it_leaves() -> None:
    queue = FairQueue()
    board = Drawing([])
    queue.put("old 0", CHAN, shows=board)
    board.changed = True
    with pytest.raises(IndexError):
        queue.peek()
    assert not queue and not queue.showing(CHAN)


class Table:
    """The two facts of ``HubPort`` a queued board needs: its version and its drawing."""

    def __init__(self) -> None:
        self.version = 1
        self.board = "Round 1.\nMarket: silver.\nada to play."

    def board_version(self, network: str, channel: str) -> object:
        return self.version

    def public_board(self, network: str, channel: str) -> str | None:
        return self.board


def transport(table: Table, **settings: object) -> IrcTransport:
    bot = IrcTransport(IrcNetwork(name="net", host="irc.example.org", channels=(CHAN,), **settings))
    bot.hub = table  # type: ignore[assignment]
    return bot


def board_say(table: Table, who: User = ALICE) -> Say:
    return Say("net", CHAN, table.board, listing=True, board=True, asked_by=who)


def sent(bot: IrcTransport) -> list[str]:
    return drain(bot.queue.waiting)


async def test_a_board_asked_for_while_one_waits_is_not_queued_again() -> None:
    table = Table()
    bot = transport(table)
    for who in (ALICE, User("bob", mask="bob!b@host"), ALICE, ALICE):
        await bot.send(board_say(table, who))
    assert len(bot.queue.lines) == 3


async def test_repeated_board_from_one_user_unchanged_is_sent_once_and_again_after_a_move() -> None:
    table = Table()
    bot = transport(table)
    await bot.send(board_say(table))
    assert len(sent(bot)) == 3
    await bot.send(board_say(table))
    assert sent(bot) == []
    table.version, table.board = 2, "Round 1.\nMarket: gold.\nbo to play."
    await bot.send(board_say(table))
    assert sent(bot)[1].endswith(":Market: gold.")


async def test_queued_board_drawn_again_never_shows_the_old_turn() -> None:
    table = Table()
    bot = transport(table)
    await bot.send(board_say(table))
    table.version, table.board = 2, "Round 1.\nMarket: gold.\nbo to play."
    await bot.send(Say("net", CHAN, "ada takes silver."))
    lines = [line.split(" :", 1)[1] for line in sent(bot)]
    assert lines == ["ada takes silver.", "Round 1.", "Market: gold.", "bo to play."]


async def test_one_users_public_bulk_past_the_bound_goes_privately_with_a_line_saying_so() -> None:
    table = Table()
    bot = transport(table)
    bot.bulk = PublicBulk(lines=4, window=60.0, repeat=0.0, clock=lambda: 100.0)
    for version in (1, 2, 3):
        table.version = version
        await bot.send(board_say(table))
        sent(bot)
    await bot.send(Say("net", CHAN, "Best players: ...", listing=True, asked_by=ALICE))
    lines = sent(bot)
    assert all(line.startswith("PRIVMSG alice :") for line in lines)
    assert "so that #t is not flooded" in lines[0] and lines[1].endswith(":Best players: ...")
    other = User("bob", mask="bob!b@host")
    await bot.send(Say("net", CHAN, "Best players: ...", listing=True, asked_by=other))
    assert sent(bot) == ["PRIVMSG #t :Best players: ..."], "the bound is each person's own"


def test_the_bulk_bound_opens_again_after_its_window() -> None:
    now = [0.0]
    bulk = PublicBulk(lines=6, window=60.0, clock=lambda: now[0])
    assert bulk.public(CHAN, "a", 6)
    assert not bulk.public(CHAN, "a", 1)
    now[0] = 61.0
    assert bulk.public(CHAN, "a", 6)


def test_a_networks_command_prefix_is_what_its_users_type_and_what_the_bot_names() -> None:
    assert incoming(".more", ".") == "!more"
    assert incoming("...", ".") == "..."
    assert incoming("!more", "!") == "!more"
    section = {"irc": {"networks": [{"name": "n", "host": "h", "command_prefix": "."}]}}
    assert parse_config(section).irc[0].command_prefix == "."
    for bad in ("/", "ab", "#", " "):
        section["irc"]["networks"][0]["command_prefix"] = bad
        with pytest.raises(ConfigError):
            parse_config(section)


async def test_the_bot_names_commands_with_the_networks_own_command_character() -> None:
    import bazaarbot.commands  # noqa: F401  (the declared commands are what a sentence marks)
    from bazaarbot.i18n import _
    from bazaarbot.messages import Tell

    bot = transport(Table(), command_prefix=".")
    await bot.send(Tell("net", "alice", _("Only a seated player can start; /join first.")))
    assert bot.queue.lines == ["PRIVMSG alice :Only a seated player can start; .join first."]


async def test_status_asked_twice_unchanged_is_said_once_and_again_when_it_changed() -> None:
    bot = transport(Table())
    status = "Jaipur: ada vs AI:hard. ada to play."
    await bot.send(Say("net", CHAN, status, listing=True, asked_by=ALICE))
    assert sent(bot) == [f"PRIVMSG {CHAN} :{status}"]
    await bot.send(Say("net", CHAN, status, listing=True, asked_by=ALICE))
    assert sent(bot) == []  # silent, as a board asked for again
    await bot.send(
        Say("net", CHAN, status.replace("ada to play", "AI:hard to play"), listing=True, asked_by=ALICE)
    )
    assert len(sent(bot)) == 1
