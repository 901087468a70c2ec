"""Numbers a player types are ASCII digits: ``²``, ``①`` and friends get the usage line, never a crash.

``str.isdigit`` says yes to ``²`` and ``①`` and ``int`` then raises; these run the real
``bazaarbot console --script`` process, so a traceback or "something went wrong" would show.
"""

from __future__ import annotations

from support.consoleproc import Console, private

ODD_DIGITS = ("²", "①", "٣", "2²")


def no_failure(block: list[str]) -> None:
    assert block, "an answer"
    assert not any("went wrong" in line or "Traceback" in line for line in block), block


def test_join_with_a_superscript_or_circled_seat_number_gets_the_usage_line(tmp_path) -> None:
    console = Console(tmp_path / "bot.db", seed=1)
    try:
        for word in ODD_DIGITS:
            block = console.type(f"alice: /join {word}")
            no_failure(block)
            assert private(block, "alice") == ["/join takes a seat number from 1 to 2, or nothing."]
        assert console.type("alice: /join 2")[0].endswith("Seated: 2 alice. Host: alice.")
    finally:
        console.close()


def test_join_with_odd_digits_during_a_game_lists_the_open_seats(tmp_path) -> None:
    console = Console(tmp_path / "bot.db", seed=1)
    try:
        for line in ("alice: /join", "bob: /join", "alice: /start", "bob: /leave"):
            console.type(line)
        for word in ODD_DIGITS:
            block = console.type(f"carol: /join {word}")
            no_failure(block)
            assert private(block, "carol")[0].startswith("A game of Jaipur is running. An AI plays for")
        block = console.type("carol: /join 2")
        assert any("carol" in line and "seat 2" in line for line in block), block
    finally:
        console.close()


def test_moves_with_odd_digits_are_refused_with_a_hint(tmp_path) -> None:
    console = Console(tmp_path / "bot.db", seed=1)
    try:
        for line in ("alice: /new bazaar", "alice: /join", "bob: /join", "alice: /start", "alice: draw"):
            console.type(line)
        for move in ("buy ²", "buy #①", "trade ²", "trade ²back", "buy 2 ² red"):
            block = console.type(f"bob: {move}")
            no_failure(block)
            assert private(block, "bob"), block
    finally:
        console.close()
