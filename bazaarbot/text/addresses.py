"""Addresses and networks as the operator writes them in the config (trusted proxies, path prefixes)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class ProxyConfigError(ValueError):
    """A ``trusted_proxies`` entry that is not an address or a network."""


def parse_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """``["127.0.0.1", "10.0.0.0/8", "::1"]`` as networks (a bare address is a /32 or /128)."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ProxyConfigError(f"{entry!r} is not an IP address or network (e.g. 10.0.0.0/8)") from None
    return tuple(networks)


def normalize_base_path(path: str) -> str:
    """``bazaar`` / ``/bazaar/`` -> ``/bazaar``; ``""`` and ``/`` -> ``""`` (served at the root)."""
    path = path.strip().strip("/")
    if not path:
        return ""
    if not re.fullmatch(r"[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*", path):
        raise ProxyConfigError(f"{path!r} is not a URL path (letters, digits, . _ ~ - and /)")
    return "/" + path
