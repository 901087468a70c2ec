"""Stage 7: every message to its network's transport, in its reader's language; one failure stops no other."""

from __future__ import annotations

import logging

from bazaarbot.i18n import current_language
from bazaarbot.i18n.readers import ReaderLanguages
from bazaarbot.messages import Outgoing, Say, Tell
from bazaarbot.pipeline.deliver import deliver
from bazaarbot.pipeline.localize import Localizer


class Keeping:
    """A transport that keeps what it is sent and the language it was sent in."""

    def __init__(self, network: str, fail_on: str | None = None) -> None:
        self.network = network
        self.fail_on = fail_on
        self.sent: list[tuple[str, str]] = []

    async def send(self, message: Outgoing) -> None:
        if message.text == self.fail_on:
            raise ConnectionError("gone")
        self.sent.append((message.text, current_language()))


def _localizer() -> Localizer:
    return Localizer(ReaderLanguages({("a", "n:anna", "lang"): "de"}), lambda network, nick: None)


async def test_each_message_reaches_the_transport_of_its_network_in_order():
    a, b = Keeping("a"), Keeping("b")
    await deliver(
        {"a": a, "b": b}, _localizer(), [Say("a", "#t", "1"), Say("b", "#t", "2"), Say("a", "#t", "3")]
    )
    assert [t for t, _lang in a.sent] == ["1", "3"] and [t for t, _lang in b.sent] == ["2"]


async def test_a_private_line_is_sent_inside_its_readers_language():
    a = Keeping("a")
    await deliver({"a": a}, _localizer(), [Tell("a", "anna", "hand"), Tell("a", "bob", "hand")])
    assert a.sent[0] == ("hand", "de") and a.sent[1][1] != "de"


async def test_a_failing_send_is_logged_and_the_rest_still_goes(caplog):
    a = Keeping("a", fail_on="boom")
    with caplog.at_level(logging.ERROR):
        await deliver({"a": a}, _localizer(), [Say("a", "#t", "boom"), Say("a", "#t", "after")])
    assert [t for t, _lang in a.sent] == ["after"]
    assert "sending to a failed" in caplog.text


async def test_a_message_for_a_network_without_a_transport_is_dropped_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING):
        await deliver({}, _localizer(), [Say("nowhere", "#t", "x")])
    assert "no transport for network nowhere" in caplog.text
