"""Yspahan for bazaarbot: ``GAME`` is the plugin the core discovers."""

from __future__ import annotations

from .game import Yspahan

GAME = Yspahan()

__all__ = ["GAME", "Yspahan"]
