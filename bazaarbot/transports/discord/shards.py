"""Which hub network a Discord guild's tables live on: one per shard when the bot is sharded.

Discord puts a guild on shard ``(guild_id >> 22) % shard_count`` and sends its
events only over that shard's gateway connection. Each shard is a hub network
of its own (``discord/3``), so its tables, its lease row and its restore belong
to the process that serves it; an unsharded bot is one network under its name.
"""

from __future__ import annotations

from bazaarbot.config import DiscordBot, shard_network
from bazaarbot.i18n import N_

#: the answer to a DM that a process of a sharded bot cannot place (the person's table is not served here)
ELSEWHERE = N_(
    "Direct messages reach only part of this bot, not your table. In your game's channel, "
    "/hand, /moves and /play answer you alone."
)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers a guild's events on (its documented formula)."""
    return (guild_id >> 22) % shard_count


class Shards:
    """The networks of one ``[[discord.bots]]`` entry in this process, and a guild's among them."""

    def __init__(self, settings: DiscordBot) -> None:
        self.name = settings.name
        self.count = settings.shard_count
        #: the hub networks served here, in shard order (the bot's name alone when unsharded)
        self.networks = settings.networks
        #: Discord sends direct messages on shard 0 only
        self.serves_direct_messages = self.count is None or 0 in (settings.shards or ())

    @property
    def sharded(self) -> bool:
        return self.count is not None

    def network_of_guild(self, guild_id: int) -> str | None:
        """The network of the guild's tables; None when another process serves its shard."""
        if self.count is None:
            return self.name
        network = shard_network(self.name, shard_of(guild_id, self.count))
        return network if network in self.networks else None
