"""A channel's lines for readers of other languages than the channel's own.

A line built from the catalogue (a ``Msg``) is rendered again in each reader's language where it is
read. A game's own lines may be plain text in the language they were built in (an f-string of the
rules' words, or a sentence quoting one); where the channel's lines are read in other languages
too (a web room's tabs each read their own), a game's lines are built again in each of those
languages and kept together as a ``Phrase``, which every reader's transport renders in its
reader's language. Nothing is built again for a channel whose lines are read in its own
language only.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from bazaarbot.i18n import SOURCE_LANGUAGE, Phrase, current_language, language


def for_readers(lines: list[str], readers: Collection[str], again: Callable[[], list[str]]) -> list[str]:
    """``lines`` (built in the current language), each a ``Phrase`` of its text in every language
    of ``readers``; ``again`` builds the same lines once more (called inside each language).

    Lines that cannot be matched one to one (``again`` built another number of them, or failed) are
    left as they were.
    """
    here = current_language()
    others = [lang for lang in readers if lang != here]
    if not others or not lines:
        return lines
    made: dict[str, list[str]] = {}
    for lang in others:
        with language(lang):
            made[lang] = again()
        if len(made[lang]) != len(lines):
            return lines
    out: list[str] = []
    for i, line in enumerate(lines):
        # a sentence of the catalogue too: the words it quotes may be plain text of the rules
        texts = {here: str(line), **{lang: str(made[lang][i]) for lang in others}}
        texts.setdefault(SOURCE_LANGUAGE, str(line))
        out.append(Phrase.of(texts, here))
    return out
