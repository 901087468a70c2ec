"""Raw sockets against the web server, for the resource-bound tests: clients that never read.

A ``RawWs`` does the websocket handshake by hand on a socket with a tiny
receive buffer and then only ever writes (masked text frames, as a browser
must); whatever the server sends it piles up on the server's side. A
``half_request`` opens a TCP connection and sends part of an HTTP request.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from typing import Any


def frame(text: str) -> bytes:
    """One masked client text frame."""
    payload = text.encode()
    head = bytes([0x81])
    size = len(payload)
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", size)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", size)
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def open_socket(port: int, source: str = "127.0.0.1", rcvbuf: int = 4096) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


class RawWs:
    """A websocket that writes frames and never reads after the handshake."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    @classmethod
    async def open(cls, port: int, source: str = "127.0.0.1") -> RawWs:
        sock = await open_socket(port, source)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(sock, request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = await loop.sock_recv(sock, 1)  # byte by byte: nothing after the handshake is read
            if not chunk:
                raise ConnectionError(f"closed during the handshake: {answer!r}")
            answer += chunk
        if b" 101 " not in answer.split(b"\r\n", 1)[0]:
            raise ConnectionError(answer.decode(errors="replace"))
        return cls(sock)

    async def send(self, **fields: Any) -> bool:
        """Write one frame; False once the server has closed the connection."""
        try:
            await asyncio.wait_for(
                asyncio.get_running_loop().sock_sendall(self.sock, frame(json.dumps(fields))), 1.0
            )
        except (OSError, TimeoutError):
            return False
        return True

    def close(self) -> None:
        self.sock.close()


def rss_bytes() -> int:
    """This process's resident memory now."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
