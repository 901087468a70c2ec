"""People named as Matrix clients name them: a user ID in a line becomes its display name, a pill in HTML.

The core names a Matrix player by their user ID (the identity a seat is bound
to); a reader wants the name their client shows. ``Named`` splits a line at
the user IDs of people the room knows: the plain ``body`` gets their display
name, the HTML a pill (a ``matrix.to`` link, which clients draw as the
person). Where two people of the room share a display name the name carries
the ID (nio's disambiguation), and a display name made to look like a user ID,
or empty, is never shown: the ID is. The display name is only ever shown,
never used to find anybody.
"""

from __future__ import annotations

import html
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

#: a user ID as it appears in a line (historical IDs allow more than today's lower-case localparts)
USER_ID = re.compile(r"@[A-Za-z0-9._=\-/+]+:[A-Za-z0-9.\-]+(?::[0-9]+)?")
#: characters a display name may not bring into a line
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
#: the longest display name shown as it is
LONGEST_NAME = 48

#: a room's display name of a user ID, None when the room does not know the user
NameOf = Callable[[str], "str | None"]


def shown_name(user_id: str, display: str | None) -> str:
    """What a line shows for ``user_id`` whose (already disambiguated) display name is ``display``."""
    if not display:
        return user_id
    name = _CONTROL.sub("", display).strip()
    if not name or len(name) > LONGEST_NAME or USER_ID.search(name.replace(f"({user_id})", "")):
        return user_id  # empty, overlong, or pretending to be somebody's ID: the ID itself
    return name


def pill(user_id: str, name: str) -> str:
    """The HTML link clients draw as the person ``user_id``."""
    href = "https://matrix.to/#/" + urllib.parse.quote(user_id, safe="@:")
    return f'<a href="{html.escape(href)}">{html.escape(name)}</a>'


@dataclass(frozen=True)
class Named:
    """A line split at the user IDs of known people: text parts and (user ID, name) parts, in order."""

    parts: tuple[str | tuple[str, str], ...]

    @classmethod
    def of(cls, text: str, name_of: NameOf | None) -> Named:
        if name_of is None or "@" not in text:
            return cls((text,))
        parts: list[str | tuple[str, str]] = []
        at = 0
        for match in USER_ID.finditer(text):
            user_id = match.group(0)
            display = name_of(user_id)
            while display is None and user_id[-1] in ".:-":  # "... wins, @ann:example.org." ends a sentence
                user_id = user_id[:-1]
                display = name_of(user_id)
            if display is None:
                continue
            parts += [text[at : match.start()], (user_id, shown_name(user_id, display))]
            at = match.start() + len(user_id)
        parts.append(text[at:])
        return cls(tuple(part for part in parts if part != ""))

    @property
    def people(self) -> list[str]:
        return [part[0] for part in self.parts if isinstance(part, tuple)]

    def body(self) -> str:
        return "".join(part if isinstance(part, str) else part[1] for part in self.parts)

    def html(self, text_html: Callable[[str], str] = html.escape) -> str:
        """The HTML: text parts through ``text_html`` (escaping, tinting), people as pills."""
        return "".join(text_html(part) if isinstance(part, str) else pill(*part) for part in self.parts)
