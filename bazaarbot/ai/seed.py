"""The AI's random seed: a pure function of the game's seed, the move number and the seat.

So a replayed or re-run game (``bazaarbot console --seed N``) gets the same
AI moves, and two AIs at one table never share a random stream.
"""

from __future__ import annotations

import hashlib


def ai_seed(game_seed: int, move_number: int, seat: int) -> int:
    """A 64-bit seed for ``seat``'s decision at move ``move_number`` of the game seeded ``game_seed``."""
    text = f"bazaarbot-ai:{game_seed}:{move_number}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")
