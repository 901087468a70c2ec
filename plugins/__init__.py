"""Game plugins: one sub-package per game, each exposing ``GAME`` (a GamePlugin)."""
