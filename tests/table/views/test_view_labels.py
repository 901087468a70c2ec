"""A drawn table's labels (words a game makes once per language) reach the view in the reader's words.

``per_language`` keeps them as ``WordsIn`` their language: a view built in that language carries
the shared table as it is; a view in another language, or a table holding a word of another
language, is read word by word as before.
"""

from __future__ import annotations

import json

from bazaarbot.i18n import WordsIn, _, language, per_language
from bazaarbot.i18n.catalogue import Msg
from bazaarbot.tableview.table import in_reader_words


@per_language
def labels() -> dict[str, str]:
    return {"market": _("Market"), "deck": _("Deck"), "limit": 7}


def test_a_table_of_words_made_per_language_says_which_language_it_was_made_in() -> None:
    with language("de"):
        made = labels()
    assert (
        isinstance(made, WordsIn)
        and made.lang == "de"
        and made == {"market": "Markt", "deck": "Nachziehstapel", "limit": 7}
    )


def test_a_views_labels_in_the_readers_language_are_carried_as_they_were_made() -> None:
    with language("de"):
        made = labels()
        data = in_reader_words({"labels": made, "round": 2})
    assert data["labels"] is made and json.dumps(data) == json.dumps(
        {"labels": {"market": "Markt", "deck": "Nachziehstapel", "limit": 7}, "round": 2}
    )


def test_a_views_labels_made_in_another_language_are_read_again_in_the_readers() -> None:
    with language("de"):
        made = labels()
    data = in_reader_words({"labels": made}, "es")
    assert data["labels"] is not made and data["labels"]["market"] == "Mercado"
    assert type(data["labels"]["market"]) is str


def test_a_table_of_words_holding_a_word_of_another_language_is_read_word_by_word() -> None:
    with language("en"):
        english = _("Market")
    mixed = WordsIn({"market": english}, "de")
    data = in_reader_words({"labels": mixed}, "de")
    assert data["labels"] is not mixed and data["labels"]["market"] == "Markt"
    assert isinstance(english, Msg) and mixed.as_said is False
