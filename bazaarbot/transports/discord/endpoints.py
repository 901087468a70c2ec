"""Where discord.py speaks Discord: its REST base and gateway are process-wide settings of the library.

A self-hosted Discord-compatible server (Spacebar) answers at other addresses;
the config checks that every bot of one process names the same pair.
"""

from __future__ import annotations

import discord
import yarl


def point_at(api_url: str, gateway_url: str) -> None:
    """Send discord.py's REST requests to ``api_url`` (``.../api/v10``) and open its gateway at
    ``gateway_url``."""
    discord.http.Route.BASE = api_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
