"""Who the client really is behind a reverse proxy, believed only from proxies the operator trusts.

Behind nginx or Caddy every browser arrives from the proxy's address, so the
per-address bounds would count the proxy. With ``[web] trusted_proxies`` the
forwarding headers of a trusted peer are read (``Forwarded`` first, else
``X-Forwarded-For`` / ``X-Forwarded-Proto``), walking the chain from the right:
the right-most address that is not itself a trusted proxy is the client. A
header from an untrusted peer is ignored, so it cannot be forged.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bazaarbot.text.addresses import Address, parse_networks

#: one ``for=`` / ``proto=`` pair of an RFC 7239 ``Forwarded`` element
_FORWARDED_PAIR = re.compile(r'\s*(for|proto)\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*)\s*', re.IGNORECASE)


def _address(text: str) -> Address | None:
    """An address from a header token: ``1.2.3.4``, ``1.2.3.4:5678``, ``[2001:db8::1]:80``, ``::1``."""
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
    """The client as the bot counts it: its address and whether it reached the proxy over TLS."""

    address: str
    #: whether the address came from a trusted proxy's header (not the socket's peer itself)
    forwarded: bool = False
    secure: bool = False


class ProxyPolicy:
    """The operator's trusted proxies, and how to read a request's real client through them."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.trusted = parse_networks(trusted)

    def is_trusted(self, address: Address | None) -> bool:
        return address is not None and any(address in network for network in self.trusted)

    def is_trusted_address(self, text: str) -> bool:
        """Whether a socket's peer (as text) is one of the trusted proxies."""
        return bool(self.trusted) and self.is_trusted(_address(text))

    def client(self, peer: str | None, headers: Mapping[str, str], secure: bool = False) -> Client:
        """The real client of a request whose socket peer is ``peer``."""
        peer_address = _address(peer or "")
        if not self.trusted or not self.is_trusted(peer_address):
            return Client(peer or "?", forwarded=False, secure=secure)
        chain, protos = self._chain(headers)
        for hop in reversed(chain):
            address = _address(hop)
            if address is None:  # an obfuscated or unknown hop: the chain cannot be followed past it
                break
            if not self.is_trusted(address):
                proto = protos[-1] if protos else None
                return Client(str(address), forwarded=True, secure=(proto == "https") if proto else secure)
        # every hop is a trusted proxy (or none was named): the nearest one is the client
        return Client(str(peer_address), forwarded=False, secure=secure)

    @staticmethod
    def _chain(headers: Mapping[str, str]) -> tuple[list[str], list[str]]:
        """The ``for`` chain and the ``proto`` values, from ``Forwarded`` or else the X-Forwarded headers."""
        forwarded = headers.get("Forwarded")
        if forwarded:
            chain, protos = [], []
            for element in forwarded.split(","):
                for key, value in _FORWARDED_PAIR.findall(element):
                    value = value.strip('"')
                    if key.lower() == "for":
                        chain.append(value)
                    else:
                        protos.append(value.lower())
            return chain, protos
        chain = [hop for hop in headers.get("X-Forwarded-For", "").split(",") if hop.strip()]
        protos = [p.strip().lower() for p in headers.get("X-Forwarded-Proto", "").split(",") if p.strip()]
        return chain, protos


def is_loopback(address: str) -> bool:
    """Whether ``address`` (as the bot counts clients) is this machine."""
    parsed = _address(address)
    return parsed is not None and parsed.is_loopback
