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
from typing import Any

HTML = "org.matrix.custom.html"


def plain(text: str) -> dict[str, Any]:
    return {"msgtype": "m.notice", "body": text}


def pre(text: str) -> dict[str, Any]:
    """A block whose columns matter (a board, a hand), with the plain text as the fallback."""
    return {
        "msgtype": "m.notice",
        "body": text,
        "format": HTML,
        "formatted_body": f"<pre><code>{html.escape(text)}</code></pre>",
    }


def edit(event_id: str, text: str) -> dict[str, Any]:
    """Replace the board message ``event_id`` with ``text`` (clients show the newest version in place)."""
    new = pre(text)
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
