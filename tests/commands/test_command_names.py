"""Commands named the way the reader types them: marked once when a sentence is built, shown per transport."""

from __future__ import annotations

import io
import json

import bazaarbot.commands  # noqa: F401  (the declared commands are what a sentence marks)
from bazaarbot.i18n import _, language
from bazaarbot.messages import Tell
from bazaarbot.text.commandmark import MARK, command, mark, render
from bazaarbot.text.sanitize import sanitize
from bazaarbot.transports.console import ConsoleTransport
from bazaarbot.transports.web.encoding import encode


def test_a_sentence_marks_the_bot_commands_it_names_and_nothing_else() -> None:
    assert (
        mark("/hand re-sends it; /moves all, (/help moves)")
        == f"{MARK}hand re-sends it; {MARK}moves all, ({MARK}help moves)"
    )
    assert mark("type /accept bot (or /mode nick -g)") == "type /accept bot (or /mode nick -g)"
    assert mark("1/2 of the cards, and/or /joinery") == "1/2 of the cards, and/or /joinery"
    assert mark(mark("/join")) == f"{MARK}join"


def test_what_a_user_typed_is_never_marked_even_when_it_names_a_command() -> None:
    line = _("I do not know the command {word!r}.").format(word="/join")
    assert MARK not in line
    assert sanitize(f"{MARK}join") == "join", "user text can never carry the mark"


def test_a_translated_sentence_marks_its_commands_too() -> None:
    with language("de"):
        line = _("Only a seated player can start; /join first.")
    assert f"{MARK}join" in line and "/" not in line


async def test_the_console_and_the_web_name_commands_with_a_slash() -> None:
    out = io.StringIO()
    console = ConsoleTransport(out=out)
    await console.send(Tell("console", "alice", f"{command('more')} for the rest"))
    assert out.getvalue() == "@alice> /more for the rest\n"
    frame = json.loads(encode("tell", text=f"{command('hand')} re-sends it", nested=[{"x": command("join")}]))
    assert frame["text"] == "/hand re-sends it" and frame["nested"] == [{"x": "/join"}]


def test_rendering_with_a_networks_character() -> None:
    assert render(f"({MARK}more)", "!") == "(!more)"
    assert render("no command here", "!") == "no command here"
