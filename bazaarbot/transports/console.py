"""The console transport: people and scripts drive the bot from a terminal.

Input lines: ``NICK: TEXT`` (NICK says TEXT in the default channel),
``NICK@#chan: TEXT`` (in another channel), ``NICK@dm: TEXT`` (privately to
the bot). Output lines: ``#chan> TEXT`` for the channel, ``@NICK> TEXT`` for
what only NICK is told. With ``script`` a line ``---`` follows the answer
to every input line, once the bot is idle, so a driving program knows the
answer is complete.
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import TextIO

from bazaarbot.messages import Incoming, Outgoing, Say, User
from bazaarbot.text.commandmark import render
from bazaarbot.transports.base import HubPort

LINE = re.compile(r"^\s*([^\s:@]+)(?:@(#[^\s:]+|dm))?:\s?(.*)$")


class ConsoleTransport:
    """Reads ``NICK: TEXT`` lines, writes ``#chan> TEXT`` / ``@NICK> TEXT`` lines."""

    def __init__(
        self,
        network: str = "console",
        channel: str = "#bazaar",
        script: bool = False,
        out: TextIO | None = None,
        err: TextIO | None = None,
    ) -> None:
        self.network = network
        self.channel = channel
        self.script = script
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.hub: HubPort | None = None

    async def start(self, hub: HubPort) -> None:
        self.hub = hub
        hub.attach(self)

    async def stop(self) -> None:
        self.out.flush()

    async def send(self, message: Outgoing) -> None:
        prefix = f"{message.channel}> " if isinstance(message, Say) else f"@{message.nick}> "
        for line in render(message.text).split("\n"):
            self.out.write(prefix + line + "\n")
        self.out.flush()

    def parse(self, line: str) -> Incoming | None:
        """An input line as the event a network would deliver, or None when it is not one."""
        match = LINE.match(line)
        if not match:
            return None
        nick, where, text = match.groups()
        channel = None if where == "dm" else (where or self.channel)
        # the console is local: whoever runs it vouches for every nick, so the nick is the account
        return Incoming(self.network, channel, User(nick=nick, account=nick), text)

    async def feed(self, line: str) -> None:
        """Handle one input line completely (and mark the end in script mode)."""
        assert self.hub is not None
        line = line.rstrip("\r\n")
        if line.strip():
            incoming = self.parse(line)
            if incoming is None:
                self.err.write("expected NICK: TEXT, NICK@#chan: TEXT or NICK@dm: TEXT\n")
                self.err.flush()
            else:
                await self.hub.handle(incoming)
                await self.hub.idle()
        if self.script:
            self.out.write("---\n")
            self.out.flush()

    async def run(self, stream: TextIO | None = None) -> None:
        """Read lines until end of input."""
        stream = stream or sys.stdin
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, stream.readline)
            if not line:
                return
            await self.feed(line)
