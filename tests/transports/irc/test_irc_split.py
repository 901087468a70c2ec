"""Line fitting: never over 512 bytes as relayed, never inside a UTF-8 character, cut at spaces."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bazaarbot.transports.irc.split import LINELEN, payload_budget, prefix_length, split_line, split_text

MASK = ("bazaarbot", "~bazaarbot", "127.0.0.1")


def relayed(nick: str, user: str, host: str, command: str, target: str, text: str) -> bytes:
    return f":{nick}!{user}@{host} {command} {target} :{text}\r\n".encode()


def test_budget_counts_the_real_prefix_and_target() -> None:
    prefix = prefix_length(*MASK)
    assert prefix == len(":bazaarbot!~bazaarbot@127.0.0.1 ")
    budget = payload_budget(prefix, "PRIVMSG", "#bazaar")
    assert len(relayed(*MASK, "PRIVMSG", "#bazaar", "x" * budget)) == LINELEN


def test_estimate_before_the_server_told_us_is_generous() -> None:
    assert prefix_length("bazaarbot", None, None) >= prefix_length("bazaarbot", "~bazaarbot", "a" * 63)


def test_splits_at_spaces() -> None:
    words = " ".join(f"word{i}" for i in range(200))
    pieces = split_line(words, 100)
    assert all(len(p.encode()) <= 100 for p in pieces)
    assert " ".join(pieces) == words
    assert all(not p.startswith(" ") and not p.endswith(" ") for p in pieces)


def test_never_cuts_a_utf8_character() -> None:
    text = "é" * 300 + "🐪" * 100
    pieces = split_line(text, 77)
    assert "".join(pieces) == text
    for piece in pieces:
        assert len(piece.encode()) <= 77
        piece.encode().decode("utf-8")  # whole characters only


def test_long_word_is_cut_hard() -> None:
    pieces = split_line("a" * 1000, 300)
    assert [len(p) for p in pieces] == [300, 300, 300, 100]


def test_multiline_text_gives_one_payload_per_line_and_drops_blank_lines() -> None:
    assert split_text("Market: [D][G]\n\nYour turn, alice\n", 400) == ["Market: [D][G]", "Your turn, alice"]


def test_leading_spaces_of_a_board_line_are_kept() -> None:
    assert split_text("  | 1 | 2 |", 400) == ["  | 1 | 2 |"]


@given(st.text(min_size=0, max_size=3000), st.integers(min_value=8, max_value=450))
def test_any_text_fits(text: str, budget: int) -> None:
    text = text.replace("\r", "").replace("\n", " ")
    pieces = split_line(text, budget)
    for piece in pieces:
        assert len(piece.encode("utf-8", "surrogatepass")) <= budget
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")


@given(st.text(min_size=1, max_size=2000), st.sampled_from(["#bazaar", "#a", "somebody_with_a_long_nick"]))
def test_relayed_lines_stay_within_512_bytes(text: str, target: str) -> None:
    budget = payload_budget(prefix_length(*MASK), "PRIVMSG", target)
    for piece in split_text(text, budget):
        assert len(relayed(*MASK, "PRIVMSG", target, piece)) <= LINELEN
