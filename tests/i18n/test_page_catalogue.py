"""Every word the page writes is in the German and the Spanish page catalogue.

Read straight from the files (not through the extraction): the ``t("...")`` calls
and label fallbacks ``L("key", "...")`` of the page scripts and the drawn tables,
and the text of the HTML pages, each looked up in the catalogue the page loads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bazaarbot.i18n.tools import ROOT, extract_html

STATIC = ROOT / "bazaarbot" / "transports" / "web" / "static"
SCRIPTS = [STATIC / "app.js", STATIC / "ratings.js", *sorted(ROOT.glob("plugins/*/web/table.js"))]
PAGES = [STATIC / "index.html", STATIC / "watch.html"]
_CALL = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)"|\bL\(\s*"[^"]*"\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)""")


def page_catalogues() -> dict[str, dict[str, str]]:
    source = (STATIC / "catalogues.js").read_text(encoding="utf-8")
    return json.loads(source.split("=", 1)[1].strip().rstrip(";"))


def script_strings(path: Path) -> list[str]:
    found = []
    for match in _CALL.finditer(path.read_text(encoding="utf-8")):
        text = match.group(1) if match.group(1) is not None else match.group(2)
        found.append(json.loads(f'"{text}"'))
    return found


def page_strings(path: Path) -> list[str]:
    with path.open("rb") as handle:
        return [message for _line, _func, message, _comments in extract_html(handle, None, None, None)]


def test_the_scripts_and_pages_are_read():
    assert any(p.parent.name == "web" and p.parent.parent.name == "yspahan" for p in SCRIPTS)
    assert "Your turn." in script_strings(STATIC / "app.js")
    assert "Add AI" in script_strings(STATIC / "app.js")
    assert "Goods tokens" in script_strings(ROOT / "plugins" / "jaipur" / "web" / "table.js")
    assert "Send" in page_strings(STATIC / "index.html")


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("path", SCRIPTS + PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_page_string_is_in_the_catalogue(path, lang):
    words = page_catalogues()[lang]
    strings = page_strings(path) if path.suffix == ".html" else script_strings(path)
    missing = [s for s in strings if not words.get(s, "").strip()]
    assert not missing, f"{lang}: not in the page catalogue (refresh and translate web.po): {missing}"
