"""Jaipur (Sébastien Pauchon) for two players: trade, sell, first to two Seals of Excellence."""

from .game import JaipurGame

GAME = JaipurGame()

__all__ = ["GAME", "JaipurGame"]
