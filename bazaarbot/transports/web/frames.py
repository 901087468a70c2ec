"""Decoding a browser's frame without trusting it: its size before decoding, its nesting after.

Every frame of the protocol is one flat object (depth 1; 2 leaves room for a
list value). ``orjson`` decodes a frame several times faster than the
standard library (every line a player types is one) and refuses text nested
deeper than it can decode instead of raising ``RecursionError``; what it
decodes is then refused when it nests deeper than the protocol's frames. A
frame it refuses is looked at again on that path only: a pass over the text
that counts brackets outside strings says whether it is too deep, and the
standard library reads what strict JSON does not (a lone surrogate, ``NaN``)
as it always did.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

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


def value_depth(value: Any, limit: int) -> int:
    """How deep lists and dicts nest in a decoded ``value``, counting no further than ``limit + 1``."""
    if type(value) is dict:
        children: Any = value.values()
    elif type(value) is list:
        children = value
    else:
        return 0
    if limit <= 0:
        return 1  # deeper than counted already
    deepest = 0
    for child in children:
        if type(child) is dict or type(child) is list:
            deepest = max(deepest, value_depth(child, limit - 1))
            if deepest >= limit:
                break
    return deepest + 1


def _decoded_otherwise(text: str, max_depth: int) -> Any:
    """A frame ``orjson`` refused: too deep, or decoded as the standard library reads it (a lone
    surrogate a browser escaped, a ``NaN``: strict JSON refuses them), else not JSON."""
    if nesting_depth(text, max_depth) > max_depth:
        raise BadFrame("too_deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("not_json") from None


def decode_frame(text: str, max_size: int, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The frame as a dict with a string ``t``; BadFrame (with a reason for the sender) otherwise."""
    if len(text) > max_size:
        raise BadFrame("too_big")
    try:
        frame = orjson.loads(text)
    except orjson.JSONDecodeError:
        frame = _decoded_otherwise(text, max_depth)
    if value_depth(frame, max_depth) > max_depth:
        raise BadFrame("too_deep")
    if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
        raise BadFrame("not_a_frame")
    return frame
