"""Who the client really is behind a reverse proxy, believed only from proxies the operator trusts.

Behind nginx or Caddy every browser arrives from the proxy's address, so the
per-address bounds would count the proxy. The operator names the peers that
are proxies (``[web] trusted_proxies``) and the one header they set
(``[web] forwarded_header``: ``X-Forwarded-For`` or ``Forwarded``); the bot
reads only that header, only from such a peer, and walks its hops from the
right: the right-most address that is not itself a trusted proxy is the
client. A header of the other kind, or from any other peer, is never read, so a
client cannot choose which of two headers the bot believes.

A hop that is no address (``unknown``, an obfuscated ``_hidden``, garbage, an
empty header) stops the walk: the request counts as the proxy's own
connection for the per-address bounds, and it is still a forwarded request, so
it never passes for this machine at ``/metrics``. ``/metrics`` on loopback is
only for a request that came straight to the bot and carries no forwarding
header of any kind (``Client.direct``).

Why not ``aiohttp-remotes``: its strict middlewares (``XForwardedStrict``,
``ForwardedStrict``) expect a chain of fixed length with one trusted set per
hop and answer 400 to every request from a peer outside it (a local
Prometheus scrape, a browser on the machine itself); ``ForwardedStrict`` lets
``for=unknown`` through to ``ipaddress`` and answers 500, ``XForwardedStrict``
answers 400 to it where it should count as the proxy; and
``XForwardedFiltered`` believes the header from any peer. What it would share
with this module is the parsing, and the ``Forwarded`` grammar (RFC 7239) is
parsed here by aiohttp itself (``BaseRequest.forwarded``).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from aiohttp import web

from bazaarbot.text.addresses import Address, parse_networks

#: every header a proxy may name a client in; any of them makes a request "not direct"
ANY_FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Real-IP", "X-Forwarded-Host")


def parse_address(text: str) -> Address | None:
    """An address from a header hop: ``1.2.3.4``, ``1.2.3.4:5678``, ``[2001:db8::1]:80``, ``::1``."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


@dataclass(frozen=True)
class Client:
    """The client as the bot counts it."""

    #: the address the per-address bounds count
    address: str
    #: whether a trusted proxy forwarded the request (its header was there, readable or not)
    forwarded: bool = False
    #: whether the request came straight to the bot: no forwarding header of any kind, from anybody
    direct: bool = True


class ProxyPolicy:
    """The operator's trusted proxies and their header, and how to read a request's real client."""

    def __init__(self, trusted: tuple[str, ...] | list[str] = (), header: str = "X-Forwarded-For") -> None:
        self.trusted = parse_networks(trusted)
        self.header = header

    def is_trusted(self, address: Address | None) -> bool:
        return address is not None and any(address in network for network in self.trusted)

    def is_trusted_address(self, text: str) -> bool:
        """Whether a socket's peer (as text) is one of the trusted proxies."""
        return bool(self.trusted) and self.is_trusted(parse_address(text))

    def client(self, peer: str | None, request: web.BaseRequest) -> Client:
        """The real client of ``request``, whose socket peer is ``peer``."""
        peer = peer or "?"
        direct = not any(name in request.headers for name in ANY_FORWARDING)
        if not self.trusted or not self.is_trusted(parse_address(peer)):
            return Client(peer, forwarded=False, direct=direct)
        hops = self.hops(request)
        if hops is None:  # the proxy itself asked (its header is missing)
            return Client(peer, forwarded=False, direct=direct)
        for hop in reversed(hops):
            address = parse_address(hop)
            if address is None:  # not an address: the walk cannot go past it; the proxy's own connection
                break
            if not self.is_trusted(address):
                return Client(str(address), forwarded=True, direct=False)
        # an unreadable hop, or every hop a trusted proxy: counted as the nearest proxy, never as local
        return Client(peer, forwarded=True, direct=False)

    def hops(self, request: web.BaseRequest) -> list[str] | None:
        """The named header's hops, left to right (None: the header is absent).

        An element of ``Forwarded`` without a readable ``for`` is a hop of its
        own (an empty one), so it stops the walk like ``for=unknown``.
        """
        if self.header not in request.headers:
            return None
        if self.header == "Forwarded":
            elements = request.forwarded
            return [element.get("for", "") for element in elements] or [""]
        values = ",".join(request.headers.getall(self.header, ()))
        return [hop.strip() for hop in values.split(",")]


def is_loopback(address: str) -> bool:
    """Whether ``address`` (as the bot counts clients) is this machine."""
    parsed = parse_address(address)
    return parsed is not None and parsed.is_loopback
