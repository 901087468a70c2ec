"""IRC wire lines: parse what the server sends, and make what we send unable to carry a second command.

A line is ``[@tags] [:source] COMMAND params... [:trailing]``. Parsing never raises:
a line the bot cannot read becomes ``None`` and is skipped, so a malformed or
hostile line can never stop the reader. Every text the bot puts on the wire goes
through ``clean`` first, which turns CR, LF and NUL into spaces: a nick or a
message with an embedded ``\\r\\nQUIT`` stays one harmless line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_TAG_ESCAPES = {":": ";", "s": " ", "\\": "\\", "r": "\r", "n": "\n"}


@dataclass(frozen=True)
class Line:
    """One parsed server line; ``command`` is upper case, numerics stay three digits."""

    command: str
    params: tuple[str, ...] = ()
    source: str = ""
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def nick(self) -> str:
        return self.source.split("!", 1)[0]

    @property
    def userhost(self) -> tuple[str, str]:
        """(user, host) of the source, empty strings when the source is a server or a bare nick."""
        if "!" not in self.source or "@" not in self.source:
            return "", ""
        rest = self.source.split("!", 1)[1]
        user, _sep, host = rest.partition("@")
        return user, host

    def param(self, index: int, default: str = "") -> str:
        try:
            return self.params[index]
        except IndexError:
            return default


def _unescape_tag(value: str) -> str:
    out: list[str] = []
    chars = iter(value)
    for char in chars:
        if char == "\\":
            nxt = next(chars, "")
            out.append(_TAG_ESCAPES.get(nxt, nxt))
        else:
            out.append(char)
    return "".join(out)


def parse(raw: str) -> Line | None:
    """A server line as a ``Line``; None for an empty or unreadable one."""
    text = raw.rstrip("\r\n")
    tags: dict[str, str] = {}
    if text.startswith("@"):
        head, _sep, text = text.partition(" ")
        for item in head[1:].split(";"):
            if item:
                key, _eq, value = item.partition("=")
                tags[key] = _unescape_tag(value)
        text = text.lstrip(" ")
    source = ""
    if text.startswith(":"):
        head, _sep, text = text.partition(" ")
        source = head[1:]
        text = text.lstrip(" ")
    if not text:
        return None
    trailing: str | None = None
    if " :" in text:
        text, trailing = text.split(" :", 1)
    elif text.startswith(":"):
        text, trailing = "", text[1:]
    words = text.split()
    if trailing is not None:
        words.append(trailing)
    if not words:
        return None
    return Line(words[0].upper(), tuple(words[1:]), source, tags)


def clean(text: str) -> str:
    """Text safe inside one IRC line: CR, LF and NUL become spaces."""
    return text.replace("\r", " ").replace("\n", " ").replace("\0", " ")


def clean_word(text: str) -> str:
    """A single parameter (a nick, a channel, a target): no spaces, no line breaks, no leading colon."""
    word = clean(text).replace(" ", "").replace(",", "")
    return word.lstrip(":")


#: the most characters of channel names one JOIN carries (servers take 512 bytes a line)
JOIN_ROOM = 400


def join_lines(channels: list[str], room: int = JOIN_ROOM) -> list[str]:
    """``JOIN #a,#b,...``: the channels in as few lines as fit, so a rejoin of many is a line or two."""
    lines: list[str] = []
    current: list[str] = []
    for channel in channels:
        if current and len(",".join([*current, channel])) > room:
            lines.append("JOIN " + ",".join(current))
            current = []
        current.append(channel)
    if current:
        lines.append("JOIN " + ",".join(current))
    return lines
