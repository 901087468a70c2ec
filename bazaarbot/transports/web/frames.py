"""Decoding a browser's frame without trusting it: size and nesting are checked before ``json.loads``.

The standard decoder recurses once per ``[`` or ``{``, so a frame of a few
thousand brackets raises ``RecursionError`` deep inside it. Every frame of
the protocol is one flat object (depth 1; 2 leaves room for a list value),
so a single pass over the text that counts brackets outside strings
refuses anything deeper before the decoder ever sees it.
"""

from __future__ import annotations

import json
from typing import Any

#: the deepest nesting a frame may have (the protocol's frames are flat objects)
MAX_DEPTH = 4


class BadFrame(ValueError):
    """A frame that is not one of the protocol's: too big, too deep, not JSON, or not an object."""


def nesting_depth(text: str, limit: int) -> int:
    """How deep ``[``/``{`` nest in the JSON text ``text``, counting no further than ``limit + 1``."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def decode_frame(text: str, max_size: int, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The frame as a dict with a string ``t``; BadFrame (with a reason for the sender) otherwise."""
    if len(text) > max_size:
        raise BadFrame("too_big")
    if nesting_depth(text, max_depth) > max_depth:
        raise BadFrame("too_deep")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("not_json") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
        raise BadFrame("not_a_frame")
    return frame
