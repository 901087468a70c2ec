"""Discord: guild text channels and threads as rooms, DMs and ephemeral answers for private lines.

Owns the Discord transport (``transport.py``) on discord.py: typed commands and
moves as on IRC, every declared command as a slash command (``slash.py``), the
person to act playing by buttons (``picker.py``), one board message per game
edited in place (``state.py``), lines gathered per channel and split at 2,000
characters (``outbox.py``, ``text.py``), the REST and gateway addresses of
Discord or a Discord-compatible server (``endpoints.py``), and a sharded bot's
shards, each a network of its own (``shards.py``).

May import what every transport may (``transports/__init__.py``) and ``discord``;
nothing outside this package imports ``discord``.
"""

from bazaarbot.transports.discord.transport import DiscordTransport

__all__ = ["DiscordTransport"]
