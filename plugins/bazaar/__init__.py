"""Sid Sackson's Bazaar, as the BrettspielWelt chat game played it (rules reference §9)."""

from .game import BazaarGame

GAME = BazaarGame()

__all__ = ["GAME", "BazaarGame"]
