"""Matrix message contents: a plain ``body`` always, an HTML ``formatted_body`` for boards and hands.

Everything the bot says is an ``m.notice`` (clients show it as a bot's, and bots
do not answer notices, so two bots never talk in circles). A board or a hand
is a ``<pre>`` block so its columns stay aligned; the board message of a
table is edited in place (``m.replace``); a pointer to the direct chat is a
reply to the line it answers (``m.in_reply_to``). All user-derived text is
HTML-escaped.
"""

from __future__ import annotations

import html
import re
from typing import Any

HTML = "org.matrix.custom.html"

#: the goods of the games and plain colour names, tinted where a table asked for colours (``/colors on``)
PALETTE: dict[str, str] = {
    "diamond": "#00a0c0",
    "gold": "#c09000",
    "silver": "#808080",
    "cloth": "#9c27b0",
    "spice": "#d03030",
    "leather": "#8b5a2b",
    "camel": "#e08000",
    "red": "#d03030",
    "green": "#2e8b2e",
    "blue": "#3060d0",
    "yellow": "#c09000",
    "purple": "#9c27b0",
    "orange": "#e08000",
    "white": "#808080",
    "black": "#808080",
}
_WORDS = re.compile(
    r"\b(diamonds?|gold|silver|cloth|spices?|leather|camels?|red|green|blue|yellow|purple|orange|white|black)\b",
    re.IGNORECASE,
)


def tinted(text: str) -> str:
    """HTML of ``text`` (escaped) with its goods and colour words in their colours."""

    def tint(match: re.Match[str]) -> str:
        word = match.group(1)
        key = word.lower()
        colour = PALETTE.get(key) or PALETTE[key[:-1]]  # "camels" is tinted as "camel"
        return f'<font color="{colour}" data-mx-color="{colour}">{word}</font>'

    return _WORDS.sub(tint, html.escape(text))


def plain(text: str, colors: bool = False) -> dict[str, Any]:
    if colors and _WORDS.search(text):
        return {"msgtype": "m.notice", "body": text, "format": HTML, "formatted_body": tinted(text)}
    return {"msgtype": "m.notice", "body": text}


def pre(text: str, colors: bool = False) -> dict[str, Any]:
    """A block whose columns matter (a board, a hand), with the plain text as the fallback."""
    inner = tinted(text) if colors else html.escape(text)
    return {
        "msgtype": "m.notice",
        "body": text,
        "format": HTML,
        "formatted_body": f"<pre><code>{inner}</code></pre>",
    }


def edit(event_id: str, text: str, colors: bool = False) -> dict[str, Any]:
    """Replace the board message ``event_id`` with ``text`` (clients show the newest version in place)."""
    new = pre(text, colors)
    return {
        **{key: ("* " + value if key == "body" else value) for key, value in new.items()},
        "m.new_content": new,
        "m.relates_to": {"rel_type": "m.replace", "event_id": event_id},
    }


def reply(event_id: str, text: str) -> dict[str, Any]:
    """A short line that sits next to the message it answers."""
    return {**plain(text), "m.relates_to": {"m.in_reply_to": {"event_id": event_id}}}


def incoming_text(content: dict[str, Any]) -> str | None:
    """The text a person typed, or None for what is not a line for the game.

    Notices (bots), emotes, edits of earlier lines and non-text messages are not
    lines; the quoted fallback of a reply (``> <@who> ...``) is cut off.
    """
    if content.get("msgtype") != "m.text":
        return None
    relates = content.get("m.relates_to")
    if isinstance(relates, dict) and relates.get("rel_type") == "m.replace":
        return None
    body = content.get("body")
    if not isinstance(body, str):
        return None
    if isinstance(relates, dict) and "m.in_reply_to" in relates and body.startswith(">"):
        lines = body.split("\n")
        while lines and lines[0].startswith(">"):
            lines.pop(0)
        body = "\n".join(lines).strip()
    return body
