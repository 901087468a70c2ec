"""Matrix: rooms as channels, direct rooms for private lines, seats bound to Matrix user IDs (matrix-nio)."""

from bazaarbot.transports.matrix.transport import MatrixTransport

__all__ = ["MatrixTransport"]
