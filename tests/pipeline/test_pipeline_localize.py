"""Stage 6: each private line in its reader's language and form; channel lines untouched."""

from __future__ import annotations

from bazaarbot.i18n import _, language
from bazaarbot.i18n.readers import ReaderLanguages
from bazaarbot.messages import Say, Tell
from bazaarbot.pipeline.localize import Localizer

SLOW = "Slow down, please: too many commands. Try again in a few seconds."
SLOW_DE = "Langsam bitte: zu viele Befehle. Versuche es in ein paar Sekunden wieder."


def _localizer(prefs: dict, seated: dict | None = None) -> Localizer:
    seated = seated or {}
    return Localizer(ReaderLanguages(prefs), lambda network, nick: seated.get((network, nick.lower())))


def test_a_private_line_is_rendered_again_in_its_readers_language():
    localizer = _localizer({("net", "a:anna", "lang"): "de"})
    with language("en"):
        out = localizer.localize([Tell("net", "anna", _(SLOW), key="a:anna")])
    assert out == [Tell("net", "anna", SLOW_DE, key="a:anna")]


def test_the_reader_of_a_tell_without_a_key_is_whoever_sits_under_its_nick():
    localizer = _localizer({("net", "a:anna", "lang"): "de"}, {("net", "anna"): "a:anna"})
    assert localizer.localize([Tell("net", "Anna", _(SLOW))])[0].text == SLOW_DE
    assert localizer.reader_language(Tell("net", "Anna", "x")) == "de"


def test_a_reader_who_chose_nothing_gets_the_line_as_it_was_built():
    localizer = _localizer({})
    with language("de"):
        line = _(SLOW)
    assert localizer.localize([Tell("net", "bob", line)])[0].text == SLOW_DE


def test_a_reader_who_wants_notices_gets_a_notice():
    localizer = _localizer({("net", "n:bob", "notice"): "on"})
    assert localizer.localize([Tell("net", "bob", "hi")]) == [Tell("net", "bob", "hi", notice=True)]


def test_channel_lines_stay_in_the_channels_language():
    localizer = _localizer({("net", "n:anna", "lang"): "de"})
    say = Say("net", "#t", _(SLOW))
    assert localizer.localize([say]) == [say]
    assert localizer.reader_language(say) is None
