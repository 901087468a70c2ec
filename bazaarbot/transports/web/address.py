"""Who a web client is, for the per-address and per-prefix bounds: one function, one place.

Every bound that counts clients by where they come from asks the transport's
``client``, which starts from ``client_address`` (the socket's peer) and, behind
a trusted reverse proxy, takes the real client from its header (``proxies.py``).
``network_prefix`` groups addresses one host or one customer can easily hold
many of (an IPv4 /24, an IPv6 /64), so a single host cannot escape the bounds
by using many addresses.
"""

from __future__ import annotations

import ipaddress

from aiohttp import web


def client_address(request: web.BaseRequest) -> str:
    """The address a request counts under (the peer's address; ``?`` when unknown)."""
    return request.remote or peer_address(request.transport)


def peer_address(transport: object) -> str:
    """The remote address of a TCP connection, before any request was read from it."""
    get_extra = getattr(transport, "get_extra_info", None)
    peer = get_extra("peername") if get_extra is not None else None
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "?"


def network_prefix(address: str) -> str:
    """The network ``address`` belongs to for the per-prefix bound: IPv4 /24, IPv6 /64."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))
