"""The choice of a channel's, a speaker's and a reader's language."""

from __future__ import annotations

from bazaarbot.i18n.readers import ReaderLanguages


def _languages(prefs: dict | None = None) -> ReaderLanguages:
    return ReaderLanguages.configured(prefs or {}, {"net": "es"}, {("net", "#Spiel"): "de"})


def test_a_tables_own_lang_wins_over_the_config():
    assert _languages().channel("net", "#spiel", {"lang": "es"}) == "es"


def test_the_configs_channel_wins_over_its_network_in_any_case_of_the_name():
    assert _languages().channel("net", "#SPIEL", {}) == "de"
    assert _languages().channel("net", "#other", {}) == "es"


def test_nothing_configured_means_the_bots_default():
    assert _languages().channel("elsewhere", "#t", {}) is None


def test_a_language_the_bot_does_not_speak_is_no_choice():
    assert _languages().channel("elsewhere", "#t", {"lang": "xx"}) is None
    assert _languages({("net", "n:al", "lang"): "xx"}).person("net", "n:al") is None


def test_a_persons_choice_is_theirs_only_and_normalized():
    languages = _languages({("net", "n:al", "lang"): "de-AT"})
    assert languages.person("net", "n:al") == "de"
    assert languages.person("net", "n:bo") is None


def test_a_private_line_reaching_no_table_is_in_the_speakers_language_else_the_networks():
    languages = _languages({("net", "n:al", "lang"): "de"})
    assert languages.speaker("net", "n:al") == "de"
    assert languages.speaker("net", "n:bo") == "es"
