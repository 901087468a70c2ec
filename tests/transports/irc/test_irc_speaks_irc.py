"""IRC that speaks IRC, on a real ngircd: commands a client types, boards that never go stale, a short start.

The board test runs with ngircd's default flood control and the bot's default
pacing (4 lines at once, then one a second), as a channel would see it; the
others with the fast test server. Run with ``-s`` to see the figures each
prints: channel lines of a start, lines per move, the wait of a move's
announcement behind queued boards.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from support.ircserver import (
    IrcServer,
    RawClient,
    all_written,
    gather_cast,
    is_marker,
    reached,
    wait_until,
)

from bazaarbot.commands import REGISTRY
from bazaarbot.config import IrcNetwork
from bazaarbot.hub.hub import Hub
from bazaarbot.transports.irc import IrcTransport
from bazaarbot.transports.irc.sendqueue import TokenBucket

pytestmark = pytest.mark.irc

CHAN = "#jaipur"
BOT = ":bazaarbot!"


def from_bot(line: str) -> str | None:
    """The text of a PRIVMSG or NOTICE the bot sent, else None."""
    if not line.startswith(BOT):
        return None
    parts = line.split(" ", 3)
    if len(parts) < 4 or parts[1] not in ("PRIVMSG", "NOTICE"):
        return None
    return parts[3][1:]


def channel_text(line: str) -> str | None:
    return from_bot(line) if f" PRIVMSG {CHAN} :" in line else None


#: every name and alias the bot answers to
NAMES = sorted({*REGISTRY.specs, *REGISTRY.aliases}, key=len, reverse=True)
SLASH_COMMAND = re.compile(r"(?<![\w/])/(?:" + "|".join(map(re.escape, NAMES)) + r")(?![\w-])", re.I)
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def slash_commands(text: str) -> list[str]:
    """The bot commands a line names with a slash, outside the quotes of what somebody typed."""
    return SLASH_COMMAND.findall(QUOTED.sub("", text))


async def jaipur_table(
    tmp_path: Path, server: IrcServer, closing: list, **settings: object
) -> tuple[Hub, IrcTransport, dict[str, RawClient]]:
    from plugins.jaipur import GAME

    players = {"alice": (CHAN,), "bob": (CHAN,)}
    cast = await gather_cast(
        tmp_path, server, closing, players, games={"jaipur": GAME}, seed=11, channels=(CHAN,), **settings
    )
    await cast.seat_all(CHAN, 30)
    await cast.bot.queue.drained()
    return cast.hub, cast.bot, cast.clients


async def settled(bot: IrcTransport, clients: Iterable[RawClient]) -> None:
    """Until everything the bot has to say to the lines it read so far has reached each of ``clients``."""
    for client in clients:
        await reached(bot, client)


async def answered(
    bot: IrcTransport, client: RawClient, target: str, text: str, silent: bool = False
) -> None:
    """``client`` types ``text`` to ``target`` once the bot's earlier lines reached it, and waits for the
    bot's first line after it: a person reads the answer before typing on. A ``silent`` line (chatter)
    gets none: the answer to a ``!games`` typed after it shows it was read."""
    await reached(bot, client)
    seen = len(client.lines)
    client.say(target, text)
    if silent:
        client.say("bazaarbot", "!games")
    await wait_until(
        lambda: any(from_bot(line) for line in client.lines[seen:]),
        30,
        lambda: f"an answer to {client.nick}'s {text!r}; last: {client.lines[-6:]}",
    )


def mover(hub: Hub) -> str:
    table = hub.tables[("testnet", CHAN)]
    return table.players[table.plugin.to_act(table.state)[0]].nick


async def test_no_line_the_bot_sends_on_irc_names_a_slash_command(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, clients = await jaipur_table(tmp_path, ircserver, closing, page_lines=2)
    alice, bob = clients["alice"], clients["bob"]
    alice.say(CHAN, "!start")
    await alice.expect("PRIVMSG alice :Your hand", 30)
    for nick, target, text in (  # each line once the answer to the one before it is read
        ("alice", CHAN, "!board"),
        ("bob", CHAN, "!status"),
        ("bob", CHAN, "!games"),
        ("alice", "bazaarbot", "!help"),
        ("alice", "bazaarbot", "help join"),
        ("alice", "bazaarbot", "!help moves"),
        ("alice", "bazaarbot", "!rules yspahan"),
        ("bob", "bazaarbot", "!moves all"),
        ("bob", "bazaarbot", "!frobnicate"),
        ("bob", CHAN, "!strat"),
        ("alice", CHAN, "!start"),
        ("alice", CHAN, "!join"),
        ("alice", "bazaarbot", "!clock"),
        ("alice", "bazaarbot", "!top"),
        ("alice", "bazaarbot", "!claim 12345678"),
        ("bob", "bazaarbot", "!undo"),
        ("bob", "bazaarbot", "hello there"),
        ("alice", "bazaarbot", "!leave"),
    ):
        await answered(bot, clients[nick], target, text, silent=text == "hello there")
    carol = await RawClient("carol", ircserver.port).connect((CHAN,))
    closing.append(carol)
    await answered(bot, carol, "bazaarbot", "hand")
    await answered(bot, carol, CHAN, "!join")
    await carol.expect("PRIVMSG carol :", 30)
    await settled(bot, (alice, bob, carol))
    lines = [line for client in (alice, bob, carol) for line in client.lines if not is_marker(line)]
    said = [text for text in map(from_bot, lines) if text]
    assert len(said) > 30
    named = {text: slash_commands(text) for text in said if slash_commands(text)}
    assert not named, f"lines naming a command an IRC client swallows: {named}"
    assert any("!hand" in text for text in said) and any("more lines: !more)" in text for text in said)


async def test_plain_more_hand_board_moves_and_help_in_a_query_work_like_the_command(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, clients = await jaipur_table(tmp_path, ircserver, closing, page_lines=2)
    clients["alice"].say(CHAN, "!start")
    await clients["alice"].expect("PRIVMSG alice :Your hand", 30)
    nick = mover(hub)
    player = clients[nick]
    await settled(bot, clients.values())
    player.since()
    player.say("bazaarbot", "!rules jaipur")
    await player.expect(lambda line: line.endswith(" more line: !more)"), 30)
    player.say("bazaarbot", "more")
    page = await player.expect(f"PRIVMSG {nick} :", 30)
    assert "did not understand" not in page and "Nothing more" not in page
    for word, answer in (
        ("hand", "Your hand"),
        ("board", "Jaipur, round 1"),
        ("moves", "take"),
        ("help", "Commands: !"),
    ):
        await settled(bot, clients.values())
        player.since()
        player.say("bazaarbot", word)
        line = await player.expect(f"PRIVMSG {nick} :", 30)
        assert answer in line, (word, line)
    carol = await RawClient("carol", ircserver.port).connect((CHAN,))
    closing.append(carol)
    carol.say("bazaarbot", "more")  # no seat, nothing asked before: the command's own answer
    assert "Nothing more to show" in await carol.expect("PRIVMSG carol :", 30)


async def test_a_game_start_is_at_most_three_channel_lines_and_a_timed_out_decision_one(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, clients = await jaipur_table(tmp_path, ircserver, closing)
    alice, bob = clients["alice"], clients["bob"]
    alice.say(CHAN, "!clock 120s")
    await bob.expect(lambda line: (channel_text(line) or "").startswith("Turn clock: 2m"), 30)
    await settled(bot, clients.values())
    bob.since()
    alice.say(CHAN, "!start")
    await wait_until(lambda: hub.tables[("testnet", CHAN)].running, 30, "the game to start")
    await settled(bot, clients.values())
    start = [text for text in map(channel_text, bob.since()) if text]
    print(f"\nchannel lines of a Jaipur start: {len(start)}: {start}")
    assert len(start) <= 3
    assert "starts: alice vs bob" in start[0] and "to play" in start[-1]
    nick = mover(hub)
    watcher = clients["bob" if nick == "alice" else "alice"]
    table = hub.tables[("testnet", CHAN)]
    before = table.moves_made
    watcher.since()
    clients[nick].since()
    began = time.time()
    for later in (0, 61, 91):  # half time and the last call: private reminders only
        await hub.tick(began + later)
    await clients[nick].expect(f"PRIVMSG {nick} :Your move at {CHAN}: 59s left", 30)
    await hub.tick(began + 121)  # the first timeout of a player who has not moved yet: one more period
    await hub.tick(began + 121)
    await hub.tick(began + 242)
    await wait_until(lambda: table.moves_made > before, 60, "the AI to play the timed-out decision")
    await settled(bot, clients.values())
    public = [text for text in map(channel_text, watcher.since()) if text]
    print(f"channel lines of a timed-out decision (its move included): {len(public)}: {public}")
    clock_lines = [text for text in public if "left" in text.split(":")[-1] or "Time is up" in text]
    assert len(clock_lines) == 1 and clock_lines[0].startswith(f"Time is up for {nick}")
    assert len(public) == 1 + 1, "the clock's line and the move's own, on one line as an AI's turn"
    per_move = []
    for _ in range(6):  # moves typed as usual: how many lines each costs
        nick = mover(hub)
        legal = table.plugin.legal_commands(table.state, table.plugin.to_act(table.state)[0])
        before, sent = table.moves_made, bot.queue.sent
        clients[nick].say(CHAN, legal[-1])
        await wait_until(lambda before=before: table.moves_made > before, 30, "the move")
        await all_written(bot)
        per_move.append(bot.queue.sent - sent)
    print(f"lines sent per Jaipur move (channel and private): {per_move}")
    assert max(per_move) <= 4


async def test_four_boards_then_a_move_the_announcement_is_not_held_and_no_stale_board_leaves(
    tmp_path: Path, ircserver_flood: IrcServer, closing
) -> None:
    defaults = IrcNetwork(name="x", host="x")
    hub, bot, clients = await jaipur_table(tmp_path, ircserver_flood, closing)
    # ngircd has handled every line of the fast part: what is left of its penalty for them runs out while
    # the game starts, before the move is timed
    await settled(bot, clients.values())
    # seated at the fast test pace; from here on the bot's default pacing, as a network would have it
    bot.queue.bucket = TokenBucket(defaults.burst, defaults.lines_per_second)
    table = hub.tables[("testnet", CHAN)]
    written: list[tuple[int, str]] = []
    write = bot.queue.write
    bot.queue.write = lambda line: (write(line), written.append((table.moves_made, line)))[1]  # type: ignore[method-assign]
    clients["alice"].say(CHAN, "!start")
    await wait_until(lambda: table.running, 30, "the game to start")
    await settled(bot, clients.values())
    start_lines = sum(1 for _n, line in written if line.startswith(f"PRIVMSG {CHAN} :"))
    nick = mover(hub)
    player = clients[nick]
    watcher = clients["bob" if nick == "alice" else "alice"]
    old = set(hub.public_board("testnet", CHAN).split("\n"))
    before = table.moves_made
    written.clear()
    for _ in range(4):  # typed as a person types, within ngircd's own flood limits: one line at a time
        seen = len(watcher.lines)
        player.say(CHAN, "!board")
        await wait_until(
            lambda seen=seen: any(f"{nick}!" in line and ":!board" in line for line in watcher.lines[seen:]),
            30,
            "the server to relay the !board",
        )
    legal = table.plugin.legal_commands(table.state, table.plugin.to_act(table.state)[0])
    move = "take camels" if "take camels" in legal else legal[0]
    watcher.since()
    typed = time.monotonic()
    player.say(CHAN, move)
    await wait_until(lambda: table.moves_made > before, 30, "the move")
    new = set(hub.public_board("testnet", CHAN).split("\n"))
    board_lines = old | new
    announced = await watcher.expect(
        lambda line: (text := channel_text(line)) is not None and text not in board_lines, 30
    )
    wait = time.monotonic() - typed
    await settled(bot, clients.values())
    channel = [(n, line.split(" :", 1)[1]) for n, line in written if line.startswith(f"PRIVMSG {CHAN} :")]
    boards = [text for _n, text in channel if text in board_lines]
    stale = [text for n, text in channel if n > before and text in old - new]
    move_lines = [
        line for n, line in written if n > before and line.startswith("PRIVMSG ") and not is_marker(line)
    ]
    print(
        f"\nngircd default flood control, bot burst {defaults.burst}, {defaults.lines_per_second} line/s:"
        f"\n  channel lines of a Jaipur start: {start_lines}"
        f"\n  4 x !board then {move!r}: {len(boards)} board lines in the channel,"
        f" the move's announcement {wait:.2f} s after it was typed ({announced.split(' :', 1)[1]!r})"
        f"\n  lines for the move: {len(move_lines)}"
        f" ({sum(line.startswith(f'PRIVMSG {CHAN} ') for line in move_lines)} in the channel)"
    )
    assert wait < 3.0, f"the move's announcement waited {wait:.1f} s"
    assert not stale, f"board lines that left after the move showed the old position: {stale}"
    assert len(boards) <= len(new), "the repeated !board was sent again, or a board line twice"
