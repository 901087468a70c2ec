"""Bytes waiting to be sent, per connection and per remote address: the web chat's memory bound.

A tab that never reads makes every frame meant for it wait in memory. A count
of frames does not bound that (one ``joined`` frame with a room's history is
tens of kilobytes), so what waits is counted in bytes: a connection over its
own bound, or one of an address that holds more than its share in all, is
disconnected at once (the page reconnects by itself when it is a real tab).
"""

from __future__ import annotations

import contextlib
import socket

#: the kernel's send buffer of one websocket (its auto-tuning would let each hold megabytes)
KERNEL_SEND_BUFFER = 128 * 1024


def limit_kernel_buffer(transport: object, size: int = KERNEL_SEND_BUFFER) -> None:
    """Bound what the kernel holds for a connection that does not read, so the bytes wait where we count."""
    get_extra = getattr(transport, "get_extra_info", None)
    sock = get_extra("socket") if get_extra is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


class SendBudget:
    """Bytes queued per remote address, under ``per_connection`` each and ``per_address`` in all."""

    def __init__(self, per_connection: int, per_address: int) -> None:
        self.per_connection = per_connection
        self.per_address = per_address
        self.queued: dict[str, int] = {}

    def fits(self, address: str, connection_bytes: int, size: int) -> bool:
        """Whether ``size`` more bytes may wait for a tab of ``address`` that holds ``connection_bytes``."""
        if connection_bytes + size > self.per_connection:
            return False
        return self.queued.get(address, 0) + size <= self.per_address

    def charge(self, address: str, size: int) -> None:
        self.queued[address] = self.queued.get(address, 0) + size

    def refund(self, address: str, size: int) -> None:
        left = self.queued.get(address, 0) - size
        if left > 0:
            self.queued[address] = left
        else:
            self.queued.pop(address, None)
