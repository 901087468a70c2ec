"""Server frames: encoded once, commands rendered in the text, views as what changed, batches."""

from __future__ import annotations

import json

from bazaarbot.text.commandmark import MARK
from bazaarbot.transports.web import viewframe
from bazaarbot.transports.web.encoding import batch, dumps, encode, render_marks
from bazaarbot.transports.web.viewframe import EncodedPublic, encode_you


def test_a_marked_command_reads_as_the_web_types_it():
    frame = json.loads(encode("tell", text=f"Type {MARK}join to sit down.", lines=[f"{MARK}start"]))
    assert frame == {"t": "tell", "text": "Type /join to sit down.", "lines": ["/start"]}


def test_a_typed_backslash_before_the_marks_escape_is_left_as_typed():
    typed = "\\u001a is what I typed"  # a person's text: a backslash, then the letters u001a
    assert json.loads(encode("chat", text=typed))["text"] == typed
    both = f"\\\\{MARK}x"  # two typed backslashes, then a real mark
    assert json.loads(encode("chat", text=both))["text"] == "\\\\/x"


def test_text_without_marks_is_returned_unchanged():
    text = dumps({"a": "plain"})
    assert render_marks(text) is text


def test_numbers_as_keys_are_written_as_strings_and_keys_can_be_sorted():
    assert dumps({2: "b", 1: "a"}, sort_keys=True) == '{"1":"a","2":"b"}'
    assert dumps({"é": "ü"}) == '{"é":"ü"}'  # UTF-8 kept, not escaped


def test_frames_that_leave_together_are_one_array_and_a_single_frame_goes_alone():
    one, two = encode("a", n=1), encode("b", n=2)
    assert batch([one]) == one
    assert json.loads(batch([one, two])) == [{"t": "a", "n": 1}, {"t": "b", "n": 2}]


def test_a_first_view_frame_is_whole_with_the_readers_own_part():
    public = {
        "game": "jaipur",
        "log": [{"n": 0, "text": "sell cloth"}],
        "clock": {"seats": [0], "seconds": 60, "paused": False, "now": 100.0},
        "you": None,
        "status": f"{MARK}start when seated",
    }
    encoded = EncodedPublic.of(public)
    you = {"seat": 1, "commands": ["take spice"], "hint": f"{MARK}moves"}
    frame, sent = encoded.frame(dumps("#r"), encode_you(you), None)
    assert frame is not None
    decoded = json.loads(frame)
    assert "partial" not in decoded and decoded["room"] == "#r"
    assert decoded["view"] == {
        "game": "jaipur",
        "clock": public["clock"],
        "status": "/start when seated",
        "you": {"seat": 1, "commands": ["take spice"], "hint": "/moves"},
    }
    assert encoded.entries == public["log"]  # the log goes as a frame of its own
    assert set(sent.members) == {"game", "clock", "status", "you"}


def test_a_later_view_frame_holds_what_changed_and_the_clock_and_merges_into_the_whole():
    public = {"game": "jaipur", "phase": "running", "moves": 3, "clock": {"seats": [0], "now": 1.0}}
    you = encode_you({"seat": 0, "commands": ["take spice"]})
    first, sent = EncodedPublic.of(public).frame('"#r"', you, None)
    page = json.loads(first)["view"]
    # the clock's reading alone: nothing to send, and what the tab has stays as it was
    frame, still = EncodedPublic.of(public | {"clock": {"seats": [0], "now": 9.0}}).frame('"#r"', you, sent)
    assert frame is None and still == sent
    # a move: the members that changed, with a fresh clock, and nothing else
    later = public | {"moves": 4, "clock": {"seats": [1], "now": 12.0}}
    mine = encode_you({"seat": 0, "commands": []})
    frame, sent = EncodedPublic.of(later).frame('"#r"', mine, sent)
    decoded = json.loads(frame)
    assert decoded["partial"] is True
    assert decoded["view"] == {"moves": 4, "clock": later["clock"], "you": {"seat": 0, "commands": []}}
    assert {**page, **decoded["view"]} == later | {"you": {"seat": 0, "commands": []}}
    # a member more or less (a game over, a lobby): the whole view again
    over = later | {"result": {"winners": [0]}}
    frame, _ = EncodedPublic.of(over).frame('"#r"', mine, sent)
    assert "partial" not in json.loads(frame)


def test_a_deadline_the_clocks_tick_moved_is_sent_its_running_reading_is_not():
    clock = {"seats": [0], "seconds": 45, "deadline": 145.2, "now": 100.0}
    public = {"game": "jaipur", "clock": clock}
    you = encode_you(None)
    _, sent = EncodedPublic.of(public).frame('"#r"', you, None)
    ticking = EncodedPublic.of({"game": "jaipur", "clock": clock | {"now": 130.0}})
    assert ticking.frame('"#r"', you, sent)[0] is None
    # the clock started at its tick, two seconds after the view foresaw: every tab is told
    moved = EncodedPublic.of({"game": "jaipur", "clock": clock | {"deadline": 147.3, "now": 102.0}})
    frame, _ = moved.frame('"#r"', you, sent)
    assert frame is not None and json.loads(frame)["view"]["clock"]["deadline"] == 147.3


def test_a_foreseen_deadline_moves_with_the_reading_and_is_no_change_until_the_clock_starts():
    foreseen = {"seats": [0], "seconds": 300, "deadline": 400.4, "now": 100.4, "foreseen": True}
    you = encode_you(None)
    _, sent = EncodedPublic.of({"game": "jaipur", "clock": foreseen}).frame('"#r"', you, None)
    # an answer a second later that changed nothing: the foresight moved a second, no view goes out
    later = foreseen | {"deadline": 401.6, "now": 101.6}
    assert EncodedPublic.of({"game": "jaipur", "clock": later}).frame('"#r"', you, sent)[0] is None
    # the clock's tick starts it: the deadline it set goes to every tab
    started = {"seats": [0], "seconds": 300, "deadline": 401.0, "now": 101.0}
    frame, _ = EncodedPublic.of({"game": "jaipur", "clock": started}).frame('"#r"', you, sent)
    assert frame is not None and json.loads(frame)["view"]["clock"]["deadline"] == 401.0


def test_without_partial_views_a_changed_view_goes_whole_and_an_unchanged_one_not_at_all(monkeypatch):
    monkeypatch.setattr(viewframe, "SEND_PARTIAL", False)
    public = {"game": "jaipur", "moves": 3, "clock": {"seats": [0], "now": 1.0}}
    you = encode_you(None)
    _, sent = EncodedPublic.of(public).frame('"#r"', you, None)
    ticking = EncodedPublic.of(public | {"clock": {"seats": [0], "now": 5.0}})
    assert ticking.frame('"#r"', you, sent)[0] is None
    frame, _ = EncodedPublic.of(public | {"moves": 4}).frame('"#r"', you, sent)
    decoded = json.loads(frame)
    assert "partial" not in decoded and decoded["view"]["game"] == "jaipur" and decoded["view"]["moves"] == 4
