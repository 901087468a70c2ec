"""Changing what a running hub reads, in the hub and in every part it handed the same object to."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bazaarbot.hub.hub import Hub


def _holders(hub: Hub) -> list[Any]:
    return [hub, hub.services, hub.identity, hub.views, hub.language_choices]


def change_settings(hub: Hub, **changes: Any) -> None:
    """The bot's settings with ``changes``, as if the hub had been built with them."""
    settings = replace(hub.settings, **changes)
    for holder in _holders(hub):
        if hasattr(holder, "settings"):
            holder.settings = settings


def swap_tables(hub: Hub, tables: Any) -> None:
    """The hub's tables replaced by ``tables`` (a wrapper that watches how they are read)."""
    for holder in _holders(hub):
        holder.tables = tables
