"""The IRC transport: the `irc` package's asyncio client and the pieces it lacks."""

from bazaarbot.transports.irc.transport import IrcTransport

__all__ = ["IrcTransport"]
