"""The Discord transport: one ``[[discord.bots]]`` entry, a network of its own, on discord.py.

A guild text channel or thread is a room (``#ID``); a person is ``<@ID>``,
their Discord user ID being the account a seat is bound to (``ids.py``).
Typed lines reach the hub as on IRC. Every declared command is a slash command
too (``slash.py``); what a slash command or a button answers only to the person
who used it (their hand, their moves, a refusal) is an ephemeral reply that
nobody else receives, and a private line that no interaction carries goes by
DM. Each room's game has one board message, edited in place, with buttons for
the reader's hand and moves; the person to act is mentioned, and may play by
pressing their moves (``picker.py``). ``start`` returns at once; discord.py
connects, resumes and reconnects by itself, and the hub's turn clocks of this
network stand still while the gateway is away.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import datetime
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import discord

from bazaarbot.config import DiscordBot, shard_network
from bazaarbot.i18n import N_, _, language
from bazaarbot.messages import Incoming, Outgoing, Say, Tell, User
from bazaarbot.speaking import may_speak
from bazaarbot.text.commandmark import render
from bazaarbot.transports.base import HubPort
from bazaarbot.transports.discord import ids, picker, slash, text
from bazaarbot.transports.discord.endpoints import point_at
from bazaarbot.transports.discord.outbox import Destination, Outbox, Piece
from bazaarbot.transports.discord.shards import ELSEWHERE, Shards
from bazaarbot.transports.discord.state import BoardMessage, DiscordState
from bazaarbot.transports.hello import hello

log = logging.getLogger(__name__)

#: the character the hub reads commands by
HUB_PREFIX = "!"
#: an interaction's token answers for 15 minutes; later answers go by DM (a margin for the round trip)
INTERACTION_LIFETIME = datetime.timedelta(minutes=15) - datetime.timedelta(seconds=30)
#: tries of one message while the connection to Discord is down, and the first pause between them
SEND_TRIES = 5
SEND_PAUSE = 1.0
#: the pause before connecting again after the connection broke, doubling up to the cap
RECONNECT_PAUSE = 1.0
RECONNECT_CAP = 30.0
#: what a message that is neither a mention nor a reply may ping: nobody
NOBODY = discord.AllowedMentions(everyone=False, users=False, roles=False, replied_user=False)
#: errors that mean "Discord cannot be reached now": the message is tried again
NETWORK_ERRORS = (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.DiscordServerError)

_Written = TypeVar("_Written")


async def written(write: Callable[..., Awaitable[_Written]], *args: Any, **kwargs: Any) -> _Written | None:
    """Every write to Discord passes here: made only while this process may speak, else None.

    A message, a board's edit or deletion, an interaction's answer, defer or follow-up:
    past the lease another process serves the network, so none of them may leave.
    """
    if not may_speak():
        return None
    return await write(*args, **kwargs)


HAND_BUTTON = N_("Your hand")
MOVES_BUTTON = N_("Your moves")
YOUR_MOVES = N_("Your moves:")
GAME_MOVED_ON = N_("The game has moved on; your moves now:")
NOTHING_TO_SAY = N_("Done.")
BACK = N_("\u2190 back")
MORE = N_("more \u2192")

#: the interaction whose answers to its person are collected for an ephemeral reply, if any
_ANSWERING: contextvars.ContextVar[Answering | None] = contextvars.ContextVar(
    "discord_answering", default=None
)


@dataclass
class Answering:
    """The private answers to one person's slash command or button press, while the hub handles it."""

    user_id: int
    tells: list[Tell] = field(default_factory=list)
    open: bool = True


def _event_tasks(client: discord.Client) -> list[asyncio.Task[Any]]:
    """The event handlers ``client`` scheduled that have not finished (discord.py names their tasks)."""
    found: list[asyncio.Task[Any]] = []
    for task in asyncio.all_tasks():
        if task.done() or not task.get_name().startswith("discord.py: "):
            continue
        frame = getattr(task.get_coro(), "cr_frame", None)
        if frame is not None and frame.f_locals.get("self") is client:
            found.append(task)
    return found


class DiscordTransport:
    """One configured ``[[discord.bots]]`` entry, attached to the hub."""

    def __init__(self, settings: DiscordBot, *, register_commands: bool = True) -> None:
        self.settings = settings
        self.network = settings.name
        self.shards = Shards(settings)
        #: the hub networks this transport reaches: one per shard served here, or the bot's name
        self.networks = self.shards.networks
        #: each known room's network (its guild's shard)
        self.room_network: dict[int, str] = {}
        self.prefix = settings.command_prefix
        self.register_commands = register_commands
        self.hub: HubPort | None = None
        self.client: discord.Client | None = None
        self.states: dict[str, DiscordState] = {}
        self.outbox = Outbox(self._deliver)
        self.online = asyncio.Event()
        self.ready = asyncio.Event()
        #: display names: per (guild, user), and the user's own name wherever no guild says otherwise
        self.member_names: dict[tuple[int, int], str] = {}
        self.user_names: dict[int, str] = {}
        self.channel_names: dict[int, str] = {}
        self.guild_of: dict[int, int] = {}
        self.boards: dict[int, BoardMessage] = {}
        self.dm_channels: dict[int, int] = {}
        #: messages sent, to rooms (public), by DM (private), as ephemeral replies; for the metrics
        self.sent_by_kind: collections.Counter[str] = collections.Counter()
        self.commands_registered = 0
        self._inbox: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self._handling = False
        self._tasks: list[asyncio.Task[Any]] = []
        self._boards_due: set[int] = set()
        self._stopping = False

    # --- the Transport protocol ------------------------------------------------------------------
    async def start(self, hub: HubPort) -> None:
        """Load the board messages, then connect in the background; returns at once."""
        self.hub = hub
        hub.attach(self)
        self._stopping = False
        self.states = {network: DiscordState(hub.database, network) for network in self.networks}
        self.boards = {}
        for network, state in self.states.items():
            for channel_id, board in state.boards().items():
                self.boards[channel_id] = board
                self.room_network[channel_id] = network
        labels = {"network": self.network}
        hub.metrics.gauge(
            "bazaarbot_discord_queued", "Discord lines waiting to be sent", self.outbox.__len__, labels
        )
        for kind in ("public", "private", "ephemeral"):
            hub.metrics.counted(
                "bazaarbot_discord_messages_sent",
                "Discord messages sent to rooms (public), by DM (private) and as ephemeral replies",
                lambda kind=kind: self.sent_by_kind[kind],
                {**labels, "kind": kind},
            )
        point_at(self.settings.api_url, self.settings.gateway_url)
        self.client = self._client()
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._connect(), name=f"discord-{self.network}-gateway"))
        self._tasks.append(loop.create_task(self._dispatch(), name=f"discord-{self.network}-dispatch"))

    async def stop(self, drain: float = 3.0) -> None:
        """Handle the lines read, send what is queued (for up to ``drain`` seconds), then disconnect."""
        if drain > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.idle(), drain)
        self._stopping = True
        await self.outbox.close()
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.close()
            # events discord.py scheduled but did not run yet end with the client, not after it
            self._tasks.extend(_event_tasks(self.client))
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        self.online.clear()

    async def send(self, message: Outgoing) -> None:
        """Queue a Say for its room or a Tell for its person (an ephemeral reply, else a DM)."""
        if isinstance(message, Say):
            self._say(message)
        elif isinstance(message, Tell):
            self._tell(message)

    async def idle(self) -> None:
        """Until the lines read so far are handled and every queued message has left (tests)."""
        while True:
            while not self._inbox.empty() or self._handling:
                await asyncio.sleep(0.01)
            await self.outbox.idle()
            if self._inbox.empty() and not self._handling and not self.outbox.tasks:
                return

    def backlog_seconds(self) -> float:
        """About how long the lines waiting now take to leave (a turn clock starts once they left)."""
        return 0.05 * len(self.outbox)

    # --- the connection ---------------------------------------------------------------------------
    def _client(self) -> discord.Client:
        intents = discord.Intents.default()
        intents.message_content = True  # typed commands and moves: privileged, enabled for the application
        intents.members = False
        intents.presences = False
        options: dict[str, Any] = {"intents": intents, "allowed_mentions": NOBODY}
        settings = self.settings
        if settings.shard_count is not None:
            client: discord.Client = discord.AutoShardedClient(
                shard_ids=list(settings.shards or range(settings.shard_count)),
                shard_count=settings.shard_count,
                **options,
            )
        else:
            client = discord.Client(**options)
        client.setup_hook = self._setup_hook  # type: ignore[method-assign]
        if settings.shard_count is not None:  # each shard's connection stops and starts its own clocks
            for event in ("shard_ready", "shard_resumed"):
                setattr(client, f"on_{event}", self._on_shard_up)
            client.on_shard_disconnect = self._on_shard_down  # type: ignore[attr-defined]
        for event in ("ready", "resumed", "disconnect", "message", "interaction", "guild_join"):
            setattr(client, f"on_{event}", getattr(self, f"_on_{event}"))
        return client

    async def _connect(self) -> None:
        """Run the gateway connection; after anything that ends it but a refused login, start again."""
        pause = RECONNECT_PAUSE
        while not self._stopping:
            client = self.client
            assert client is not None
            try:
                await client.start(self.settings.token, reconnect=True)
                return
            except asyncio.CancelledError:
                raise
            except discord.LoginFailure:
                log.error("%s: Discord refused the bot token; check [[discord.bots]] token", self.network)
                return
            except discord.PrivilegedIntentsRequired:
                log.error(
                    "%s: enable the Message Content intent for the bot in the Developer Portal", self.network
                )
                return
            except Exception as error:  # never a traceback for a network that went away
                log.warning("%s: the Discord connection ended (%s); connecting again", self.network, error)
            await self._on_disconnect()
            if self.hub is not None and self.shards.sharded:  # every shard connects again
                for network in self.networks:
                    await self.hub.network_down(network)
            with contextlib.suppress(Exception):
                await client.close()
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_CAP)
            self.client = self._client()

    async def _setup_hook(self) -> None:
        """Register the slash commands (the whole set, as the declarations say it now)."""
        client = self.client
        if client is None or not self.register_commands or client.application_id is None:
            return
        try:
            made = await client.http.bulk_upsert_global_commands(client.application_id, slash.all_payloads())
            self.commands_registered = len(made)
        except discord.HTTPException as error:
            log.warning("%s: the slash commands could not be registered: %s", self.network, error)

    async def _on_ready(self) -> None:
        self.ready.set()
        await self._online()

    async def _on_resumed(self) -> None:
        await self._online()

    async def _online(self) -> None:
        if not self.online.is_set():
            self.online.set()
            if self.hub is not None and not self.shards.sharded:  # a shard says so itself (below)
                await self.hub.network_up(self.network)

    async def _on_disconnect(self) -> None:
        if self.online.is_set() and not self._stopping:
            self.online.clear()
            if self.hub is not None and not self.shards.sharded:  # nobody can answer: the clocks stand still
                await self.hub.network_down(self.network)

    async def _on_shard_up(self, shard_id: int) -> None:
        """A shard connected or resumed: the clocks of its tables run (the others' keep their state)."""
        if self.hub is not None:
            await self.hub.network_up(shard_network(self.network, shard_id))

    async def _on_shard_down(self, shard_id: int) -> None:
        if self.hub is not None and not self._stopping:
            await self.hub.network_down(shard_network(self.network, shard_id))

    async def _on_guild_join(self, guild: discord.Guild) -> None:
        """A guild new to the bot learns how to start, where it says so."""
        if self.shards.network_of_guild(guild.id) is None:
            return  # another process serves its shard
        channel = guild.system_channel
        if channel is not None and channel.permissions_for(guild.me).send_messages:
            self._put(("room", channel.id), Piece(hello()))

    # --- reading ----------------------------------------------------------------------------------
    async def _on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None or self.hub is None:
            return
        if message.type not in (discord.MessageType.default, discord.MessageType.reply):
            return
        if not self._serves(message.guild.id if message.guild is not None else None):
            return
        self._learn(message.author, message.guild)
        for mentioned in message.mentions:
            self._learn(mentioned, message.guild)
        line = self._typed(message.content)
        if not line.strip():
            return
        channel = message.channel
        if message.guild is None:  # placed in turn, after the lines before it (a /join) are handled
            author = message.author.id
            self._hub(lambda: self._direct(author, line))
            return
        if isinstance(channel, discord.TextChannel | discord.Thread | discord.VoiceChannel):
            self._learn_channel(channel)
            user = ids.person(message.author.id, is_op=self._is_op(message.author, channel))
            incoming = Incoming(
                self._network_of(ids.room_of(channel.id)), ids.room_of(channel.id), user, line
            )
        else:
            return
        hub = self.hub
        self._hub(lambda: hub.handle(incoming))

    def _typed(self, content: str) -> str:
        """A person's line as the hub reads it: commands with ``!``, mentions in one form."""
        line = ids.typed(content)
        if self.prefix != HUB_PREFIX and line.startswith(self.prefix) and line[1:2].isalpha():
            line = HUB_PREFIX + line[1:]
        return line

    def _is_op(self, member: discord.abc.User, channel: Any) -> bool:
        """Manage Server, Manage Channels here, or a role the config names: an admin of this guild."""
        if not isinstance(member, discord.Member):
            return False
        roles = set(self.settings.admin_roles)
        if roles and any(str(role.id) in roles for role in member.roles):
            return True
        try:
            allowed = channel.permissions_for(member)
        except Exception:  # a channel the cache does not know well enough: no rights from it
            return False
        return bool(allowed.manage_guild or allowed.manage_channels or allowed.administrator)

    def _learn(self, who: discord.abc.User, guild: discord.Guild | None) -> None:
        name = getattr(who, "display_name", None) or who.name
        if guild is not None and isinstance(who, discord.Member):
            self.member_names[(guild.id, who.id)] = name
        self.user_names[who.id] = getattr(who, "global_name", None) or who.name

    def _learn_channel(self, channel: Any) -> None:
        self.channel_names[channel.id] = getattr(channel, "name", None) or str(channel.id)
        guild = getattr(channel, "guild", None)
        if guild is not None:
            self.guild_of[channel.id] = guild.id
            network = self.shards.network_of_guild(guild.id)
            if network is not None:
                self.room_network[channel.id] = network

    # --- shards -----------------------------------------------------------------------------------
    def _serves(self, guild_id: int | None) -> bool:
        """Whether this process answers an event of the guild (None: a DM).

        Discord sends a guild's events only on its shard and DMs only on shard
        0; a server that sends every event on every connection (Spacebar) is
        answered as Discord would have it, so two processes never both answer.
        """
        if not self.shards.sharded:
            return True
        if guild_id is None:
            return self.shards.serves_direct_messages
        return self.shards.network_of_guild(guild_id) is not None

    def _network_of(self, room: str | None) -> str:
        """The hub network of a room: its guild's shard (the bot's one network when unsharded)."""
        channel_id = ids.channel_id_of(room) if room else None
        found = self.room_network.get(channel_id) if channel_id is not None else None
        return found or self.networks[0]

    def _dm_network(self, key: str) -> str | None:
        """The network a person's DM is read on: the shard of a table they sit at here, else None.

        An unsharded bot reads every DM on its one network. A sharded bot has no
        guild in a DM, so it is read where the person's table is; a person with
        no table served by this process is pointed to the slash commands.
        """
        hub = self.hub
        if not self.shards.sharded or hub is None:
            return self.networks[0]
        return next((network for network in self.networks if hub.my_tables(network, key)), None)

    async def _direct(self, user_id: int, line: str) -> None:
        """A typed DM: read at the person's table's network, or answered with the pointer."""
        hub = self.hub
        person = ids.person(user_id)
        network = self._dm_network(person.key)
        if network is None or hub is None:
            self._elsewhere(user_id, person.key)
            return
        await hub.handle(Incoming(network, None, person, line))

    def _elsewhere(self, user_id: int, key: str) -> None:
        """A DM this process cannot place: a short answer pointing to the game's channel."""
        hub = self.hub
        lang = hub.page_language(self.networks[0], None, key) if hub is not None else None
        with language(lang):
            self._put(("dm", user_id), Piece(_(ELSEWHERE)))

    # --- interactions -----------------------------------------------------------------------------
    async def _on_interaction(self, interaction: discord.Interaction) -> None:
        hub = self.hub
        if hub is None or not self._serves(interaction.guild_id):
            return
        self._learn(interaction.user, interaction.guild)
        if interaction.channel is not None and interaction.guild is not None:
            self._learn_channel(interaction.channel)
        user = ids.person(
            interaction.user.id,
            is_op=interaction.guild is not None and self._interaction_op(interaction),
        )
        locale = str(interaction.locale) if interaction.locale else None
        if interaction.guild_id is not None:
            network = self.shards.network_of_guild(interaction.guild_id)
        else:
            network = self._dm_network(user.key)
        if network is not None:
            hub.client_language(network, user.key, locale)
        try:
            if network is None:  # a DM this process cannot place
                await self._answer_elsewhere(interaction, locale)
            elif interaction.type is discord.InteractionType.application_command:
                await self._slash(interaction, user, network)
            elif interaction.type is discord.InteractionType.component:
                await self._pressed(interaction, user, network)
        except discord.HTTPException as error:
            log.warning("%s: an interaction could not be answered: %s", self.network, error)

    def _interaction_op(self, interaction: discord.Interaction) -> bool:
        member = interaction.user
        roles = set(self.settings.admin_roles)
        if roles and isinstance(member, discord.Member) and any(str(r.id) in roles for r in member.roles):
            return True
        allowed = interaction.permissions
        return bool(allowed.manage_guild or allowed.manage_channels or allowed.administrator)

    def _room_of(self, interaction: discord.Interaction) -> str | None:
        """The room an interaction happened in; None in a DM."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return None
        return ids.room_of(interaction.channel_id)

    async def _answer_elsewhere(self, interaction: discord.Interaction, locale: str | None) -> None:
        """The pointer to the game's channel, as the ephemeral answer of a slash command or button in a DM."""
        with language(locale):
            sent = await written(
                interaction.response.send_message, _(ELSEWHERE), ephemeral=True, allowed_mentions=NOBODY
            )
        if sent is not None:
            self.sent_by_kind["ephemeral"] += 1

    async def _slash(self, interaction: discord.Interaction, user: User, network: str) -> None:
        data = interaction.data or {}
        line = slash.typed_line(dict(data), HUB_PREFIX)
        await written(interaction.response.defer, ephemeral=True, thinking=True)
        if line is None:
            await written(interaction.delete_original_response)
            return
        room = self._room_of(interaction)
        incoming = Incoming(network, room, user, line)
        self._hub(lambda: self._answer_interaction(interaction, incoming, None))

    async def _answer_interaction(
        self,
        interaction: discord.Interaction,
        incoming: Incoming,
        after: Callable[[], Awaitable[None]] | None,
    ) -> None:
        """Hand the line to the hub; what it says to the person alone becomes the ephemeral reply."""
        hub = self.hub
        assert hub is not None
        answering = Answering(interaction.user.id)
        token = _ANSWERING.set(answering)
        try:
            await hub.handle(incoming)
        finally:
            _ANSWERING.reset(token)
            answering.open = False
        if after is not None:
            await after()
            return
        await self._reply(interaction, answering.tells, incoming.channel)

    async def _reply(
        self,
        interaction: discord.Interaction,
        tells: list[Tell],
        room: str | None,
        buttons: list[picker.Button] | None = None,
        header: str = "",
    ) -> None:
        """The ephemeral answer of a deferred interaction; by DM once its token has expired."""
        parts = [header] if header else []
        blocks: list[str] = []
        for tell in tells:
            if tell.hand_of is not None or self._is_view(tell):
                blocks.append(tell.text)
            else:
                parts.append(tell.text)
        guild = interaction.guild_id
        await self._learn_ids("\n".join([*parts, *blocks]), guild)
        messages = [
            *text.pieces(self._in_message("\n".join(parts), guild)),
            *(piece for b in blocks for piece in text.block_pieces(self._in_block(b, guild))),
        ]
        if not messages and not buttons:
            with contextlib.suppress(discord.HTTPException):
                await written(interaction.delete_original_response)
            return
        if self._expired(interaction):  # never answer late through a token: the person's DM instead
            for message in messages:
                self._put(("dm", interaction.user.id), Piece(message, kind="rendered"))
            return
        view = self._view(buttons or [])
        first = messages[0] if messages else ""
        if await written(interaction.edit_original_response, content=first or "\u200b", view=view) is None:
            return  # past this process's lease: neither the answer nor its follow-ups leave
        self.sent_by_kind["ephemeral"] += 1
        for message in messages[1:]:
            if await written(interaction.followup.send, message, ephemeral=True, allowed_mentions=NOBODY):
                self.sent_by_kind["ephemeral"] += 1

    def _expired(self, interaction: discord.Interaction) -> bool:
        return discord.utils.utcnow() - interaction.created_at > INTERACTION_LIFETIME

    async def _pressed(self, interaction: discord.Interaction, user: User, network: str) -> None:
        custom = str((interaction.data or {}).get("custom_id", ""))
        press = picker.parse(custom)
        if press is None:
            return
        if interaction.guild_id is not None:  # the button's room is in the guild it was pressed in
            self.room_network[press.channel_id] = network
        message = interaction.message
        in_place = message is not None and message.flags.ephemeral
        if in_place:
            await written(interaction.response.defer)
        else:
            await written(interaction.response.defer, ephemeral=True, thinking=True)
        room = ids.room_of(press.channel_id)
        if press.kind == picker.HAND:
            self._hub(lambda: self._show_hand(interaction, user, room))
        elif press.kind == picker.PLAY:
            self._hub(lambda: self._play(interaction, user, room, press))
        else:
            self._hub(lambda: self._show_moves(interaction, user, room, press.verb, press.page))

    async def _show_hand(self, interaction: discord.Interaction, user: User, room: str) -> None:
        hub = self.hub
        assert hub is not None
        network = self._network_of(room)
        view = hub.private_view(network, room, user.key)
        if view is not None:
            await self._reply(interaction, [Tell(network, user.nick, view, key=user.key, hand_of=room)], room)
            return
        await self._run_for(interaction, user, room, "!hand")

    async def _run_for(self, interaction: discord.Interaction, user: User, room: str, line: str) -> None:
        """The hub's own answer to ``line`` (a refusal, "not your turn"), to the person alone."""
        await self._answer_interaction(interaction, Incoming(self._network_of(room), room, user, line), None)

    async def _show_moves(
        self,
        interaction: discord.Interaction,
        user: User,
        room: str,
        verb: str | None = None,
        page: int = 0,
        header: str = YOUR_MOVES,
        tells: list[Tell] | None = None,
    ) -> None:
        """The person's moves as buttons; ``tells`` (the answers to a move just played) above them."""
        hub = self.hub
        assert hub is not None
        found = hub.verb_commands(self._network_of(room), room, user.key, None)
        if not found or not found.get("commands"):
            if tells is None:  # asked for: the hub says why there are none ("waiting for bob")
                await self._run_for(interaction, user, room, "!moves")
            else:
                with language(hub.page_language(self._network_of(room), room, user.key)):
                    done = _(NOTHING_TO_SAY)
                await self._reply(interaction, tells, room, header="" if tells else done)
            return
        channel_id = ids.channel_id_of(room) or 0
        lang = found.get("lang")
        said = found.get("said") or {}  # the commands the reader says otherwise, in their words
        with language(lang):
            buttons = picker.picker(
                channel_id,
                int(found["game_id"]),
                int(found["moves"]),
                list(found["commands"]),
                [str(said.get(command, command)) for command in found["commands"]],
                verb=verb,
                page=page,
                back=_(BACK),
                more=_(MORE),
            )
            heading = _(header)
        await self._reply(interaction, tells or [], room, buttons=buttons, header=heading)

    async def _play(
        self, interaction: discord.Interaction, user: User, room: str, press: picker.Press
    ) -> None:
        """A move's button: played when the game is still where the button was drawn."""
        hub = self.hub
        assert hub is not None
        network = self._network_of(room)
        found = hub.verb_commands(network, room, user.key, None)
        commands = list(found["commands"]) if found else []
        current = found is not None and found["game_id"] == press.game_id and found["moves"] == press.moves
        if not current or press.index is None or not 0 <= press.index < len(commands):
            await self._show_moves(interaction, user, room, header=GAME_MOVED_ON)
            return
        command = commands[press.index]
        answering = Answering(interaction.user.id)
        token = _ANSWERING.set(answering)
        try:
            await hub.handle(Incoming(network, room, user, command))
        finally:
            _ANSWERING.reset(token)
            answering.open = False
        await self._show_moves(interaction, user, room, tells=answering.tells)  # the next step, if theirs

    # --- sending ----------------------------------------------------------------------------------
    def _say(self, say: Say) -> None:
        channel_id = ids.channel_id_of(say.channel)
        hub = self.hub
        if channel_id is None or hub is None:
            log.warning("%s: no Discord channel for %r", self.network, say.channel)
            return
        self.room_network[channel_id] = say.network
        board = hub.public_board(say.network, say.channel)
        game = hub.game_id(say.network, say.channel)
        where: Destination = ("room", channel_id)
        lang = hub.page_language(say.network, say.channel, None)
        if board is not None and say.text == board:  # the board asked for: its message moves down here
            self._put(where, Piece(board, kind="board", fresh=True, game_id=game, lang=lang))
            return
        pinged = frozenset(found for nick in say.mentions if (found := ids.user_id_of(nick)) is not None)
        buttons: tuple[picker.Button, ...] = ()
        if pinged and board is not None:
            with language(lang):
                buttons = tuple(picker.seat_buttons(channel_id, _(HAND_BUTTON), _(MOVES_BUTTON)))
        self._put(where, Piece(say.text, pinged=pinged, buttons=buttons))
        if board is not None:
            if not self._boards_due:
                asyncio.get_running_loop().call_soon(self._boards_after_answer)
            self._boards_due.add(channel_id)

    def _boards_after_answer(self) -> None:
        """After the lines of one answer are queued: each room's board, behind them, once."""
        due, self._boards_due = self._boards_due, set()
        hub = self.hub
        if hub is None:
            return
        for channel_id in due:
            room = ids.room_of(channel_id)
            network = self._network_of(room)
            board = hub.public_board(network, room)
            game = hub.game_id(network, room)
            if board is None:
                continue
            slot = self.boards.get(channel_id)
            lang = hub.page_language(network, room, None)
            if slot is None or slot.game_id != game:
                self._put(
                    ("room", channel_id), Piece(board, kind="board", fresh=True, game_id=game, lang=lang)
                )
            elif board != slot.text:
                self._put(("room", channel_id), Piece(board, kind="board", game_id=game, lang=lang))

    def _tell(self, message: Tell) -> None:
        user_id = ids.user_id_of(message.nick, message.key)
        if user_id is None:
            log.info("%s: a private line for %r withheld: no Discord user", self.network, message.nick)
            return
        answering = _ANSWERING.get()
        if answering is not None and answering.open and answering.user_id == user_id:
            answering.tells.append(message)
            return
        kind = "block" if message.hand_of is not None or self._is_view(message) else "line"
        self._put(("dm", user_id), Piece(message.text, kind=kind))

    def _is_view(self, message: Tell) -> bool:
        """A seat's private view (a hand): shown as a block, like the board."""
        hub = self.hub
        if hub is None or message.key is None or "\n" not in message.text:
            return False
        return any(
            hub.private_view(self._network_of(ids.room_of(channel)), ids.room_of(channel), message.key)
            == message.text
            for channel in {*self.boards, *self.guild_of}
        )

    def _put(self, where: Destination, piece: Piece) -> None:
        self.outbox.put(where, piece)

    async def _deliver(self, where: Destination, batch: list[Piece]) -> None:
        """Send one destination's gathered lines: as few messages as fit, then its board."""
        kind, target = where
        guild = self.guild_of.get(target) if kind == "room" else None
        lines: list[Piece] = []
        for piece in batch:
            if piece.kind == "board":
                await self._send_lines(where, lines, guild)
                lines = []
                await self._board(target, piece)
            else:
                lines.append(piece)
        await self._send_lines(where, lines, guild)

    async def _send_lines(self, where: Destination, lines: list[Piece], guild: int | None) -> None:
        if not lines:
            return
        await self._learn_ids("\n".join(piece.text for piece in lines), guild)
        pinged = frozenset().union(*(piece.pinged for piece in lines))
        parts: list[str] = []
        for piece in lines:
            if piece.kind == "rendered":
                parts.append(piece.text)
            elif piece.kind == "block":
                parts.extend(text.block_pieces(self._in_block(piece.text, guild)))
            else:
                parts.append(self._in_message(piece.text, guild, pinged))
        messages = self._packed(parts)
        buttons: dict[str, picker.Button] = {}
        for piece in lines:
            for button in piece.buttons:
                buttons.setdefault(button.custom_id, button)
        for index, content in enumerate(messages):
            last = index == len(messages) - 1
            mentioned = [discord.Object(user) for user in pinged if f"<@{user}>" in content]
            await self._send(
                where,
                content,
                allowed=discord.AllowedMentions(
                    everyone=False, roles=False, users=mentioned or False, replied_user=False
                ),
                buttons=list(buttons.values()) if last else [],
            )

    @staticmethod
    def _packed(parts: list[str]) -> list[str]:
        """Parts joined by line ends into messages of at most 2,000 characters (a code block whole)."""
        messages: list[str] = []
        current = ""
        for part in parts:
            for chunk in [part] if part.startswith(text.FENCE) else text.pieces(part):
                joined = f"{current}\n{chunk}" if current else chunk
                if len(joined) <= text.MESSAGE_LIMIT:
                    current = joined
                else:
                    if current:
                        messages.append(current)
                    current = chunk
        if current:
            messages.append(current)
        return messages

    async def _send(
        self,
        where: Destination,
        content: str,
        *,
        allowed: discord.AllowedMentions = NOBODY,
        buttons: list[picker.Button] | None = None,
        embed: discord.Embed | None = None,
    ) -> discord.Message | None:
        """One message, tried again while Discord cannot be reached; None when it was refused."""
        pause = SEND_PAUSE
        for attempt in range(1, SEND_TRIES + 1):
            try:
                if not may_speak():  # past this process's lease: not even a DM channel is opened
                    return None
                channel = await self._messageable(where)
                if channel is None:
                    return None
                options: dict[str, Any] = {"allowed_mentions": allowed}
                if buttons:
                    options["view"] = self._view(buttons)
                if embed is not None:
                    options["embed"] = embed
                sent = await written(channel.send, content or None, **options)
                if sent is not None:
                    self.sent_by_kind["public" if where[0] == "room" else "private"] += 1
                return sent
            except discord.Forbidden as error:
                log.warning("%s: Discord refused a message to %s %s: %s", self.network, *where, error.text)
                return None
            except discord.HTTPException as error:
                if isinstance(error, discord.DiscordServerError) and attempt < SEND_TRIES:
                    await asyncio.sleep(pause)
                    pause *= 2
                    continue
                log.warning("%s: Discord refused a message to %s %s: %s", self.network, *where, error)
                return None
            except NETWORK_ERRORS as error:
                if attempt == SEND_TRIES or self._stopping:
                    log.warning("%s: a message to %s %s was lost: %s", self.network, *where, error)
                    return None
                await asyncio.sleep(pause)
                pause *= 2
        return None

    async def _messageable(self, where: Destination) -> discord.abc.Messageable | None:
        client = self.client
        assert client is not None
        kind, target = where
        if kind == "room":
            return client.get_partial_messageable(target, guild_id=self.guild_of.get(target))
        channel_id = self.dm_channels.get(target)
        if channel_id is not None:
            return client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        user = client.get_user(target) or await client.fetch_user(target)
        dm = user.dm_channel or await user.create_dm()
        self.dm_channels[target] = dm.id
        return dm

    def _view(self, buttons: list[picker.Button]) -> discord.ui.View:
        """The buttons as a message's components; nothing kept in memory (presses come as interactions)."""
        view = discord.ui.View(timeout=None)
        styles = {
            "primary": discord.ButtonStyle.primary,
            "secondary": discord.ButtonStyle.secondary,
            "success": discord.ButtonStyle.success,
        }
        for index, button in enumerate(buttons[: picker.ROW * picker.ROW]):
            view.add_item(
                discord.ui.Button(
                    label=button.label,
                    custom_id=button.custom_id,
                    style=styles.get(button.style, discord.ButtonStyle.primary),
                    row=index // picker.ROW,
                )
            )
        view.stop()  # finished before it is sent: discord.py keeps no store of it
        return view

    # --- the board message ------------------------------------------------------------------------
    async def _board(self, channel_id: int, piece: Piece) -> None:
        """Post the room's board message, or edit it in place: the board as it is now, not as queued."""
        hub = self.hub
        assert hub is not None
        room = ids.room_of(channel_id)
        network = self._network_of(room)
        board = hub.public_board(network, room)
        game = hub.game_id(network, room)
        if board is None:
            return
        slot = self.boards.get(channel_id)
        guild = self.guild_of.get(channel_id)
        await self._learn_ids(board, guild)
        content, embed = self._board_message(board, guild)
        with language(piece.lang):
            buttons = picker.seat_buttons(channel_id, _(HAND_BUTTON), _(MOVES_BUTTON))
        if slot is not None and slot.game_id == game and not piece.fresh and slot.message_id is not None:
            if slot.text == board or not may_speak():  # past the lease: the board is another process's
                return
            try:
                channel = await self._messageable(("room", channel_id))
                assert isinstance(channel, discord.PartialMessageable)
                message = channel.get_partial_message(slot.message_id)
                edited = await written(
                    message.edit,
                    content=content,
                    embed=embed,
                    view=self._view(buttons),
                    allowed_mentions=NOBODY,
                )
                if edited is None:
                    return
                slot.text = board
                await self._keep(slot)
                return
            except discord.NotFound:
                pass  # somebody deleted it: a new one below
        old = slot.message_id if slot is not None and slot.game_id == game else None
        sent = await self._send(("room", channel_id), content, buttons=buttons, embed=embed)
        if sent is None:
            return
        fresh = BoardMessage(channel_id, game, board, sent.id)
        self.boards[channel_id] = fresh
        await self._keep(fresh)
        if old is not None:  # one board message per game: the one asked for replaces it
            with contextlib.suppress(discord.HTTPException):
                channel = await self._messageable(("room", channel_id))
                assert isinstance(channel, discord.PartialMessageable)
                await written(channel.get_partial_message(old).delete)

    def _board_message(self, board: str, guild: int | None) -> tuple[str, discord.Embed | None]:
        """A board as a code block; one too long for a message goes in an embed (4,096 characters)."""
        shown = text.block(self._in_block(board, guild))
        if len(shown) <= text.MESSAGE_LIMIT:
            return shown, None
        return "", discord.Embed(description=shown[:4096])

    async def _keep(self, slot: BoardMessage) -> None:
        state = self.states.get(self._network_of(ids.room_of(slot.channel_id)))
        if state is None:
            return
        if self.hub is None:
            state.set_board(slot)
        else:
            await self.hub.records(lambda: state.set_board(slot))

    # --- names ------------------------------------------------------------------------------------
    def _name_of(self, guild: int | None) -> Callable[[int], str]:
        def name_of(user_id: int) -> str:
            if guild is not None and (guild, user_id) in self.member_names:
                return self.member_names[(guild, user_id)]
            return self.user_names.get(user_id) or _("somebody")

        return name_of

    def _room_name(self, channel_id: int) -> str:
        return self.channel_names.get(channel_id) or str(channel_id)

    def _in_message(self, hub_text: str, guild: int | None, pinged: frozenset[int] = frozenset()) -> str:
        return text.in_message(render(hub_text, self.prefix), self._name_of(guild), pinged)

    def _in_block(self, hub_text: str, guild: int | None) -> str:
        return text.in_block(render(hub_text, self.prefix), self._name_of(guild), self._room_name)

    async def _learn_ids(self, hub_text: str, guild: int | None) -> None:
        """Ask Discord for the names of the people a line names that the bot has not seen speak."""
        client = self.client
        if client is None:
            return
        for user_id in text.people_in(hub_text):
            if (guild is not None and (guild, user_id) in self.member_names) or (
                guild is None and user_id in self.user_names
            ):
                continue
            with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
                server = client.get_guild(guild) if guild is not None else None
                if server is not None:
                    member = server.get_member(user_id) or await server.fetch_member(user_id)
                    self._learn(member, server)
                    continue
                user = client.get_user(user_id) or await client.fetch_user(user_id)
                self._learn(user, None)

    # --- hub calls, in order ------------------------------------------------------------------------
    async def _dispatch(self) -> None:
        while True:
            call = await self._inbox.get()
            self._handling = True
            try:
                await call()
            except Exception:
                log.exception("%s: the hub failed on a Discord event", self.network)
            finally:
                self._handling = False

    def _hub(self, call: Callable[[], Awaitable[None]]) -> None:
        self._inbox.put_nowait(call)
