"""IRCv3 capability negotiation and SASL PLAIN, as a state machine fed with server lines.

The ``irc`` package does SASL only in its synchronous client, so the asyncio
connection negotiates here: ``CAP LS 302`` before NICK/USER, ``CAP REQ`` for the
wanted capabilities the server offers, ``AUTHENTICATE PLAIN`` when ``sasl`` was
acknowledged and an account is configured, then ``CAP END``. ``feed`` takes one
parsed line and returns the lines to send, so it is tested without a server.
"""

from __future__ import annotations

import base64
import logging

from bazaarbot.transports.irc.lines import Line

log = logging.getLogger(__name__)

#: the capabilities the bot asks for when offered, in this order
WANTED = ("sasl", "account-notify", "extended-join", "account-tag", "multi-prefix", "message-tags")
#: numerics that end a SASL attempt without success
SASL_FAILED = {"902", "904", "905", "906", "907", "908"}
#: AUTHENTICATE carries at most this many bytes of base64 per line
CHUNK = 400


def sasl_plain_lines(account: str, password: str) -> list[str]:
    """``AUTHENTICATE`` lines for a PLAIN response (base64, in 400-byte chunks; ``+`` closes an exact fit)."""
    payload = base64.b64encode(f"{account}\0{account}\0{password}".encode()).decode()
    chunks = [payload[i : i + CHUNK] for i in range(0, len(payload), CHUNK)]
    lines = [f"AUTHENTICATE {chunk}" for chunk in chunks]
    if not chunks or len(chunks[-1]) == CHUNK:
        lines.append("AUTHENTICATE +")
    return lines


class CapNegotiator:
    """What the server offered and enabled, and how far SASL got."""

    def __init__(self, sasl_account: str | None = None, sasl_password: str | None = None) -> None:
        self.sasl_account = sasl_account
        self.sasl_password = sasl_password
        self.offered: dict[str, str] = {}
        self.enabled: set[str] = set()
        self.done = False
        #: "off" (no credentials or not offered), "pending", "ok" or "failed"
        self.sasl = "off"
        self._ls_done = False

    @property
    def wants_sasl(self) -> bool:
        return bool(self.sasl_account and self.sasl_password)

    def start(self) -> list[str]:
        """The first line, sent before NICK and USER so the server holds registration for us."""
        return ["CAP LS 302"]

    def _end(self) -> list[str]:
        if self.done:
            return []
        self.done = True
        return ["CAP END"]

    def _request(self) -> list[str]:
        wanted = []
        for cap in WANTED:
            if cap not in self.offered:
                continue
            if cap == "sasl":
                mechanisms = self.offered["sasl"]
                if not self.wants_sasl or (mechanisms and "PLAIN" not in mechanisms.upper().split(",")):
                    continue
            wanted.append(cap)
        if not wanted:
            return self._end()
        return ["CAP REQ :" + " ".join(wanted)]

    def feed(self, line: Line) -> list[str]:
        """React to one server line; returns the lines to send (often none)."""
        command = line.command
        if command == "CAP" and len(line.params) >= 3:
            return self._cap(line.params[1].upper(), list(line.params[2:]))
        if command == "AUTHENTICATE" and self.sasl == "pending":
            if line.param(0) == "+":
                assert self.sasl_account is not None and self.sasl_password is not None
                return sasl_plain_lines(self.sasl_account, self.sasl_password)
            return []
        if command in ("900", "903") and self.sasl == "pending":
            if command == "903":
                self.sasl = "ok"
                return self._end()
            return []
        if command in SASL_FAILED and self.sasl == "pending":
            self.sasl = "failed"
            log.warning("SASL authentication failed (%s %s)", command, line.param(-1))
            return self._end()
        if command in ("001", "421", "410") and not self.done:
            # the server registered us without CAP, or does not know it: nothing more to negotiate
            if command == "001":
                self.done = True
                return []
            return self._end()
        return []

    def _cap(self, sub: str, args: list[str]) -> list[str]:
        more = len(args) >= 2 and args[0] == "*"
        caps_text = args[-1]
        caps = {}
        for item in caps_text.split():
            name, _eq, value = item.partition("=")
            caps[name.lower()] = value
        if sub == "LS":
            self.offered.update(caps)
            if more or self._ls_done:
                return []
            self._ls_done = True
            return self._request()
        if sub == "ACK":
            for name in caps:
                if name.startswith("-"):
                    self.enabled.discard(name[1:])
                else:
                    self.enabled.add(name)
            if self.done:
                return []
            if "sasl" in caps and self.wants_sasl:
                self.sasl = "pending"
                return ["AUTHENTICATE PLAIN"]
            return self._end()
        if sub == "NAK":
            return [] if self.done else self._end()
        if sub == "NEW":
            self.offered.update(caps)
            extra = [c for c in WANTED if c in caps and c != "sasl" and c not in self.enabled]
            return ["CAP REQ :" + " ".join(extra)] if extra else []
        if sub == "DEL":
            for name in caps:
                self.enabled.discard(name)
                self.offered.pop(name, None)
            return []
        return []
