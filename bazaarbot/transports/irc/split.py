"""Fit text into IRC lines: a safe payload size from the bot's real prefix, and UTF-8-safe splitting.

The server relays ``PRIVMSG #chan :text`` as ``:nick!user@host PRIVMSG #chan :text\\r\\n``,
and that whole relayed line must stay within 512 bytes (LINELEN). So the payload
budget depends on the bot's own hostmask (learned from the server; estimated
generously until then) and on the target. Text is cut at spaces where possible
and never inside a UTF-8 character.
"""

from __future__ import annotations

#: RFC 1459 line length including CR LF
LINELEN = 512
#: host length assumed before the server has told us ours (the longest a hostname may be)
HOST_ESTIMATE = 63
#: user length assumed before we know it: a ``~`` from a failed ident, plus USERLEN
USER_ESTIMATE = 11


def prefix_length(nick: str, user: str | None, host: str | None) -> int:
    """Bytes of ``:nick!user@host `` as the server will put it before our lines."""
    user_len = len(user.encode()) if user else USER_ESTIMATE
    host_len = len(host.encode()) if host else HOST_ESTIMATE
    return 1 + len(nick.encode()) + 1 + user_len + 1 + host_len + 1


def payload_budget(prefix_len: int, command: str, target: str, linelen: int = LINELEN) -> int:
    """Bytes left for the text in ``<prefix>COMMAND target :text\\r\\n``."""
    overhead = prefix_len + len(command.encode()) + 1 + len(target.encode()) + 2 + 2
    return max(1, linelen - overhead)


def _fit(text: str, budget: int) -> int:
    """The largest character count of ``text`` whose UTF-8 encoding fits ``budget`` bytes."""
    used = 0
    for index, char in enumerate(text):
        size = len(char.encode("utf-8", "surrogatepass"))
        if used + size > budget:
            return index
        used += size
    return len(text)


def split_line(text: str, budget: int) -> list[str]:
    """One line of text as pieces of at most ``budget`` bytes, cut at a space where one is near."""
    pieces: list[str] = []
    rest = text
    while len(rest.encode("utf-8", "surrogatepass")) > budget:
        cut = _fit(rest, budget)
        space = rest.rfind(" ", 0, cut + 1)
        if space > cut // 2:
            pieces.append(rest[:space].rstrip(" ") or rest[:space])
            rest = rest[space + 1 :]
        else:
            cut = max(cut, 1)
            pieces.append(rest[:cut])
            rest = rest[cut:]
    if rest.strip(" "):
        pieces.append(rest)
    return [piece for piece in pieces if piece.strip(" ")]


def split_text(text: str, budget: int) -> list[str]:
    """Multi-line text as IRC payloads: one or more per line, blank lines dropped."""
    out: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        out.extend(split_line(line.rstrip(" "), budget))
    return out


def pack_lines(lines: list[str], budget: int, separator: str = " | ") -> list[str]:
    """Short lines (one command each) joined by ``separator`` into as few lines as ``budget`` allows.

    A line that is too long on its own is left as it is (``split_text`` already cut it to size).
    """
    packed: list[str] = []
    size = len(separator.encode())
    current = ""
    for line in lines:
        if current and len(current.encode()) + size + len(line.encode()) <= budget:
            current += separator + line
            continue
        if current:
            packed.append(current)
        current = line
    if current:
        packed.append(current)
    return packed
