"""The one message catalogue every sentence the bot says goes through.

English source strings are marked with ``_()`` (``ngettext`` for counts,
``N_`` for a string translated later). The German and Spanish catalogues are
the ``.po`` files in ``bazaarbot/locale/<lang>/LC_MESSAGES/``; the compiled
``.mo`` beside each one is built on first use whenever it is missing or older
than its ``.po`` (so an editable install never serves stale words), and kept
in memory when the package folder cannot be written.

Which language a line is built in: the innermost ``with language("de"):``
block of the running task or thread (a ``contextvars`` variable, so every
asyncio task has its own), otherwise the default set by ``set_language``.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import re
import threading
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TypeVar

from bazaarbot.text.commandmark import mark

LOCALE_DIR = Path(__file__).parent.parent / "locale"
DOMAIN = "bazaarbot"
SOURCE_LANGUAGE = "en"

_default_language: str = SOURCE_LANGUAGE
_default_localedir: Path = LOCALE_DIR
_current: ContextVar[str | None] = ContextVar("bazaarbot_language", default=None)
_cache: dict[tuple[Path, str], gettext.NullTranslations] = {}
_cache_lock = threading.Lock()
_languages: dict[Path, tuple[str, ...]] = {}
#: the most results one ``per_language`` function keeps (beyond it they are made again)
PER_LANGUAGE_KEPT = 4096
#: counts the times the catalogues were dropped or moved: what ``per_language`` made before is stale
_generation = 0
_T = TypeVar("_T")


def _catalogue_paths(localedir: Path, lang: str) -> tuple[Path, Path]:
    folder = localedir / lang / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def _mo_bytes_from_po(po: Path) -> bytes:
    """Compile a .po file (Babel), leaving out fuzzy entries as msgfmt does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_catalogue(localedir: Path, lang: str) -> bytes | None:
    """The .mo bytes for ``lang``: rebuilt (and written, when possible) if the .po is newer."""
    po, mo = _catalogue_paths(localedir, lang)
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        data = _mo_bytes_from_po(po)
        with contextlib.suppress(OSError):  # a read-only install keeps the compiled catalogue in memory only
            mo.write_bytes(data)
        return data
    if mo.exists():
        return mo.read_bytes()
    return None


def translation(lang: str, localedir: str | Path | None = None) -> gettext.NullTranslations:
    """The cached translation object for one language (English: the source strings)."""
    folder = Path(localedir) if localedir else _default_localedir
    if not lang or lang == SOURCE_LANGUAGE:
        return _NULL
    key = (folder, lang)
    found = _cache.get(key)
    if found is not None:
        return found
    with _cache_lock:
        found = _cache.get(key)
        if found is None:
            data = compile_catalogue(folder, lang)
            found = gettext.GNUTranslations(io.BytesIO(data)) if data else _NULL
            _cache[key] = found
    return found


def forget_catalogues() -> None:
    """Drop the cached catalogues (after the .po files changed under a running process)."""
    global _generation
    with _cache_lock:
        _cache.clear()
        _languages.clear()
        _generation += 1


def catalogue_generation() -> int:
    """How many times the catalogues were dropped or moved: a text made under another one is stale."""
    return _generation


def set_language(lang: str | None, localedir: str | Path | None = None) -> None:
    """Set the default language; unknown languages fall back to English."""
    global _default_language, _default_localedir, _generation
    _default_localedir = Path(localedir) if localedir else LOCALE_DIR
    _generation += 1
    _default_language = normalize_language(lang, _default_localedir) or SOURCE_LANGUAGE
    translation(_default_language)  # compiled now, at start-up, not while the event loop runs


def preload_catalogues(localedir: str | Path | None = None) -> None:
    """Compile and cache every language's catalogue (call before serving, so no line waits for it)."""
    for lang in available_languages(localedir):
        translation(lang, localedir)


def default_language() -> str:
    """The bot's own language (the config's), where nobody chose another."""
    return _default_language


def current_language() -> str:
    """The language lines are built in right here."""
    return _current.get() or _default_language


class WordsIn(dict):  # type: ignore[type-arg]
    """A table of words that ``per_language`` made in ``lang`` (a drawn table's labels): shared and
    never changed, so a view built in that language carries it as it is rather than word by word."""

    __slots__ = ("lang", "as_said")

    def __init__(self, words: dict[object, object], lang: str) -> None:
        super().__init__(words)
        self.lang = lang
        #: whether every word reads as rendered in ``lang`` already (None: not looked at yet)
        self.as_said: bool | None = None


def per_language(build: Callable[..., _T]) -> Callable[..., _T]:
    """``build`` (of a few hashable arguments, its result fixed by them and the language alone: the
    words a drawn table shows, a card's name) made once per language and arguments; what it
    returns is shared, never to be changed. A table of words comes back as ``WordsIn`` its language."""
    made: dict[tuple[object, ...], _T] = {}

    @functools.wraps(build)
    def kept(*args: object) -> _T:
        lang = current_language()
        key = (lang, _generation, *args)
        found = made.get(key)
        if found is None:
            if len(made) >= PER_LANGUAGE_KEPT:
                made.clear()
            found = build(*args)
            if type(found) is dict:
                found = WordsIn(found, lang)  # type: ignore[assignment]
            made[key] = found
        return found

    return kept


class language:  # noqa: N801 (used as ``with language("de"):``, like a function)
    """Build every line inside the block in ``lang`` (None or "" keeps the current one).

    A class, not a generator-based context manager: every view, tell and clock tick enters
    one, and this is the cheap way in and out.
    """

    __slots__ = ("_lang", "_token")

    def __init__(self, lang: str | None) -> None:
        self._lang = lang

    def __enter__(self) -> str:
        lang = self._lang
        chosen = (lang if lang in _known_now() else normalize_language(lang)) if lang else None
        chosen = chosen or current_language()
        self._token = _current.set(chosen)
        return chosen

    def __exit__(self, *_exc: object) -> None:
        _current.reset(self._token)


def available_languages(localedir: str | Path | None = None) -> list[str]:
    """English first, then every language with a catalogue, sorted."""
    return list(_known(Path(localedir) if localedir else _default_localedir))


def _known(folder: Path) -> tuple[str, ...]:
    """The languages of ``folder``'s catalogues, found once (the cached tuple itself, not a copy)."""
    known = _languages.get(folder)
    if known is None:
        known = _languages[folder] = _find_languages(folder)
    return known


def _known_now() -> tuple[str, ...]:
    """``available_languages()`` of the default folder without a copy (every ``language`` block asks)."""
    return _known(_default_localedir)


def _find_languages(folder: Path) -> tuple[str, ...]:
    found = set()
    if folder.is_dir():
        for entry in folder.iterdir():
            messages = entry / "LC_MESSAGES"
            if (messages / f"{DOMAIN}.po").exists() or (messages / f"{DOMAIN}.mo").exists():
                found.add(entry.name)
    found.discard(SOURCE_LANGUAGE)
    return (SOURCE_LANGUAGE, *sorted(found))


_TAG = re.compile(r"^\s*([A-Za-z]{2,3})(?:[-_.@][A-Za-z0-9_.@-]*)?\s*$")


def normalize_language(tag: str | None, localedir: str | Path | None = None) -> str | None:
    """``"de-AT"``, ``"de_DE.UTF-8"``, ``"DE"`` -> ``"de"``; None when the bot does not speak it."""
    if not tag:
        return None
    known = available_languages(localedir) if localedir is not None else _known_now()
    if tag in known:
        return tag
    match = _TAG.match(tag)
    if not match:
        return None
    base = match.group(1).lower()
    return base if base in known else None


#: (generation, language, msgid, plural, count's form) -> the marked template (``_template``)
_templates: dict[tuple[object, ...], str] = {}
#: the most templates kept (beyond it they are looked up again)
TEMPLATES_KEPT = 8192


def _template(lang: str, msgid: str, plural: str | None, count: int) -> str:
    """The sentence's template in ``lang`` with the commands it names marked: looked up and marked
    once per language and catalogue generation (every line the bot builds asks for one)."""
    key = (_generation, lang, msgid, plural, count if plural is not None else 1)
    found = _templates.get(key)
    if found is None:
        catalogue = translation(lang)
        found = catalogue.gettext(msgid) if plural is None else catalogue.ngettext(msgid, plural, count)
        if len(_templates) >= TEMPLATES_KEPT:
            _templates.clear()
        found = _templates[key] = mark(found)
    return found


class Msg(str):
    """A translated sentence that can be rendered again in another language.

    Its value is the text in the language current when it was built; it keeps
    its msgid (plural forms and count) and, after ``format``, its arguments, so
    ``localized(msg, "de")`` gives the same sentence for a German reader. Any
    other ``str`` operation (an f-string, a ``join``) gives a plain ``str``.
    """

    __slots__ = ("args", "count", "kwargs", "lang", "msgid", "plural")

    msgid: str
    plural: str | None
    count: int
    args: tuple[object, ...]
    kwargs: dict[str, object]
    #: the language its value is in
    lang: str

    @classmethod
    def build(
        cls,
        msgid: str,
        plural: str | None = None,
        count: int = 1,
        args: tuple[object, ...] = (),
        kwargs: dict[str, object] | None = None,
        lang: str | None = None,
        template: str | None = None,
    ) -> Msg:
        kwargs = kwargs or {}
        lang = lang or current_language()
        # the commands it names are marked, for each transport to show as its users type them
        # (a ``template`` given is one already built: ``format`` fills the marked text in)
        template = _template(lang, msgid, plural, count) if template is None else mark(template)
        if args or kwargs:
            token = _current.set(lang)  # a word filled in (a ``Phrase``) is said in the sentence's language
            try:
                text = template.format(*args, **kwargs)
            finally:
                _current.reset(token)
        else:
            text = template
        made = cls(text)
        made.msgid, made.plural, made.count, made.args, made.kwargs = msgid, plural, count, args, kwargs
        made.lang = lang
        return made

    def format(self, *args: object, **kwargs: object) -> Msg:  # type: ignore[override]
        """The sentence with its placeholders filled, in the language it was built in (still lazy)."""
        unfilled = str.__str__(self) if not (self.args or self.kwargs) else None
        return Msg.build(self.msgid, self.plural, self.count, args, kwargs, self.lang, unfilled)

    def render(self, lang: str) -> str:
        """This sentence in ``lang`` (its arguments rendered there too)."""
        args = tuple(localized(a, lang) for a in self.args)
        kwargs = {k: localized(v, lang) for k, v in self.kwargs.items()}
        return Msg.build(self.msgid, self.plural, self.count, args, kwargs, lang)

    def __add__(self, other: str) -> Joined:  # type: ignore[override]
        return Joined.of(self, other)

    def __radd__(self, other: str) -> Joined:
        return Joined.of(other, self)


class Joined(Msg):
    """``Msg + str``: a concatenation whose ``Msg`` parts re-render."""

    __slots__ = ("parts",)

    parts: tuple[str, ...]

    @classmethod
    def of(cls, *parts: str) -> Joined:
        flat: list[str] = []
        for part in parts:
            flat.extend(part.parts if isinstance(part, Joined) else (part,))
        made = cls("".join(str.__str__(p) for p in flat))
        made.parts = tuple(flat)
        return made

    def format(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
        return str.format(str(self), *args, **kwargs)

    def render(self, lang: str) -> str:
        return Joined.of(*(localized(p, lang) for p in self.parts))


class Phrase(Msg):
    """A game word or command known in every language (``{"en": "take", "de": "nimm"}``).

    Its value is the word in the current language; inside a ``Msg`` it is
    rendered again in the reader's language like any translated sentence, so a
    souk, a card or a quoted move never stays in the language the line was built in.
    """

    __slots__ = ("texts",)

    texts: dict[str, str]

    @classmethod
    def of(cls, texts: dict[str, str], lang: str | None = None) -> Phrase:
        lang = lang or current_language()
        made = cls(texts.get(lang) or texts[SOURCE_LANGUAGE])
        made.texts, made.lang = texts, lang
        made.msgid, made.plural, made.count, made.args, made.kwargs = texts[SOURCE_LANGUAGE], None, 1, (), {}
        return made

    def format(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
        return str.format(str(self), *args, **kwargs)

    def __format__(self, spec: str) -> str:
        """Put into a line (an f-string, ``str.format``): in the language that line is built in."""
        return format(self.texts.get(current_language()) or str.__str__(self), spec)

    def render(self, lang: str) -> str:
        return Phrase.of(self.texts, lang)


def phrase(make: Callable[[str], str]) -> str:
    """A ``Phrase`` from a function giving the text in one language (called for every language now)."""
    return Phrase.of({lang: make(lang) for lang in available_languages()})


def lines_of(lines: list[str]) -> str:
    """``lines`` one below the other, each sentence still rendered again in its reader's language
    (a plain ``"\n".join`` would fix them in the language they were built in)."""
    parts: list[str] = []
    for line in lines:
        parts += ["\n", line] if parts else [line]
    return Joined.of(*parts) if parts else ""


def joined_text(parts: Sequence[str], between: str = " ") -> str:
    """``parts`` with ``between`` between them, each sentence still rendered again in its reader's
    language (a plain ``" ".join`` would fix them in the language they were built in)."""
    if not any(isinstance(part, Msg) for part in parts):
        return between.join(parts)
    spaced: list[str] = []
    for part in parts:
        spaced += [between, part] if spaced else [part]
    return Joined.of(*spaced)


def text_language(text: object) -> str | None:
    """The language a line was built in when it can be rendered again in another (None: it cannot,
    e.g. what a person typed)."""
    if isinstance(text, Joined):  # its sentences' language (a joint of plain text has none)
        return next((found for part in text.parts if (found := text_language(part)) is not None), None)
    return text.lang if isinstance(text, Msg) else None


def in_each_language(make: Callable[[], object]) -> str:
    """What ``make`` builds (a list of goods, a command's words joined) made once in every language,
    as a ``Phrase``: a sentence quoting it re-renders it in its reader's language, so a refusal's
    list is never left in the language the line was first built in."""
    texts = {}
    for lang in available_languages():
        with language(lang):
            texts[lang] = str(make())
    return Phrase.of(texts)


def localized(text: object, lang: str | None) -> object:
    """``text`` in ``lang`` when it is a re-renderable ``Msg`` (anything else as it is)."""
    if lang and isinstance(text, Msg):
        return text.render(lang)
    return text


def localized_text(text: str, lang: str | None) -> str:
    """``localized`` for a line of text (always a ``str`` back)."""
    found = localized(text, lang)
    return found if isinstance(found, str) else str(found)


def _(message: str) -> str:
    """Translate one English source sentence into the current language (a re-renderable ``Msg``)."""
    return Msg.build(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a sentence whose form depends on a count (a re-renderable ``Msg``)."""
    return Msg.build(singular, plural, n)


def N_(message: str) -> str:
    """Mark a sentence for the catalogue without translating it yet (``_()`` it when shown)."""
    return message


_NULL = gettext.NullTranslations()
