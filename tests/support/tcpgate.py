"""A TCP forwarder on loopback that can be shut: a database server that stops answering, on demand.

Every connection through the gate is relayed byte for byte to the target in
both directions; while the gate is shut the bytes wait in it (as they would
behind a stalled server or a lost network), and they flow on once it opens.
"""

from __future__ import annotations

import contextlib
import socket
import threading

from support.ircserver import free_port


class TcpGate:
    """``port`` on 127.0.0.1 relays to ``target``; ``shut()`` holds every byte until ``open()``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self._open = threading.Event()
        self._open.set()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._sockets: list[socket.socket] = [self._server]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def is_shut(self) -> bool:
        return not self._open.is_set()

    def shut(self) -> None:
        self._open.clear()

    def open(self) -> None:
        self._open.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _address = self._server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._relay, args=(source, sink), daemon=True).start()

    def _relay(self, source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            self._open.wait()
            if not data:
                break
            try:
                sink.sendall(data)
            except OSError:
                break
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._open.set()
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.close()
