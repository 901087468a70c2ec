"""Every write a person causes, on a full or read-only disk: a plain answer, and nothing changes.

The bot's sqlite file lives on a small tmpfs that the test fills to the last
byte (``fulldisk.py``): preferences (``/lang``, ``/notice``, ``/colors``), a new
table, a seat (and its seat code), a claimed seat code, a review, a web nick
claim and a web admin token each get "could not be saved", never "something
went wrong", a traceback in the log or a closed websocket; memory stays as the
disk says. The chat writes are also tried with every connection of the store
refusing writes (sqlite's ``query_only``), which fails as a read-only disk does.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path

import pytest
from support.botdriver import NETWORK, Driver, Recorder, told
from support.fulldisk import fill, small_disk
from support.teach_helpers import HeldPool
from support.waits import wait_until
from support.webfixtures import serve

from bazaarbot.messages import Incoming, User
from bazaarbot.teach.review import review

UNSAVED = "Sorry, that could not be saved; nothing changed. Try again."


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """The log says what failed in one line each: no exception with its traceback."""
    tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
    assert not tracebacks, tracebacks


def finished_game(bot: Driver) -> int:
    bot.script("alice: /new count target=4", "bob: /join", "alice: /start")
    game_id = bot.table.game_id
    while bot.table.running:
        mover = bot.table.players[bot.table.state.turn].nick
        bot.line(mover, "add 2")
    return game_id


def read_only(bot: Driver) -> None:
    """Every connection of the store refuses writes, as on a disk mounted read-only (SQLITE_READONLY)."""
    for conn in (bot.hub.store.db.conn, bot.hub.store.writer.conn):
        conn.execute("PRAGMA query_only = ON")


@pytest.mark.parametrize("disk_state", ["full", "read-only"])
def test_on_a_full_disk_every_chat_write_answers_plainly_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, disk_state: str
):
    with small_disk(tmp_path) as disk:
        bot = Driver(disk / "bot.sqlite")
        game_id = finished_game(bot)
        bot.line("alice", "/new count", channel="#lobby")
        joined = told(bot.line("carol", "/join", channel="#codes", mask="carol!~c@home.example"), "carol")
        found = re.search(r"/claim (\w+)", "\n".join(joined))
        assert found, joined
        code = found.group(1)
        prefs_before = bot.hub.store.prefs()
        seats_before = [s.nick for s in bot.hub.tables[(NETWORK, "#lobby")].seats]
        if disk_state == "full":
            fill(disk, bot.hub.store.db.conn)
        else:
            read_only(bot)

        for nick, line, channel, mask in [
            ("alice", "/lang de", None, None),
            ("alice", "/lang channel de", "#t", None),
            ("alice", "/notice on", None, None),
            ("alice", "/colors on", "#t", None),
            ("dave", "/new count", "#fresh", None),
            ("bob", "/join", "#lobby", "bob!~b@home.example"),
            ("carol", f"/claim {code}", "#codes", "carol!~c@cafe.example"),
            ("alice", f"/review {game_id}", None, None),
        ]:
            answer = told(bot.line(nick, line, channel=channel, mask=mask), nick)
            assert answer == [UNSAVED], (line, answer)

        assert bot.hub.store.prefs() == prefs_before
        assert "Sprache" not in " ".join(told(bot.dm("alice", "/lang"), "alice"))
        assert (NETWORK, "#fresh") not in bot.hub.tables or not bot.hub.tables[(NETWORK, "#fresh")].seats
        assert [s.nick for s in bot.hub.tables[(NETWORK, "#lobby")].seats] == seats_before
        assert bot.hub.teacher.stored_review(game_id) is None
        assert bot.hub.codes.owner(NETWORK, code) == ("#codes", "m:carol!~c@home.example")
        if disk_state == "read-only":
            for conn in (bot.hub.store.db.conn, bot.hub.store.writer.conn):
                conn.execute("PRAGMA query_only = OFF")
        bot.hub.store.close()
    no_traceback(caplog)


def test_a_review_searched_in_the_background_still_reaches_its_reader_on_a_full_disk(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    with small_disk(tmp_path) as disk:
        bot = Driver(disk / "bot.sqlite")
        game_id = finished_game(bot)
        recorder = Recorder()
        bot.hub.attach(recorder)
        held = HeldPool()
        bot.hub.teacher.review_pool = lambda: held
        fill(disk, bot.hub.store.db.conn)

        async def ask() -> None:
            await bot.hub.handle(Incoming(NETWORK, None, User("alice"), f"/review {game_id}"))
            await wait_until(lambda: held.held, what="the review's search to reach the pool")
            assert [work for _future, work, _args in held.held] == [review]
            held.release()
            await bot.hub.idle()

        asyncio.run(ask())
        assert recorder.private("alice")[-1].startswith(f"Review of game {game_id} (Count) for alice")
        assert bot.hub.teacher.stored_review(game_id) is None, "not kept: the disk is full"
        bot.hub.store.close()
    no_traceback(caplog)


async def test_a_web_nick_claim_on_a_full_disk_gets_a_clear_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.INFO)
    with small_disk(tmp_path) as disk:
        async with serve(disk / "bot.sqlite") as served:
            tab = await served.connect()
            await tab.hello()
            assert served.transport.admin_tokens is not None
            admin_token = served.transport.admin_tokens.issue("root")
            first = await tab.claim("alice")
            assert first["t"] == "claimed"
            other = await served.connect()
            await other.hello()
            fill(disk, served.hub.store.db.conn)

            answer = await other.claim("bob")
            assert answer["t"] == "error" and answer["text"] == UNSAVED, answer
            renamed = await tab.claim("alicia")
            assert renamed["t"] == "error" and renamed["text"] == UNSAVED, renamed
            await tab.send(t="admin", token=admin_token)
            refused = await tab.expect(("admin", "error"))
            assert refused["t"] == "error" and refused["text"] == UNSAVED, refused
            # the sockets stay open and nothing changed
            await other.send(t="ping")
            assert (await other.expect("pong"))["t"] == "pong"
            assert served.transport.claims is not None and served.transport.claims.count() == 1
            assert {c.nick for c in served.transport.conns} == {"alice", None}
            assert served.transport.admin_tokens.admin_of(first["token"]) is None
            # a browser coming back a day later keeps its nick (its last use is not noted)
            claims = served.transport.claims
            claims.clock = lambda: time.time() + 86400
            back = await served.connect()
            assert (await back.hello(first["token"]))["nick"] == "alice"
    no_traceback(caplog)
