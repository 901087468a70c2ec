"""A channel's regulars are not flooded: AI turns are one line, boards short (a real ngircd)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support.ircserver import IrcServer, RawClient, network_settings, reached, start_bot
from support.waits import wait_until

from bazaarbot.config import AiSettings, BotSettings, RateLimit
from bazaarbot.hub.hub import Hub
from bazaarbot.messages import Outgoing, Say
from bazaarbot.store import Store

pytestmark = pytest.mark.irc

CHAN = "#bazaar"
#: the most lines a board may take in a channel
BOARD_LINES = 6


def ai_hub(directory: Path, games: dict[str, Any], seed: int) -> Hub:
    settings = BotSettings(
        seed=seed, default_game=sorted(games)[0], rate_limit=RateLimit(commands=1000, per_seconds=1.0)
    )
    return Hub(
        Store(directory / "bot.sqlite"),
        games=games,
        settings=settings,
        ai=AiSettings(workers=1, move_delay=0.0, ponder=False),
    )


async def alice_and_the_bot(
    directory: Path, server: IrcServer, closing: list[Any], games: dict[str, Any], seed: int
) -> tuple[Hub, Any, RawClient]:
    """A hub with AI seats, the bot in ``#bazaar`` and alice there with it (all closed after the test)."""
    hub = ai_hub(directory, games, seed=seed)
    closing.append(hub)
    bot = await start_bot(hub, network_settings(server, channels=(CHAN,)))
    closing.append(bot)
    alice = await RawClient("alice", server.port).connect((CHAN,))
    closing.append(alice)
    await wait_until(lambda: bot.roster.in_channel("alice", CHAN), what="alice in the roster")
    return hub, bot, alice


async def test_a_bazaar_game_with_two_ais_writes_at_most_one_channel_line_per_ai_turn(
    tmp_path: Path, ircserver: IrcServer, closing: list[Any]
) -> None:
    from plugins.bazaar import GAME

    hub, bot, alice = await alice_and_the_bot(tmp_path, ircserver, closing, {"bazaar": GAME}, seed=5)
    others = {"lines": 0}
    board_lines: list[int] = []
    original = bot.send

    async def counting(message: Outgoing) -> None:
        """The lines of what is not an AI's turn (a person's move, the start, the end, boards)."""
        if isinstance(message, Say) and not message.ai_turn:
            lines = len(bot._channel_lines(CHAN, message.text, message.colors))
            others["lines"] += lines
            if message.board or message.text == hub.public_board("testnet", CHAN):
                board_lines.append(lines)
        await original(message)

    bot.send = counting  # type: ignore[method-assign]
    for line in ("!join", "!addbot easy", "!addbot easy"):
        alice.say(CHAN, line)
    await alice.expect(lambda line: line.count("AI:easy") >= 2)
    table = hub.tables[("testnet", CHAN)]
    alice.say(CHAN, "!start")
    await wait_until(lambda: table.running, what="the game started")
    game_id = table.game_id
    start_lines = len(alice.lines)
    rng = random.Random(2)
    mine = 0

    def alice_to_act() -> bool:
        return not table.running or 0 in GAME.to_act(table.state)

    while table.running and mine < 60:
        await wait_until(alice_to_act, 30, "alice's turn")
        if not table.running:
            break
        if mine % 10 == 0:
            alice.say(CHAN, "!board")
        before = table.moves_made
        alice.say(CHAN, rng.choice(GAME.legal_commands(table.state, 0)))
        await wait_until(lambda before=before: table.moves_made > before or not table.running, what="a move")
        mine += 1
    await wait_until(alice_to_act, 30, "alice's turn, or the end")
    await wait_until(lambda: not bot.queue.waiting, 10, "the queue empty")
    await alice.expect(lambda line: line.endswith("!leave to get up." if not table.running else "."))
    await reached(bot, alice)  # the last lines reach alice
    moves = hub.store.moves(game_id) if game_id is not None else []
    ai_steps = sum(1 for m in moves if int(m["seat"]) != 0)
    seats = [int(m["seat"]) for m in moves]
    ai_turns = sum(1 for i, seat in enumerate(seats) if seat != 0 and (i == 0 or seats[i - 1] != seat))
    said = [
        line
        for line in alice.lines[start_lines:]
        if line.startswith(":bazaarbot!") and f" PRIVMSG {CHAN} :" in line
    ]
    ai_lines = len(said) - others["lines"]
    print(
        f"Bazaar over IRC, alice and two AIs: {len(moves)} steps ({ai_steps} AI steps, {ai_turns} AI turns),"
        f" {len(said)} channel lines, {ai_lines} for AI turns ({ai_lines / max(ai_turns, 1):.2f} a turn),"
        f" {others['lines'] / max(mine, 1):.2f} other lines per move of alice's;"
        f" longest board {max(board_lines)} lines"
    )
    assert ai_turns > 5 and ai_lines <= ai_turns, "an AI turn takes more than one channel line"
    assert board_lines and max(board_lines) <= BOARD_LINES


#: a person against AIs: the game and how many AIs sit with alice
TABLES = [("jaipur", 1), ("yspahan", 2), ("bazaar", 2)]


@pytest.mark.parametrize(("name", "bots"), TABLES)
async def test_after_a_persons_command_one_line_for_it_and_one_per_ai_turn_and_no_prompt_to_an_ai(
    tmp_path: Path, ircserver: IrcServer, closing: list[Any], name: str, bots: int
) -> None:
    from bazaarbot.registry import discover

    game = discover()[name]
    hub, bot, alice = await alice_and_the_bot(tmp_path, ircserver, closing, {name: game}, seed=9)
    for line in ("!join", *["!addbot easy"] * bots):
        alice.say(CHAN, line)
    await alice.expect(lambda line: line.count("AI:easy") >= bots)
    table = hub.tables[("testnet", CHAN)]
    alice.say(CHAN, "!start")
    await wait_until(lambda: table.running, what="the game started")
    rng = random.Random(4)

    def alice_to_act() -> bool:
        return not table.running or 0 in game.to_act(table.state)

    for _ in range(12):
        await wait_until(alice_to_act, 30, "alice's turn")
        await reached(bot, alice)  # the last lines reach alice
        if not table.running:
            break
        game_id, before, seen = table.game_id, table.moves_made, len(alice.lines)
        alice.say(CHAN, rng.choice(game.legal_commands(table.state, 0)))
        await wait_until(lambda before=before: table.moves_made > before or not table.running, what="a move")
        await wait_until(alice_to_act, 30, "alice's turn again")
        await reached(bot, alice)
        if not table.running:
            break
        seats = [int(m["seat"]) for m in hub.store.moves(game_id)[before:]]
        ai_turns = sum(1 for i, seat in enumerate(seats) if seat != 0 and (i == 0 or seats[i - 1] != seat))
        said = [
            line.split(f" PRIVMSG {CHAN} :", 1)[1]
            for line in alice.lines[seen:]
            if f" PRIVMSG {CHAN} :" in line
        ]
        # one line for alice's move and one per AI seat, however many turns each AI took meanwhile
        # (a Yspahan day change can give an AI two); alice's own prompt when she goes on alone
        assert len(said) <= 1 + min(ai_turns, bots) + (1 if not ai_turns else 0), said
        for line in said:
            assert "Now: AI:" not in line and "AI:easy to" not in line and "AI:easy2 to" not in line, line
