"""``bazaarbot run`` with ``[[discord.bots]]``: a whole Jaipur match by typing, through a kill -9."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from support.discordbed import bot_config
from support.discordpeople import BARE_ID, EDITED, Person, outside_blocks, shown_text
from support.discordpeople import room as take_room
from support.paths import REPO_ROOT
from support.waits import wait_until

from bazaarbot.bench.botprocess import bazaarbot_command
from bazaarbot.registry import discover
from bazaarbot.table.steps import replay

pytestmark = [pytest.mark.discord, pytest.mark.xdist_group("discord-a")]

#: the bot's seed deals a match that ``quick`` ends in 93 moves (102 under seed 207): found by
#: replaying its choices against the rules alone over thousands of seeds
CONFIG = """
[bot]
seed = 4427

[bot.rate_limit]
commands = 1000
per_seconds = 1

[web]
enabled = false

# nothing here reads the finished match's review: no background search for it at the end
[ai]
review_after_game = 0

"""
#: the accepted move after which the bot is killed
KILL_AFTER = 12
#: every so many moves both people are asked for their moves in their DMs (in between, the moves are
#: read from the game the bot filed: an accepted move is on disk before the bot answers it)
CHECK_BOTH_EVERY = 8
#: what a person's ``moves all`` says when they have nothing to play now
NOT_THEIRS = ("(no moves)", "not your turn")
#: how every Jaipur command begins (each line of a ``moves all`` answer that lists moves)
COMMAND_START = ("take ", "sell ")


async def run_bot(config: Path, db: Path, log: Path) -> asyncio.subprocess.Process:
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            *bazaarbot_command("run", "-c", str(config), "--db", str(db)),
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
            cwd=REPO_ROOT,
        )


async def answered(person: Person, text: str, channel: str, tries: int = 20) -> dict[str, Any]:
    """Say ``text`` in ``channel`` until the bot answers there (it misses what is said while it is away)."""
    for _ in range(tries):
        mark = person.mark()
        await person.say(channel, text)
        try:
            return await person.expect(lambda d: True, channel, mark, timeout=3.0)
        except AssertionError:
            continue
    raise AssertionError(f"the bot never answered {text!r}")


def answer_lines(content: str) -> list[str]:
    """The lines of a DM that answer ``moves all``: its commands, or the line saying none are theirs.

    The person's other private lines (what their bonus token was worth, their hand) may still be on
    their way from the move before, ahead of the answer or in the same message.
    """
    return [
        line
        for line in outside_blocks(content)
        if line.startswith(COMMAND_START) or any(word in line for word in NOT_THEIRS)
    ]


async def listing(person: Person) -> list[str]:
    """What ``moves all`` in the person's DM lists: every legal command, or nothing when it is not theirs."""
    dm = await person.dm_channel()
    mark = person.mark()
    await person.say_dm("moves all")
    first = await person.expect(lambda d: bool(answer_lines(d["content"])), dm, mark)
    lines = answer_lines(first["content"])
    if any(word in line for line in lines for word in NOT_THEIRS):
        return []
    return lines


def filed(db: Path, people: tuple[Person, ...]) -> tuple[Person, list[str]]:
    """Who is to act and their legal commands, by the running game the bot filed (read-only)."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        game_id, seed, options, players = conn.execute(
            "SELECT id, seed, options, players FROM games WHERE status = 'running' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        moves = conn.execute(
            "SELECT n, seat, author, text FROM moves WHERE game_id = ? ORDER BY n", [game_id]
        )
        records = [{"n": n, "seat": seat, "author": author, "text": text} for n, seat, author, text in moves]
    jaipur, seats = discover()["jaipur"], json.loads(players)
    _steps, state = replay(jaipur, seed, [seat["nick"] for seat in seats], json.loads(options), records)
    (acting,) = jaipur.to_act(state)
    person = next(each for each in people if seats[acting]["key"] == f"a:{each.id}")
    return person, jaipur.legal_commands(state, acting)


def quick(lines: list[str], rng: random.Random) -> str:
    """A legal move that brings the match to its end soon: the biggest sale, else taking one good."""
    sales = [line for line in lines if line.startswith("sell ")]
    if sales:
        return max(sales, key=lambda line: int(line.split()[1]) if line.split()[1].isdigit() else 1)
    takes = [line for line in lines if line.startswith("take ") and "camel" not in line]
    return rng.choice(takes or lines)


def over(data: dict[str, Any]) -> bool:
    return any(line.startswith("Game over:") for line in shown_text(data).split("\n"))


async def test_a_whole_jaipur_match_by_typing_survives_a_kill(tmp_path: Path, testbed: dict[str, Any]):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG + bot_config(testbed))
    db, log = tmp_path / "bot.sqlite", tmp_path / "bot.log"
    alice, bob = await Person.of(testbed, "alice"), await Person.of(testbed, "bob")
    people = (alice, bob)
    room = take_room(testbed)
    process = await run_bot(config, db, log)
    try:
        start = alice.mark()
        await answered(alice, "!new jaipur", room)  # who makes the table sits at it
        await bob.say(room, "!join")
        await bob.expect(lambda d: "bob" in shown_text(d) and "joins" in shown_text(d), room)
        await alice.say(room, "!start")
        for person in people:
            await person.expect(lambda d: "Your hand" in shown_text(d), await person.dm_channel())
        rng = random.Random(5)
        moves, board_id, restarted = 0, "", False
        called = {person.id: 0 for person in people}  # where each person's gateway stood at the last move
        named: Person | None = None  # the one person the bot's last lines mentioned
        mover: Person | None = None  # who played the last move (a round they lost they start: no ping)
        while not any(over(d) for d in alice.seen(room, start)):
            person, lines = filed(db, people)
            if named is None or moves % CHECK_BOTH_EVERY == 0:
                mine = zip(people, await asyncio.gather(*(listing(each) for each in people)), strict=True)
                acting = [(each, listed) for each, listed in mine if listed]
                assert [(each.name, listed) for each, listed in acting] == [(person.name, lines)], (
                    "one person to act, whose DM lists the moves of the game as filed"
                )
            assert named in (None, person), "the person mentioned is the one to act"
            if person is not mover:  # the lines that ask somebody else to act mention them
                await person.expect(lambda d, p=person: p.mention in d["content"], room, called[person.id])
            boards = await wait_until(  # the board message reaches alice's gateway in its own time
                lambda: [d for d in alice.seen(room, start) if d["content"].startswith("```")],
                what="the board in the room",
            )
            board_id = str(boards[-1]["id"])
            edited = alice.mark()
            called = {each.id: each.mark() for each in people}
            await person.say(room, quick(lines, rng))
            mover = person
            await person.expect(lambda d: not d["content"].startswith("```"), room, called[person.id])
            moves += 1
            said = [d for d in alice.seen(room, called[alice.id]) if not d["content"].startswith("```")]
            mentioned = {each.name: each for d in said for each in people if each.mention in d["content"]}
            named = next(iter(mentioned.values())) if len(mentioned) == 1 else None
            if restarted:
                # the board message of before the kill is the one edited
                same = lambda d, was=board_id: str(d["id"]) == was  # noqa: E731
                await alice.expect(same, room, edited, events=(EDITED,))
                restarted = False
            if moves == KILL_AFTER:
                process.send_signal(signal.SIGKILL)
                await process.wait()
                process = await run_bot(config, db, log)
                await answered(alice, "!status", room)
                restarted, named = True, None
        lines = alice.seen(room, start)
        assert moves > KILL_AFTER, "the match went on after the kill"
        for data in lines:
            shown = shown_text(data).replace(alice.mention, "").replace(bob.mention, "")
            assert not BARE_ID.search(shown), f"a bare id in the channel: {shown[:200]}"
        for person in people:
            assert not any("Your hand" in shown_text(d) for d in person.seen(room)), "a hand in the room"
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await process.wait()
        await alice.close()
        await bob.close()
