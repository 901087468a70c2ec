"""Matrix message contents: a plain ``body`` always, an HTML ``formatted_body`` for boards and hands.

What the bot says is an ``m.notice`` (clients show it as a bot's, and bots do
not answer notices, so two bots never talk in circles), except a line meant to
alert somebody (their turn, their clock, their game's start and end): an
``m.text`` with ``m.mentions``, since the shipped push rules never notify for a
notice. People are named by display name, a pill in the HTML (``names.py``). A
board or a hand is a ``<pre>`` block so its columns stay aligned; the board
message of a game is edited in place (``m.replace``); a line answered only in
the direct chat gets a reaction (``m.annotation``). All user-derived text is
HTML-escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from bazaarbot.transports.matrix.names import Named, NameOf

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


def message(
    text: str,
    *,
    block: bool = False,
    colors: bool = False,
    name_of: NameOf | None = None,
    mentions: Iterable[str] = (),
    notify: bool = False,
) -> dict[str, Any]:
    """One event's content: people by display name (pills), a block (``<pre>``) or a line.

    ``notify``: an ``m.text`` that the shipped push rules let through (a notice never notifies);
    ``mentions``: the user IDs it alerts (``m.mentions``, which also switches off the old rules
    that looked for names in the body, so a line naming somebody alerts only those meant).
    """
    named = Named.of(text, name_of)
    pills = bool(named.people)

    def text_html(part: str) -> str:
        return tinted(part) if colors else html.escape(part)

    body = named.body()
    result: dict[str, Any] = {"msgtype": "m.text" if notify else "m.notice", "body": body}
    if block:
        result.update(format=HTML, formatted_body=f"<pre><code>{named.html(text_html)}</code></pre>")
    elif pills or (colors and _WORDS.search(text)):
        result.update(format=HTML, formatted_body=named.html(text_html))
    alerted = sorted(set(mentions))
    result["m.mentions"] = {"user_ids": alerted} if alerted else {}
    return result


def plain(text: str, colors: bool = False) -> dict[str, Any]:
    return message(text, colors=colors)


def pre(text: str, colors: bool = False, name_of: NameOf | None = None) -> dict[str, Any]:
    """A block whose columns matter (a board, a hand), with the plain text as the fallback."""
    return message(text, block=True, colors=colors, name_of=name_of)


def edit(event_id: str, text: str, colors: bool = False, name_of: NameOf | None = None) -> dict[str, Any]:
    """Replace the board message ``event_id`` with ``text`` (clients show the newest version in place)."""
    new = pre(text, colors, name_of)
    return {
        **new,
        "body": "* " + new["body"],
        "m.mentions": {},  # an edit alerts nobody again
        "m.new_content": new,
        "m.relates_to": {"rel_type": "m.replace", "event_id": event_id},
    }


def reaction(event_id: str, key: str) -> dict[str, Any]:
    """An annotation (``m.reaction``) on the line ``event_id``: a mark beside it, not a line."""
    return {"m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": key}}


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
