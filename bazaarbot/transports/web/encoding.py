"""Encoding server frames: JSON text built once, commands rendered in the text, frames batched.

A room's change goes to every tab in it, so the frame text is what the web
path spends most on. ``orjson`` encodes several times faster than the
standard library; a marked command (``commandmark``) is rendered in the
finished text rather than by walking the data first; and the frames that
wait for one tab leave as one websocket message, a JSON array of frames
(``batch``), so a move costs each tab one write instead of six.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from bazaarbot.text.commandmark import MARK, SLASH

#: how a marked command's character appears inside JSON text (a control character is escaped)
_MARK_IN_JSON = orjson.dumps(MARK).decode()[1:-1]
#: the escaped mark, not itself the tail of an escaped backslash (``\\u001a`` is text a person typed)
_MARK_PATTERN = re.compile(r"(?<!\\)((?:\\\\)*)" + re.escape(_MARK_IN_JSON))
#: the most bytes of frames one websocket message carries
BATCH_BYTES = 256 * 1024


def dumps(value: Any, sort_keys: bool = False) -> str:
    """Compact JSON text (UTF-8 kept, dict keys that are numbers written as strings)."""
    option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    return orjson.dumps(value, option=option).decode()


def render_marks(text: str, prefix: str = SLASH) -> str:
    """JSON text with every marked command shown as the web shows it (``/more``)."""
    if _MARK_IN_JSON not in text:
        return text
    return _MARK_PATTERN.sub(lambda m: m.group(1) + prefix, text)


def encode(kind: str, **fields: Any) -> str:
    """One server frame: a JSON object whose ``t`` says what it is, commands as a web user types them."""
    return render_marks(dumps({"t": kind, **fields}))


def batch(frames: list[str]) -> str:
    """Frames that leave together as one message: a JSON array of them (one frame goes alone)."""
    return frames[0] if len(frames) == 1 else "[" + ",".join(frames) + "]"
