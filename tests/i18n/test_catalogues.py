"""The German and Spanish catalogues are complete, consistent with the sources, and current."""

from __future__ import annotations

import re
import string

import pytest

from bazaarbot.i18n import LOCALE_DIR
from bazaarbot.i18n.tools import (
    LANGUAGES,
    WEB_CATALOGUES,
    WEB_DOMAIN,
    read_catalogue,
    template,
    web_catalogues_source,
)

DOMAINS = ("bazaarbot", WEB_DOMAIN)


@pytest.fixture(scope="module")
def templates():
    """Every source sentence, extracted from the code right now (not from a stored .pot)."""
    return {domain: template(domain) for domain in DOMAINS}


def forms(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def fields(text: str) -> set[tuple[str, str | None]]:
    """The named placeholders of a format string, with their conversion (``{text!r}``)."""
    return {
        (name, conversion) for _, name, _, conversion in string.Formatter().parse(text) if name is not None
    }


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_source_sentence_has_a_translation(templates, lang, domain):
    catalogue = read_catalogue(lang, domain)
    missing = []
    for message in templates[domain]:
        if not message.id:
            continue
        entry = catalogue.get(message.id)
        if entry is None or entry.fuzzy or not all(s.strip() for s in forms(entry.string)):
            missing.append(forms(message.id)[0])
    assert not missing, f"{lang}/{domain}: untranslated, fuzzy or new (run the refresh): {missing}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_stale_entries_are_left_in_a_catalogue(templates, lang, domain):
    current = {forms(m.id)[0] for m in templates[domain] if m.id}
    stale = [forms(m.id)[0] for m in read_catalogue(lang, domain) if m.id and forms(m.id)[0] not in current]
    assert not stale, f"{lang}/{domain}: entries no source says any more (run the refresh): {stale}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_match_between_source_and_translation(lang):
    wrong = []
    for message in read_catalogue(lang):
        if not message.id or not message.string:
            continue
        sources = forms(message.id)
        for index, text in enumerate(forms(message.string)):
            source = sources[0] if index == 0 else sources[-1]
            if fields(text) != fields(source):
                wrong.append((source, text))
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_placeholders_match_between_source_and_translation(lang):
    """The page's ``t()`` fills ``{name}`` and keeps ``{{``/``}}`` as braces, like ``str.format``."""
    marks = re.compile(r"\{\w+\}|\{\{|\}\}")
    wrong = [
        (m.id, m.string)
        for m in read_catalogue(lang, WEB_DOMAIN)
        if m.id and sorted(marks.findall(m.id)) != sorted(marks.findall(m.string))
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leading_and_trailing_spaces_are_kept(lang):
    """Fragments such as `` vs `` or `` (all: /moves all)`` are glued to other text."""
    wrong = [
        (message.id, text)
        for message in read_catalogue(lang)
        if message.id and message.string
        for text in forms(message.string)
        if (text[:1] == " ", text[-1:] == " ")
        != (forms(message.id)[0][:1] == " ", forms(message.id)[0][-1:] == " ")
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_fill_every_form_of_the_language(lang):
    catalogue = read_catalogue(lang)
    assert catalogue.num_plurals >= 2 and "plural=" in catalogue.plural_forms
    plural = [m for m in catalogue if isinstance(m.id, tuple)]
    assert plural, "the bot's counted sentences go through ngettext"
    for message in plural:
        assert len(message.string) == catalogue.num_plurals, message.id


def test_german_has_the_usual_two_plural_forms():
    assert read_catalogue("de").plural_forms == "nplurals=2; plural=(n != 1);"


def test_game_terms_follow_the_original_rules():
    """Vocabulary of the German and Spanish rule texts the games were built from."""
    de = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_catalogue("de") if m.id}
    es = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_catalogue("es") if m.id}
    assert de["diamond"] == ("Diamant", "Diamanten") and de["spice"] == ("Gewürz", "Gewürze")
    assert de["camel"] == ("Kamel", "Kamele") and de["cloth"][1] == "Tuch" and de["leather"][1] == "Leder"
    assert "Bonus-Chips" in de["bonus tokens"] and "Exzellenz-Siegel" in de["Seals: {seals}."]
    assert "Karawane" in de["Caravan full"] and "Aufseher" in de["Supervisor at {space}{near}."]
    assert "Tauschtabelle" in de["Exchange:"] and de["red"] == "rot"
    assert es["diamond"][1] == "diamantes" and es["spice"][1] == "especias" and es["camel"][1] == "camellos"
    assert "sellos de excelencia" in es["Seals: {seals}."].lower()
    assert "fichas de bonificación" in es["bonus tokens"]


def test_the_web_pages_catalogue_is_current():
    """``static/catalogues.js`` is what the refresh writes from the committed web.po files."""
    assert WEB_CATALOGUES.read_text(encoding="utf-8") == web_catalogues_source()


def test_only_po_files_are_committed_and_every_language_has_both_domains():
    for lang in LANGUAGES:
        folder = LOCALE_DIR / lang / "LC_MESSAGES"
        assert (folder / "bazaarbot.po").is_file() and (folder / "web.po").is_file()
