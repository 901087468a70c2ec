"""Hypothesis fuzzing of the command path: arbitrary text and nicks never raise and a refused line
changes nothing."""

from __future__ import annotations

import json
import logging

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.botdriver import Driver

from bazaarbot.messages import Incoming, Say, Tell, User

WORDS = [
    "/join",
    "/leave",
    "/start",
    "/kick",
    "/reset",
    "/new",
    "/status",
    "/board",
    "/hand",
    "/moves",
    "/moves all",
    "!join",
    "bazaarbot:",
    "add",
    "add 1",
    "add 9",
    "/help",
    "/rules",
    "/games",
    "/notice",
    "/colors",
    "#t",
    "count",
    "target=",
    "\r\n",
    "\x00",
    "\x03",
    "🙂",
    " ",
    "/join 2",
    "/kick bob",
    "/new count target=3",
]

nicks = st.one_of(st.sampled_from(["alice", "bob", "carol", "Alice", "root"]), st.text(max_size=12))
texts = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
    st.text(min_size=400, max_size=600),
)
lines = st.tuples(nicks, texts, st.sampled_from(["#t", "#T", None, "#other"]), st.booleans())


def fingerprint(bot: Driver) -> str:
    """Everything a line could change: lobbies, games in memory and the whole database."""
    tables = {}
    for key, table in sorted(bot.hub.tables.items()):
        if table.id is None:
            continue  # looked at, never changed: not stored
        tables[repr(key)] = {
            "seats": [(s.number, s.key, s.nick) for s in table.seats],
            "host": table.host,
            "game": table.game_name,
            "options": table.options,
            "colors": table.colors,
            "state": table.plugin.to_json(table.state) if table.running else None,
        }
    dump = "\n".join(bot.hub.store.db.conn.iterdump())
    return json.dumps(tables, sort_keys=True, default=str) + dump


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=st.lists(lines, min_size=1, max_size=25))
def test_any_line_is_answered_without_error_and_refusals_change_nothing(tmp_path_factory, script):
    bot = Driver(tmp_path_factory.mktemp("fuzz") / "bot.sqlite")
    errors = _Errors()
    logging.getLogger("bazaarbot").addHandler(errors)
    try:
        # a running game so moves have somewhere to go
        for nick, text in [("alice", "/join"), ("bob", "/join"), ("alice", "/start")]:
            bot.line(nick, text)
        for nick, text, channel, op in script:
            before = fingerprint(bot)
            out = bot.hub.process(Incoming("test", channel, User(nick, is_op=op), text))
            for message in out:
                assert isinstance(message, Say | Tell)
                assert "\r" not in message.text and "\x00" not in message.text
                if isinstance(message, Tell):
                    assert not any(ord(c) < 32 for c in message.nick)
            public = [m for m in out if isinstance(m, Say)]
            if not public and not text.strip().lower().lstrip("/!").startswith(("notice", "not")):
                assert fingerprint(bot) == before, (nick, text, out)
        assert errors.records == [], [r.getMessage() for r in errors.records]
    finally:
        logging.getLogger("bazaarbot").removeHandler(errors)
        bot.hub.store.close()
