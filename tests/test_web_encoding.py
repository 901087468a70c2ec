"""Server frames: encoded once, commands rendered in the text, spliced views, batches of frames."""

from __future__ import annotations

import json

from bazaarbot.commandmark import MARK
from bazaarbot.transports.web.encoding import batch, dumps, encode, render_marks, splice
from bazaarbot.transports.web.viewframe import EncodedPublic, compared


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


def test_a_spliced_frame_reads_as_the_whole_frame_encoded_at_once():
    head = dumps({"x": 1, "y": [1, 2]})[:-1]
    frame = splice("view", '"room":"#r","view":', head, ',"you":null}')
    assert json.loads(frame) == {"t": "view", "room": "#r", "view": {"x": 1, "y": [1, 2], "you": None}}


def test_a_view_frame_is_the_public_part_with_the_readers_own_part_spliced_in():
    public = {
        "game": "jaipur",
        "log": [{"n": 0, "text": "sell cloth"}],
        "clock": {"seats": [0], "seconds": 60, "paused": False, "left": 41.5},
        "you": None,
        "status": f"{MARK}start when seated",
    }
    encoded = EncodedPublic.of(public)
    you = {"seat": 1, "commands": ["take spice"], "hint": f"{MARK}moves"}
    frame, plain = encoded.frame(dumps("#r"), you)
    view = json.loads(frame)["view"]
    assert view == {
        "game": "jaipur",
        "clock": public["clock"],
        "status": "/start when seated",
        "you": {"seat": 1, "commands": ["take spice"], "hint": "/moves"},
    }
    assert encoded.entries == public["log"]  # the log goes as a frame of its own
    # the clock's running reading is no change to send; a move of the reader's is
    later = EncodedPublic.of(public | {"clock": public["clock"] | {"left": 12.0}})
    assert later.frame(dumps("#r"), you)[1] == plain
    assert encoded.frame(dumps("#r"), you | {"commands": []})[1] != plain
    assert compared(None) == "null"
