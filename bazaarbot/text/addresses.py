"""Addresses and networks as the operator writes them in the config (trusted proxies, path prefixes)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


#: the forwarding headers an operator may name in ``[web] forwarded_header`` (as HTTP spells them)
FORWARDING_HEADERS = ("X-Forwarded-For", "Forwarded")


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


def forwarding_header(name: str) -> str:
    """The header a proxy sets, as HTTP spells it (``x-forwarded-for`` -> ``X-Forwarded-For``)."""
    for known in FORWARDING_HEADERS:
        if name.strip().lower() == known.lower():
            return known
    raise ProxyConfigError(f"must be one of {', '.join(FORWARDING_HEADERS)}, not {name!r}")


def normalize_base_path(path: str) -> str:
    """``/bazaar`` / ``/bazaar/`` -> ``/bazaar``; ``""`` and ``/`` -> ``""`` (served at the root).

    A path that does not start with ``/`` is refused: it is a URL path, and
    ``bazaar`` may be a typo for something else (a host name, a full URL).
    """
    path = path.strip()
    if path and not path.startswith("/"):
        raise ProxyConfigError(f"{path!r} must start with / (e.g. /bazaar)")
    path = path.strip("/")
    if not path:
        return ""
    if not re.fullmatch(r"[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*", path):
        raise ProxyConfigError(f"{path!r} is not a URL path (letters, digits, . _ ~ - and /)")
    return "/" + path
