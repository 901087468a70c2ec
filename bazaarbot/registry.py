"""Finds the game plugins: every sub-package of ``plugins/`` that exposes ``GAME``.

Adding a game means adding a folder; no core file changes.
"""

from __future__ import annotations

import functools
import importlib
import logging
import pkgutil
import sys
from pathlib import Path

import plugins
from bazaarbot.plugin import GamePlugin

log = logging.getLogger(__name__)


def discover() -> dict[str, GamePlugin]:
    """All installed games by name; a plugin that fails to import is logged and left out."""
    found: dict[str, GamePlugin] = {}
    for info in sorted(pkgutil.iter_modules(plugins.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"plugins.{info.name}")
        except Exception:
            log.exception("game plugin %s failed to load", info.name)
            continue
        game = getattr(module, "GAME", None)
        if isinstance(game, GamePlugin) and game.name:
            found[game.name] = game
    return found


def web_folder(game: GamePlugin) -> Path | None:
    """The ``web/`` folder beside a game's module (its drawn table for the browser), if present."""
    module = sys.modules.get(type(game).__module__)
    origin = getattr(module, "__file__", None)
    if not origin:
        return None
    return _web_beside(origin)


@functools.cache
def _web_beside(origin: str) -> Path | None:
    """The ``web/`` folder beside a module file (looked up once: the page asks at every change)."""
    folder = Path(origin).parent / "web"
    return folder if folder.is_dir() else None
