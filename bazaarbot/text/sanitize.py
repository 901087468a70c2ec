"""User text made safe to echo: no control or format characters, no runs of spaces."""

from __future__ import annotations

import re
import unicodedata

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SPACES = re.compile(r"\s+")


def sanitize(text: str) -> str:
    """Remove CR, LF, NUL and every other control or format character; fold runs of spaces.

    Text from users passes through here before it can ever be echoed, so it
    can neither inject a second protocol line nor carry formatting codes.
    """
    if text.isascii() and text.isprintable() and "  " not in text and text[:1] != " " != text[-1:]:
        return text  # most lines: nothing to take out (the steps below would give it back unchanged)
    text = _CONTROL.sub(" ", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    return _SPACES.sub(" ", text).strip()
