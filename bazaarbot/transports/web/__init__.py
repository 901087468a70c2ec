"""The web chat transport: an aiohttp server, a static page and a JSON websocket protocol."""

from bazaarbot.transports.web.server import WebTransport

__all__ = ["WebTransport"]
