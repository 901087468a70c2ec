"""No secret in a log line: tokens, passwords, SASL and NickServ credentials are blotted out.

``bazaarbot -v`` logs what the libraries do (a Matrix client's URLs carry its
``access_token``; an IRC library logs the lines it sends, ``PASS`` and
``AUTHENTICATE`` among them). Every handler of the root logger gets
``SecretFilter``: each line is formatted, then every secret the config named
(``remember``) and every credential in a known shape is replaced by ``***``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

MASK = "***"

#: credentials in the shapes they travel in: URL queries, JSON, HTTP headers, IRC lines, URLs with a password
SHAPES = (
    re.compile(r"(?i)(access_token=)[^&\s\"'>]+"),
    re.compile(r"(?i)(\"(?:access_token|password|token|refresh_token)\"\s*:\s*\")[^\"]*"),
    re.compile(r"(?i)('(?:access_token|password|token|refresh_token)'\s*:\s*')[^']*"),
    re.compile(r"(?i)(authorization:?\s*[\"']?\s*(?:bearer|bot|basic)\s+)[^\s\"',}]+"),
    re.compile(r"(?i)(\bPASS\s+:?)\S+"),
    re.compile(r"(?i)(\bAUTHENTICATE\s+)(?!PLAIN\b|EXTERNAL\b|SCRAM|\+)\S+"),
    re.compile(r"(?i)(\b(?:IDENTIFY|GHOST|REGAIN|RECOVER)\s+(?:\S+\s+)?)\S+"),
    re.compile(r"(?i)(://[^/\s:@]+:)[^@\s/]+(?=@)"),
)

#: the secrets named in the config, longest first (a secret inside another is blotted out with it)
_known: list[str] = []


def remember(secrets: Iterable[str | None]) -> None:
    """Blot out these exact strings from every log line from now on (empty ones and very short ones aside)."""
    for secret in secrets:
        if secret and len(secret) >= 4 and secret not in _known:
            _known.append(secret)
    _known.sort(key=len, reverse=True)


def redact(text: str) -> str:
    """``text`` with every secret it holds replaced by ``***``."""
    for secret in _known:
        if secret in text:
            text = text.replace(secret, MASK)
    for shape in SHAPES:
        text = shape.sub(lambda match: match.group(1) + MASK, text)
    return text


class SecretFilter(logging.Filter):
    """Formats a record's message with its arguments once, with its secrets blotted out."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def guard_logs(logger: logging.Logger | None = None) -> SecretFilter:
    """Put a ``SecretFilter`` on every handler of ``logger`` (the root logger by default)."""
    target = logger if logger is not None else logging.getLogger()
    secret_filter = SecretFilter()
    for handler in target.handlers:
        handler.addFilter(secret_filter)
    return secret_filter
