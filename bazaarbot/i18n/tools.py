"""Catalogue upkeep: ``python -m bazaarbot.i18n.tools refresh`` extracts, merges and compiles.

Two gettext domains live in ``bazaarbot/locale/<lang>/LC_MESSAGES/``:

* ``bazaarbot`` — every sentence of the core, the transports and the game
  plugins: ``_()``, ``ngettext()`` and ``N_()`` calls found by ``pybabel
  extract`` with ``babel.cfg``, plus each installed plugin's title, ``/rules``
  summary and ``/help moves`` text (class attributes, read through
  ``bazaarbot.plugin.TranslatedText``).
* ``web`` — the chat page's own text: the text and ``placeholder``/``title``/
  ``aria-label`` attributes of ``static/*.html`` and the ``t("...")`` calls of
  ``static/*.js``. The page gets it as ``static/catalogues.js`` (generated
  here, committed), and ``static/i18n.js`` picks the browser's language.

The ``.po`` files are committed; ``.mo`` files are build products, compiled
here and again by ``bazaarbot.i18n`` on first use whenever a ``.po`` is newer.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from bazaarbot import __version__
from bazaarbot.i18n import DOMAIN, LOCALE_DIR, forget_catalogues

PACKAGE = Path(__file__).parent.parent
ROOT = PACKAGE.parent
STATIC = PACKAGE / "transports" / "web" / "static"
WEB_DOMAIN = "web"
#: the languages the bot ships catalogues for (English is the source)
LANGUAGES = ("de", "es")
WEB_CATALOGUES = STATIC / "catalogues.js"
_HTML_ATTRIBUTES = ("placeholder", "title", "aria-label")
_HTML_SKIP = {"code", "script", "style", "kbd"}


class _HtmlTexts(HTMLParser):
    """Collects the translatable texts of a page the way ``static/i18n.js`` looks them up."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HTML_SKIP:
            self._skipping.append(tag)
        for name, value in attrs:
            if name in _HTML_ATTRIBUTES and value:
                self._add(value)

    def handle_endtag(self, tag: str) -> None:
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._add(data)

    def _add(self, text: str) -> None:
        key = page_key(text)
        if key:
            self.found.append((self.getpos()[0], key))


def page_key(text: str) -> str:
    """The catalogue key of a page text: whitespace collapsed; nothing without a letter."""
    key = " ".join(text.split())
    return key if re.search(r"[^\W\d_]", key) else ""


def extract_html(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """Babel extraction method for the chat page's HTML (see ``babel-web.cfg``)."""
    parser = _HtmlTexts()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for lineno, key in parser.found:
        yield lineno, None, key, []


def _plugin_texts() -> Iterable[tuple[str, str]]:
    """(location, English text) of every installed plugin's class texts."""
    from bazaarbot.plugin import source_texts
    from bazaarbot.registry import discover

    for name, game in sorted(discover().items()):
        where = f"plugins/{name}/__init__.py"
        for text in source_texts(type(game)):
            yield where, text


def _template(domain: str, extra: Iterable[tuple[str, str]] = ()) -> Catalog:
    """Extract one domain's source sentences into a fresh template catalogue."""
    config = ROOT / ("babel.cfg" if domain == DOMAIN else "babel-web.cfg")
    method_map, options_map = _read_mapping(config)
    catalog = Catalog(
        project="bazaarbot",
        version=__version__,
        copyright_holder="the bazaarbot authors",
        msgid_bugs_address="",
        last_translator="the bazaarbot authors",
        language_team="the bazaarbot authors",
        charset="utf-8",
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=_keywords(domain), strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for location, text in extra:
        catalog.add(text, None, [(location, 0)])
    return catalog


def _keywords(domain: str) -> dict[str, Any]:
    from babel.messages.extract import DEFAULT_KEYWORDS

    # the page's t("text") and a drawn table's label fallback L("key", "text")
    return dict(DEFAULT_KEYWORDS) if domain == DOMAIN else {"t": None, "L": (2,)}


def _read_mapping(config: Path) -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    from babel.messages.frontend import parse_mapping_cfg

    with config.open(encoding="utf-8") as handle:
        return parse_mapping_cfg(handle, filename=str(config))


def template(domain: str = DOMAIN) -> Catalog:
    """The current template of a domain, straight from the sources."""
    return _template(domain, _plugin_texts() if domain == DOMAIN else ())


def _pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def refresh(locale_dir: Path = LOCALE_DIR, languages: Iterable[str] = LANGUAGES) -> None:
    """Extract, then create or update every language's ``.po``, compile, and write the page's catalogue."""
    with tempfile.TemporaryDirectory() as work:
        for domain in (DOMAIN, WEB_DOMAIN):
            pot = Path(work) / f"{domain}.pot"
            with pot.open("wb") as handle:
                write_po(handle, template(domain), width=100, include_lineno=False)
            for lang in languages:
                po = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
                verb = "update" if po.exists() else "init"
                extra = ["--ignore-obsolete", "--width=100"] if verb == "update" else ["--width=100"]
                before = po.read_bytes() if po.exists() else b""
                _pybabel(verb, "-i", str(pot), "-d", str(locale_dir), "-D", domain, "-l", lang, *extra)
                if _without_dates(po.read_bytes()) == _without_dates(before):
                    po.write_bytes(before)  # nothing changed but the extraction time: keep the file as it was
    compile_all(locale_dir, languages)
    write_web_catalogues(locale_dir, languages)
    forget_catalogues()


def _without_dates(data: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*"', b"", data)


def compile_all(locale_dir: Path = LOCALE_DIR, languages: Iterable[str] = LANGUAGES) -> None:
    """``pybabel compile`` every language's bot catalogue (fuzzy entries left out)."""
    for lang in languages:
        _pybabel("compile", "-d", str(locale_dir), "-D", DOMAIN, "-l", lang)


def read_catalogue(lang: str, domain: str = DOMAIN, locale_dir: Path = LOCALE_DIR) -> Catalog:
    """One committed ``.po`` file, parsed."""
    path = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def web_catalogues_source(locale_dir: Path = LOCALE_DIR, languages: Iterable[str] = LANGUAGES) -> str:
    """The text of ``static/catalogues.js``: each language's page texts (translated entries only)."""
    tables: dict[str, dict[str, str]] = {}
    for lang in languages:
        catalog = read_catalogue(lang, WEB_DOMAIN, locale_dir)
        tables[lang] = {str(m.id): str(m.string) for m in catalog if m.id and m.string and not m.fuzzy}
    body = json.dumps(tables, ensure_ascii=False, indent=1, sort_keys=True)
    return (
        "// The chat page's words in every language the bot speaks.\n"
        "// Generated from bazaarbot/locale/*/LC_MESSAGES/web.po by\n"
        "// `python -m bazaarbot.i18n.tools refresh`; do not edit by hand.\n"
        f"window.BAZAARBOT_CATALOGUES = {body};\n"
    )


def write_web_catalogues(locale_dir: Path = LOCALE_DIR, languages: Iterable[str] = LANGUAGES) -> None:
    WEB_CATALOGUES.write_text(web_catalogues_source(locale_dir, languages), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bazaarbot.i18n.tools", description=(__doc__ or "").split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("refresh", help="extract every source sentence, update the .po files, compile them")
    sub.add_parser("compile", help="compile the .po files into .mo files")
    sub.add_parser("template", help="print the bot's template (.pot) to stdout")
    args = parser.parse_args(argv)
    if args.command == "refresh":
        refresh()
    elif args.command == "compile":
        compile_all()
    else:
        buffer = io.BytesIO()
        write_po(buffer, template(), width=100, include_lineno=False)
        sys.stdout.write(buffer.getvalue().decode("utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
