"""Which language a line is built in: a default, and ``with language(...)`` blocks per task."""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest
from support.botdriver import Driver, text
from support.waits import next_turn

from bazaarbot.i18n import catalogue as i18n
from bazaarbot.i18n.catalogue import (
    LOCALE_DIR,
    _,
    available_languages,
    current_language,
    forget_catalogues,
    language,
    ngettext,
    normalize_language,
    set_language,
    translation,
)
from bazaarbot.registry import discover
from bazaarbot.transports.irc.split import payload_budget, prefix_length, split_text

NOT_SEATED = "You do not sit at this table."


@pytest.fixture(autouse=True)
def english_by_default():
    set_language("en")
    yield
    set_language("en")


def test_the_bot_speaks_english_german_and_spanish():
    assert available_languages() == ["en", "de", "es"]


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("de-AT", "de"),
        ("de_DE.UTF-8", "de"),
        ("DE", "de"),
        ("es-419", "es"),
        ("en-GB", "en"),
        ("fr", None),
        ("", None),
    ],
)
def test_a_language_tag_is_reduced_to_a_language_the_bot_speaks(tag, expected):
    assert normalize_language(tag) == expected


def test_a_language_block_changes_the_words_and_ends_cleanly():
    assert _(NOT_SEATED) == NOT_SEATED
    with language("de") as chosen:
        assert chosen == "de" and current_language() == "de"
        assert _(NOT_SEATED) == "Du sitzt nicht an diesem Tisch."
        with language("es-ES"):
            assert _(NOT_SEATED) == "No estás sentado en esta mesa."
        assert _(NOT_SEATED) == "Du sitzt nicht an diesem Tisch."
    assert current_language() == "en" and _(NOT_SEATED) == NOT_SEATED


def test_an_unknown_language_in_a_block_keeps_the_current_one():
    set_language("de")
    with language("fr"):
        assert current_language() == "de"


def test_counts_use_the_plural_forms_of_each_language():
    with language("de"):
        assert ngettext("{n} camel", "{n} camels", 1).format(n=1) == "1 Kamel"
        assert ngettext("{n} camel", "{n} camels", 4).format(n=4) == "4 Kamele"
    with language("es"):
        assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carta"
        assert ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 cartas"


async def test_each_asyncio_task_keeps_its_own_language():
    """The hub can build one recipient's lines in German while another task builds Spanish ones."""

    async def build(lang: str) -> list[str]:
        out = []
        with language(lang):
            for _round in range(3):
                out.append(_(NOT_SEATED))
                await next_turn()  # the other tasks build theirs meanwhile
        return out

    german, spanish, english = await asyncio.gather(build("de"), build("es"), build("en"))
    assert set(german) == {"Du sitzt nicht an diesem Tisch."}
    assert set(spanish) == {"No estás sentado en esta mesa."}
    assert set(english) == {NOT_SEATED}


def test_translation_objects_are_cached_per_language():
    assert translation("de") is translation("de")
    assert translation("de") is not translation("es")


def test_the_default_language_still_drives_the_whole_bot(tmp_path):
    bot = Driver(tmp_path / "b.sqlite")
    set_language("es")
    assert text(bot.line("alice", "/leave")) == "No estás sentado en esta mesa."
    with language("de"):
        assert text(bot.line("alice", "/leave")) == "Du sitzt nicht an diesem Tisch."


def test_a_po_file_newer_than_its_mo_is_compiled_on_first_use(tmp_path):
    """An edited catalogue is what the bot speaks after a restart; no separate build step."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR / "de", locale / "de", ignore=shutil.ignore_patterns("*.mo"))
    po = locale / "de" / "LC_MESSAGES" / "bazaarbot.po"
    mo = po.with_suffix(".mo")
    assert translation("de", locale).gettext(NOT_SEATED) == "Du sitzt nicht an diesem Tisch."
    assert mo.is_file()
    po.write_text(
        po.read_text(encoding="utf-8").replace('"Du sitzt nicht an diesem Tisch."', '"Du sitzt hier nicht."'),
        encoding="utf-8",
    )
    later = mo.stat().st_mtime + 5
    os.utime(po, (later, later))
    forget_catalogues()
    assert translation("de", locale).gettext(NOT_SEATED) == "Du sitzt hier nicht."


def test_a_read_only_locale_folder_still_gets_its_catalogue(tmp_path, monkeypatch):
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR / "es", locale / "es", ignore=shutil.ignore_patterns("*.mo"))

    def refuse(self, data):
        raise PermissionError("read-only")

    monkeypatch.setattr(i18n.Path, "write_bytes", refuse)
    assert translation("es", locale).gettext(NOT_SEATED) == "No estás sentado en esta mesa."
    assert not (locale / "es" / "LC_MESSAGES" / "bazaarbot.mo").exists()


@pytest.mark.parametrize("lang", ["de", "es"])
def test_rules_and_move_help_of_every_game_are_translated(lang):
    for game in discover().values():
        english = (game.rules_summary, game.command_help)
        with language(lang):
            translated = (game.rules_summary, game.command_help)
        assert all(translated) and translated[0] != english[0] and translated[1] != english[1], game.name


def test_a_long_german_line_is_split_for_irc_at_spaces_and_within_the_budget():
    """German words are long and carry umlauts (two bytes each): the IRC split still holds.

    The budget is the real one for a channel name of the usual 50-character limit
    before the server has told the bot its hostmask.
    """
    with language("de"):
        rules = discover()["bazaar"].rules_summary
    channel = "#" + "brettspiele-am-abend-fuer-alle-freunde-des-basars"[:49]
    budget = payload_budget(prefix_length("bazaarbot", None, None), "PRIVMSG", channel)
    longest = max(rules.split("\n"), key=lambda line: len(line.encode()))
    assert len(longest.encode()) > budget, "the test needs a German line longer than one IRC line"
    pieces = split_text(rules, budget)
    assert len(pieces) > len(rules.split("\n"))
    for piece in pieces:
        assert len(piece.encode("utf-8")) <= budget
        assert not piece.startswith(" ") and not piece.endswith(" ")
    assert " ".join(pieces).split() == rules.split()
    assert any("Tauschtabelle" in piece for piece in pieces) and any(
        "Kombinationen" in piece for piece in pieces
    )


def test_a_configured_region_tag_selects_its_language():
    set_language("de-CH")
    assert current_language() == "de" and _(NOT_SEATED) == "Du sitzt nicht an diesem Tisch."
    set_language("fr")
    assert current_language() == "en"


def test_preloading_compiles_every_catalogue_before_the_first_line(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    i18n.preload_catalogues(locale)
    for lang in ("de", "es"):
        assert (locale / lang / "LC_MESSAGES" / "bazaarbot.mo").is_file()
        assert translation(lang, locale).gettext(NOT_SEATED) != NOT_SEATED
