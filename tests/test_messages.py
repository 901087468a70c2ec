"""The core's message types: copies with a few fields changed are what ``dataclasses.replace`` makes."""

from __future__ import annotations

import dataclasses

import pytest

from bazaarbot.messages import Incoming, Say, Tell, User, evolved

ALICE = User("Alice", account="alice", mask="alice!a@example.org", is_op=True)
CASES = [
    (ALICE, {"nick": "Al", "account": None}),
    (Incoming("irc", "#t", ALICE, "take spice"), {"text": "take leather", "channel": None}),
    (
        Say("irc", "#t", "bob takes spice", players=("bob", "ann"), parts=("a", "b"), mentions=("ann",)),
        {"ai_turn": True, "brief": True},
    ),
    (
        Tell("irc", "ann", "Your hand: ...", listing=True),
        {"key": "n:ann", "text": "Deine Hand", "notice": True},
    ),
]


@pytest.mark.parametrize(("message", "changes"), CASES)
def test_an_evolved_message_is_the_one_dataclasses_replace_makes(message, changes):
    before = dataclasses.asdict(message)
    made, expected = evolved(message, **changes), dataclasses.replace(message, **changes)
    assert made == expected and type(made) is type(expected)
    for name in (f.name for f in dataclasses.fields(message)):  # the fields kept out of ``==`` too
        assert getattr(made, name) == getattr(expected, name)
    assert dataclasses.asdict(message) == before, "the original is left as it was"
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.network = "changed"  # type: ignore[misc]  # frozen, as the original


def test_a_field_a_message_does_not_have_is_refused():
    with pytest.raises(TypeError, match="no field 'colour'"):
        evolved(Say("irc", "#t", "hello"), colour=True)
