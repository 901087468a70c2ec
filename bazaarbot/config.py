"""TOML config -> typed, validated settings, with errors that say which key is wrong."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bazaarbot.ai.levels import DEFAULT_LEVELS, Level
from bazaarbot.ai.pool import default_workers
from bazaarbot.i18n import available_languages, normalize_language
from bazaarbot.metrics import METRICS_ACCESS
from bazaarbot.text.addresses import ProxyConfigError, forwarding_header, normalize_base_path, parse_networks
from bazaarbot.text.redact import remember


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the key and what it needs."""


@dataclass(frozen=True)
class AdminPolicy:
    """Who may use admin commands on one network: accounts and hostmask patterns, never bare nicks.

    ``ops_are_admins`` trusts the network's channel registration (services):
    without it, whoever reaches an empty channel first is its operator, so it
    is off unless the operator of a network turns it on.
    """

    accounts: tuple[str, ...] = ()
    masks: tuple[str, ...] = ()
    ops_are_admins: bool = False


@dataclass(frozen=True)
class RateLimit:
    """Per-user command budget: ``commands`` within ``per_seconds``."""

    commands: int = 8
    per_seconds: float = 10.0


@dataclass(frozen=True)
class RatingSettings:
    """Ratings: how many rated games a player needs before ``/top`` lists them."""

    min_games: int = 3


@dataclass(frozen=True)
class BotSettings:
    nick: str = "bazaarbot"
    db: str = "bazaarbot.sqlite"
    default_game: str = "jaipur"
    language: str = "en"
    seed: int | None = None
    max_line: int = 400
    leave_grace: float = 60.0
    rate_limit: RateLimit = field(default_factory=RateLimit)
    #: the config's ``[ratings]`` section
    ratings: RatingSettings = field(default_factory=RatingSettings)
    #: a running game's state is snapshotted every this many moves (0: only at shutdown)
    snapshot_every: int = 50
    #: tables one identity may sit at on one network at once
    max_tables: int = 10


@dataclass(frozen=True)
class WebLimits:
    """What one client of the web chat may hold, so no client can lock the others out."""

    #: open websockets from one remote address
    connections_per_address: int = 20
    #: nick claims (new or renamed) from one remote address per minute
    claims_per_minute: int = 10
    #: rooms one nick is in at once (over all of its tabs)
    rooms_per_nick: int = 10
    #: seconds a websocket that has not claimed a nick (nor watches a room) may stay silent
    idle_unclaimed: float = 60.0
    #: seconds a claimed (or watching) websocket may stay silent
    idle_claimed: float = 3600.0
    #: seconds after its last use a claim that never sat at a table is forgotten
    stale_claim: float = 86400.0
    #: malformed frames one websocket may send before it is disconnected
    bad_frames: int = 10
    #: bytes waiting to be sent to one websocket before it counts as not reading and is disconnected
    send_buffer_bytes: int = 1_000_000
    #: bytes waiting to be sent to all websockets of one address, in all
    address_buffer_bytes: int = 4_000_000
    #: open websockets in all
    max_connections: int = 2000
    #: of ``max_connections``, the room spectators may never take (kept for players)
    player_reserve: int = 200
    #: open websockets from one network prefix (IPv4 /24, IPv6 /64)
    connections_per_prefix: int = 80
    #: open HTTP connections (websockets included) from one remote address
    http_per_address: int = 40
    #: seconds a new HTTP connection may take to send its first request's headers
    header_timeout: float = 10.0
    #: frames one websocket may send per second, after a burst of ``frame_burst`` (more are dropped)
    frames_per_second: float = 5.0
    frame_burst: int = 30


@dataclass(frozen=True)
class TableSettings:
    """How tables keep games going: the turn clock, AI takeover, abandoning a game nobody plays."""

    #: seconds per decision before the AI plays it (None: no clock); a network may set its own
    turn_seconds: int | None = 300
    #: the AI level that takes over a seat a person left
    takeover_level: str = "medium"
    #: a paused game (no player present) is abandoned after this many seconds, with a warning a day before
    abandon_after: float = 7 * 86400.0


@dataclass(frozen=True)
class WebSettings:
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    network: str = "web"
    max_message: int = 400
    #: parsed for old configs only: web admins come from ``bazaarbot admin-token``, never from a nick
    admins: AdminPolicy = field(default_factory=AdminPolicy)
    limits: WebLimits = field(default_factory=WebLimits)
    #: this network's turn clock in seconds (None: the ``[tables]`` default)
    turn_seconds: int | None = None
    #: the language of this network's rooms (None: ``[bot] language``)
    language: str | None = None
    #: room -> its language, overriding ``language``
    channel_languages: dict[str, str] = field(default_factory=dict)
    #: reverse proxies (addresses or networks) whose forwarding headers are believed
    trusted_proxies: tuple[str, ...] = ()
    #: the one header the trusted proxies set and the bot reads: "X-Forwarded-For" or "Forwarded"
    forwarded_header: str = "X-Forwarded-For"
    #: the path prefix the page is served under behind a proxy ("" = the root), e.g. "/bazaar"
    base_path: str = ""
    #: who may read ``/metrics``: "loopback" (this machine, not forwarded), "all" or "off"
    metrics: str = "loopback"
    #: whether the page's websockets may be compressed (permessage-deflate), when the browser offers it
    compress: bool = False


@dataclass(frozen=True)
class IrcNetwork:
    name: str
    host: str
    port: int = 6697
    tls: bool = True
    tls_verify: bool = True
    nick: str = "bazaarbot"
    alt_nicks: tuple[str, ...] = ()
    username: str = "bazaarbot"
    realname: str = "bazaarbot - chat board games (a bot)"
    password: str | None = None
    sasl_account: str | None = None
    sasl_password: str | None = None
    nickserv_password: str | None = None
    channels: tuple[str, ...] = ()
    admins: AdminPolicy = field(default_factory=AdminPolicy)
    leave_grace: float = 60.0
    #: token bucket: ``burst`` lines at once, then ``lines_per_second``
    burst: int = 4
    lines_per_second: float = 1.0
    #: a private listing longer than this many lines is sent a page at a time (``/more``)
    page_lines: int = 6
    #: the character this network's users start a command with, and the one the bot names commands with
    #: (``!more``): an IRC client takes a leading ``/`` as its own command
    command_prefix: str = "!"
    #: this network's turn clock in seconds (None: the ``[tables]`` default)
    turn_seconds: int | None = None
    #: the language of this network's channels (None: ``[bot] language``)
    language: str | None = None
    #: channel -> its language, overriding ``language``
    channel_languages: dict[str, str] = field(default_factory=dict)
    #: ``/invite bazaarbot #channel`` makes the bot join (and rejoin after restarts) until it is kicked
    accept_invites: bool = False


@dataclass(frozen=True)
class MatrixAccount:
    """One ``[[matrix.accounts]]`` entry: the bot's Matrix account on one homeserver, a network of its own."""

    name: str
    homeserver: str
    user_id: str
    password: str | None = None
    access_token: str | None = None
    device_name: str = "bazaarbot"
    rooms: tuple[str, ...] = ()
    #: join rooms (and direct chats) the bot is invited to
    auto_join: bool = True
    #: admins by Matrix user ID (``@you:example.org``), which the homeserver vouches for
    admins: AdminPolicy = field(default_factory=AdminPolicy)
    leave_grace: float = 60.0
    turn_seconds: int | None = None
    language: str | None = None
    channel_languages: dict[str, str] = field(default_factory=dict)


#: Discord's own addresses: the REST base (API v10) and the gateway
DISCORD_API_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


@dataclass(frozen=True)
class DiscordBot:
    """One ``[[discord.bots]]`` entry: a Discord application's bot user, a network of its own."""

    name: str
    #: the bot token (a secret: never shown, never logged)
    token: str = field(repr=False)
    #: where the bot speaks Discord's API: Discord's own, or a Discord-compatible server (Spacebar)
    api_url: str = DISCORD_API_URL
    gateway_url: str = DISCORD_GATEWAY_URL
    #: the character typed commands start with (``!join``); slash commands work beside them
    command_prefix: str = "!"
    #: admins by Discord user ID; members with Manage Server or Manage Channels are admins of their guild
    admins: AdminPolicy = field(default_factory=lambda: AdminPolicy(ops_are_admins=True))
    #: role IDs whose members are admins of that role's guild
    admin_roles: tuple[str, ...] = ()
    leave_grace: float = 60.0
    turn_seconds: int | None = None
    language: str | None = None
    #: ``"#<channel id>" = "de"``
    channel_languages: dict[str, str] = field(default_factory=dict)
    #: the shards this process serves (None: all of them, Discord's recommended count)
    shards: tuple[int, ...] | None = None
    shard_count: int | None = None

    @property
    def networks(self) -> tuple[str, ...]:
        """The hub networks this entry serves: the bot's name, or one per shard when it is sharded.

        Each shard is a network of its own (tables, lease row, restore), so
        processes split a bot by shard ranges; an unsharded bot keeps its name.
        """
        if self.shard_count is None:
            return (self.name,)
        return tuple(shard_network(self.name, shard) for shard in self.shards or range(self.shard_count))


def shard_network(name: str, shard: int) -> str:
    """The hub network of one shard of the Discord bot ``name``: ``discord/3``."""
    return f"{name}/{shard}"


@dataclass(frozen=True)
class AiSettings:
    """AI players: worker processes, the pause before an AI's move is played, and the levels."""

    workers: int = field(default_factory=default_workers)
    #: seconds an AI waits at least before its move is played, so people can follow
    move_delay: float = 1.0
    levels: dict[str, Level] = field(default_factory=lambda: dict(DEFAULT_LEVELS))
    #: CPU seconds the review of each finished game may take in the background, for its replay's
    #: win-chance graph (0: none; /review still makes one on request)
    review_after_game: float = 8.0
    #: while a person thinks, an AI that moves next thinks out its answers to their likeliest moves
    #: (one worker at low priority)
    ponder: bool = True


@dataclass(frozen=True)
class StoreSettings:
    """Where the records live when not in the sqlite file: a PostgreSQL server (``[store] url``)."""

    #: ``postgresql://user:password@host:port/database``; empty: the sqlite file of ``[bot] db``
    url: str = ""
    #: seconds a process's hold on its networks lasts without renewal (a standby takes over after it)
    lease_seconds: float = 2.0


@dataclass(frozen=True)
class Config:
    bot: BotSettings = field(default_factory=BotSettings)
    store: StoreSettings = field(default_factory=StoreSettings)
    web: WebSettings = field(default_factory=WebSettings)
    irc: tuple[IrcNetwork, ...] = ()
    matrix: tuple[MatrixAccount, ...] = ()
    discord: tuple[DiscordBot, ...] = ()
    ai: AiSettings = field(default_factory=AiSettings)
    tables: TableSettings = field(default_factory=TableSettings)

    def turn_seconds(self) -> dict[str, int | None]:
        """Each network's default turn clock."""
        default = self.tables.turn_seconds

        def pick(own: int | None) -> int | None:
            return default if own is None else (own or None)

        found = {self.web.network: pick(self.web.turn_seconds)}
        found.update({n.name: pick(n.turn_seconds) for n in self.irc})
        found.update({m.name: pick(m.turn_seconds) for m in self.matrix})
        found.update({n: pick(d.turn_seconds) for d in self.discord for n in d.networks})
        return found

    def served_networks(self) -> frozenset[str]:
        """Every hub network this process serves (and holds the lease of, on a PostgreSQL store)."""
        return frozenset(
            ([self.web.network] if self.web.enabled else [])
            + [n.name for n in self.irc]
            + [m.name for m in self.matrix]
            + [n for d in self.discord for n in d.networks]
        )

    def network_languages(self) -> dict[str, str]:
        """Each network's configured language (networks without one are left out)."""
        found = {self.web.network: self.web.language} if self.web.language else {}
        found.update({n.name: n.language for n in self.irc if n.language})
        found.update({m.name: m.language for m in self.matrix if m.language})
        found.update({n: d.language for d in self.discord if d.language for n in d.networks})
        return found

    def channel_languages(self) -> dict[tuple[str, str], str]:
        """(network, channel) -> the language configured for that channel."""
        found = {(self.web.network, c): lang for c, lang in self.web.channel_languages.items()}
        for network in self.irc:
            found.update({(network.name, c): lang for c, lang in network.channel_languages.items()})
        for account in self.matrix:
            found.update({(account.name, c): lang for c, lang in account.channel_languages.items()})
        for bot in self.discord:  # a channel's shard is not known here: each shard network names it
            found.update({(n, c): lang for c, lang in bot.channel_languages.items() for n in bot.networks})
        return found


def _language(section: dict[str, Any], where: str, key: str = "language") -> str | None:
    """A language the bot speaks ("de", "es", "en"), or None when the key is absent."""
    value = _take(section, where, key, str, None)
    if value is None:
        return None
    found = normalize_language(value)
    if found is None:
        raise ConfigError(f"{where}.{key}: {value!r} is not one of {', '.join(available_languages())}")
    return found


def _channel_languages(section: dict[str, Any], where: str) -> dict[str, str]:
    """``channel_languages = { "#bazaar-de" = "de" }``: each channel's language, checked."""
    table = section.get("channel_languages", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{where}.channel_languages must be a table of channel = language")
    found: dict[str, str] = {}
    for channel, value in table.items():
        if not channel.startswith(("#", "&")):
            raise ConfigError(f"{where}.channel_languages: {channel!r} must start with #")
        if not isinstance(value, str):
            raise ConfigError(f"{where}.channel_languages.{channel} must be a string")
        lang = _language({"language": value}, f"{where}.channel_languages.{channel}")
        assert lang is not None
        found[channel.lower()] = lang
    return found


#: the shortest turn clock a table may set (seconds)
MIN_TURN_SECONDS = 5
#: the longest turn clock (correspondence play: 14 days per decision)
MAX_TURN_SECONDS = 14 * 86400


def _turn_seconds(section: dict[str, Any], where: str, default: int | None) -> int | None:
    """A turn clock setting: seconds (at least ``MIN_TURN_SECONDS``), 0 for no clock, None when unset."""
    value = _take(section, where, "turn_seconds", int, default)
    if value and not MIN_TURN_SECONDS <= value <= MAX_TURN_SECONDS:
        raise ConfigError(
            f"{where}.turn_seconds must be 0 (no clock) or from {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}"
        )
    return value


def _tables(section: dict[str, Any]) -> TableSettings:
    _check_keys(section, "tables", {"turn_seconds", "takeover_level", "abandon_after", "abandon_grace"})
    level = _take(section, "tables", "takeover_level", str, "medium")
    if level not in ("easy", "medium", "hard"):
        raise ConfigError("tables.takeover_level must be easy, medium or hard")
    # ``abandon_grace`` is the old name of the setting; an old config keeps loading
    older = _take(section, "tables", "abandon_grace", float, 7 * 86400.0)
    after = _take(section, "tables", "abandon_after", float, older)
    if after < 0:
        raise ConfigError("tables.abandon_after must not be negative")
    return TableSettings(_turn_seconds(section, "tables", 300) or None, level, after)


def _take(section: dict[str, Any], where: str, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    if key not in section:
        return default
    value = section[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ConfigError(f"{where}.{key} must be a {names}, not {value!r}")
    return value


def _table(section: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    """A sub-table of the config (empty when absent); anything else is a one-line error naming it."""
    value = section.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table ([{where}] with its settings), not {value!r}")
    return value


def _at_least(value: float, where: str, least: float, what: str = "") -> None:
    if value < least:
        raise ConfigError(f"{where} must be {what or f'at least {least:g}'}, not {value!r}")


def _strings(section: dict[str, Any], where: str, key: str) -> tuple[str, ...]:
    value = section.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}.{key} must be a list of strings")
    return tuple(value)


def _trusted_proxies(section: dict[str, Any]) -> tuple[str, ...]:
    entries = _strings(section, "web", "trusted_proxies")
    try:
        parse_networks(entries)
    except ProxyConfigError as error:
        raise ConfigError(f"web.trusted_proxies: {error}") from None
    return entries


def _forwarded_header(section: dict[str, Any]) -> str:
    try:
        return forwarding_header(_take(section, "web", "forwarded_header", str, "X-Forwarded-For"))
    except ProxyConfigError as error:
        raise ConfigError(f"web.forwarded_header {error}") from None


def _base_path(section: dict[str, Any]) -> str:
    try:
        return normalize_base_path(_take(section, "web", "base_path", str, ""))
    except ProxyConfigError as error:
        raise ConfigError(f"web.base_path: {error}") from None


def _check_keys(section: dict[str, Any], where: str, allowed: set[str]) -> None:
    unknown = sorted(set(section) - allowed)
    if unknown:
        raise ConfigError(f"{where}: unknown setting {unknown[0]!r} (known: {', '.join(sorted(allowed))})")


def _admins(section: dict[str, Any], where: str, ops_default: bool) -> AdminPolicy:
    raw = section.get("admins", {})
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}.admins must be a table with accounts, masks, ops_are_admins")
    _check_keys(raw, f"{where}.admins", {"accounts", "masks", "ops_are_admins"})
    return AdminPolicy(
        accounts=tuple(a.lower() for a in _strings(raw, f"{where}.admins", "accounts")),
        masks=_strings(raw, f"{where}.admins", "masks"),
        ops_are_admins=_take(raw, f"{where}.admins", "ops_are_admins", bool, ops_default),
    )


def _ratings(section: Any) -> RatingSettings:
    if not isinstance(section, dict):
        raise ConfigError("ratings must be a table with min_games")
    _check_keys(section, "ratings", {"min_games"})
    min_games = _take(section, "ratings", "min_games", int, 3)
    if min_games < 1:
        raise ConfigError("ratings.min_games must be at least 1")
    return RatingSettings(min_games=min_games)


def _web_limits(section: dict[str, Any]) -> WebLimits:
    raw = section.get("limits", {})
    where = "web.limits"
    if not isinstance(raw, dict):
        raise ConfigError(f"{where} must be a table")
    defaults = WebLimits()
    _check_keys(raw, where, set(WebLimits.__dataclass_fields__))
    values: dict[str, Any] = {}
    for name in WebLimits.__dataclass_fields__:
        default = getattr(defaults, name)
        value = _take(raw, where, name, type(default), default)
        if value <= 0:
            raise ConfigError(f"{where}.{name} must be more than 0")
        values[name] = value
    if values["player_reserve"] >= values["max_connections"]:
        raise ConfigError(f"{where}.player_reserve must be less than max_connections")
    return WebLimits(**values)


_LEVEL_KEYS = {"iterations": int, "time_cap": float, "depth": int, "exploration": float, "mistakes": float}


def _ai(section: Any) -> AiSettings:
    if not isinstance(section, dict):
        raise ConfigError("ai must be a table with workers, move_delay, review_after_game, ponder, levels")
    _check_keys(section, "ai", {"workers", "move_delay", "review_after_game", "ponder", "levels"})
    workers = _take(section, "ai", "workers", int, default_workers())
    if workers < 1:
        raise ConfigError("ai.workers must be at least 1")
    move_delay = _take(section, "ai", "move_delay", float, 1.0)
    if move_delay < 0:
        raise ConfigError("ai.move_delay must be 0 or more seconds")
    review_after_game = _take(section, "ai", "review_after_game", float, AiSettings.review_after_game)
    if review_after_game < 0:
        raise ConfigError("ai.review_after_game must be 0 or more CPU seconds")
    ponder = _take(section, "ai", "ponder", bool, AiSettings.ponder)
    raw_levels = section.get("levels", {})
    if not isinstance(raw_levels, dict):
        raise ConfigError("ai.levels must be a table of easy, medium, hard")
    _check_keys(raw_levels, "ai.levels", set(DEFAULT_LEVELS))
    levels = dict(DEFAULT_LEVELS)
    for name, raw in raw_levels.items():
        where = f"ai.levels.{name}"
        if not isinstance(raw, dict):
            raise ConfigError(f"{where} must be a table with {', '.join(_LEVEL_KEYS)}")
        _check_keys(raw, where, set(_LEVEL_KEYS))
        base = DEFAULT_LEVELS[name]
        values = {key: _take(raw, where, key, kind, getattr(base, key)) for key, kind in _LEVEL_KEYS.items()}
        if values["iterations"] < 0 or values["depth"] < 0:
            raise ConfigError(f"{where}: iterations and depth must be 0 or more")
        if values["time_cap"] <= 0 or values["exploration"] < 0:
            raise ConfigError(f"{where}: time_cap must be above 0 and exploration 0 or more")
        if not 0 <= values["mistakes"] <= 1:
            raise ConfigError(f"{where}.mistakes must be between 0 and 1")
        levels[name] = Level(name, **values)
    return AiSettings(
        workers=workers,
        move_delay=move_delay,
        levels=levels,
        review_after_game=review_after_game,
        ponder=ponder,
    )


_MATRIX_KEYS = {f.name for f in MatrixAccount.__dataclass_fields__.values()}


def _matrix(section: dict[str, Any], bot: BotSettings, taken: set[str]) -> tuple[MatrixAccount, ...]:
    """``[[matrix.accounts]]``: homeserver, user, a password or a token, rooms, admins by user ID."""
    _check_keys(section, "matrix", {"accounts"})
    accounts = []
    listed = section.get("accounts", [])
    if not isinstance(listed, list) or not all(isinstance(a, dict) for a in listed):
        raise ConfigError(f"matrix.accounts must be a list of [[matrix.accounts]] tables, not {listed!r}")
    for i, a in enumerate(listed):
        where = f"matrix.accounts[{i}]"
        _check_keys(a, where, _MATRIX_KEYS)
        _at_least(_take(a, where, "leave_grace", float, 0.0), f"{where}.leave_grace", 0, "0 or more seconds")
        name = _take(a, where, "name", str, "matrix")
        if not name or name in taken:
            raise ConfigError(f"{where}.name {name!r} is used twice (each account needs its own name)")
        taken.add(name)
        for key in ("homeserver", "user_id"):
            if not isinstance(a.get(key), str) or not a[key]:
                raise ConfigError(f"{where}.{key} is required (a string)")
        if not a["homeserver"].startswith(("http://", "https://")):
            raise ConfigError(f"{where}.homeserver must be a URL (https://matrix.example.org)")
        if not (a["user_id"].startswith("@") and ":" in a["user_id"]):
            raise ConfigError(f"{where}.user_id must be a full Matrix ID such as @bazaarbot:example.org")
        password = _take(a, where, "password", str, None)
        token = _take(a, where, "access_token", str, None)
        if not password and not token:
            raise ConfigError(f"{where} needs a password or an access_token")
        rooms = _strings(a, where, "rooms")
        for room in rooms:
            # an alias names its server; a room ID does only up to room version 11 (``!id:server``),
            # later versions' IDs are the create event's hash alone (``!0PsNqDUd...``)
            alias = room.startswith("#") and ":" in room[2:]
            room_id = room.startswith("!") and len(room) > 1 and " " not in room
            if not (alias or room_id):
                raise ConfigError(
                    f"{where}.rooms: {room!r} must be a room alias (#room:server) or ID (!id:server or !id)"
                )
        admins = _strings(a, where, "admins")
        for admin in admins:
            if not (admin.startswith("@") and ":" in admin):
                raise ConfigError(f"{where}.admins: {admin!r} must be a Matrix user ID (@you:example.org)")
        accounts.append(
            MatrixAccount(
                name=name,
                homeserver=a["homeserver"].rstrip("/"),
                user_id=a["user_id"],
                password=password,
                access_token=token,
                device_name=_take(a, where, "device_name", str, "bazaarbot"),
                rooms=rooms,
                auto_join=_take(a, where, "auto_join", bool, True),
                admins=AdminPolicy(accounts=tuple(admin.lower() for admin in admins)),
                leave_grace=_take(a, where, "leave_grace", float, bot.leave_grace),
                turn_seconds=_turn_seconds(a, where, None),
                language=_language(a, where),
                channel_languages=_channel_languages(a, where),
            )
        )
    return tuple(accounts)


_DISCORD_KEYS = {f.name for f in DiscordBot.__dataclass_fields__.values()}


def _shard_range(value: object, where: str) -> tuple[int, ...] | None:
    """``shards = "0-3"`` (or ``"5"``, or ``[0, 2]``): the shard IDs this process serves."""
    if value is None:
        return None
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        found = tuple(sorted(set(value)))
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*(-\s*\d+\s*)?", value):
        low, _, high = value.partition("-")
        first, last = int(low), int(high or low)
        if last < first:
            raise ConfigError(f"{where}.shards: {value!r} runs backwards (write low-high, such as 0-3)")
        found = tuple(range(first, last + 1))
    else:
        raise ConfigError(f'{where}.shards must be a range such as "0-3" or a list of shard IDs')
    if found[0] < 0:
        raise ConfigError(f"{where}.shards: shard IDs start at 0")
    return found


def _discord(section: dict[str, Any], bot: BotSettings, taken: set[str]) -> tuple[DiscordBot, ...]:
    """``[[discord.bots]]``: a bot token, optional addresses of a Discord-compatible server, admins."""
    _check_keys(section, "discord", {"bots"})
    bots = []
    listed = section.get("bots", [])
    if not isinstance(listed, list) or not all(isinstance(b, dict) for b in listed):
        raise ConfigError(f"discord.bots must be a list of [[discord.bots]] tables, not {listed!r}")
    for i, b in enumerate(listed):
        where = f"discord.bots[{i}]"
        _check_keys(b, where, _DISCORD_KEYS)
        name = _take(b, where, "name", str, "discord")
        if not name or name in taken:
            raise ConfigError(f"{where}.name {name!r} is used twice (each network needs its own name)")
        taken.add(name)
        token = _take(b, where, "token", str, "")
        if not token:
            raise ConfigError(f"{where}.token is required (the bot token of the Discord application)")
        api_url = _take(b, where, "api_url", str, DISCORD_API_URL).rstrip("/")
        gateway_url = _take(b, where, "gateway_url", str, DISCORD_GATEWAY_URL)
        if not api_url.startswith(("http://", "https://")):
            raise ConfigError(f"{where}.api_url must be an http(s) URL such as {DISCORD_API_URL}")
        if not gateway_url.startswith(("ws://", "wss://")):
            raise ConfigError(f"{where}.gateway_url must be a ws(s) URL such as {DISCORD_GATEWAY_URL}")
        prefix = _take(b, where, "command_prefix", str, "!")
        if len(prefix) != 1 or prefix.isalnum() or prefix.isspace() or prefix in "/#<@":
            raise ConfigError(f"{where}.command_prefix must be one sign such as ! or . (not / # < @)")
        admins = _strings(b, where, "admins")
        roles = _strings(b, where, "admin_roles")
        for value, what in [(a, "admins") for a in admins] + [(r, "admin_roles") for r in roles]:
            if not value.isdigit():
                raise ConfigError(f"{where}.{what}: {value!r} must be a Discord ID (digits)")
        _at_least(_take(b, where, "leave_grace", float, 0.0), f"{where}.leave_grace", 0, "0 or more seconds")
        shards = _shard_range(b.get("shards"), where)
        count = _take(b, where, "shard_count", int, None)
        if shards is not None and count is None:
            raise ConfigError(f"{where}.shards needs shard_count (how many shards the bot runs in all)")
        if count is not None and (count < 1 or (shards is not None and shards[-1] >= count)):
            raise ConfigError(f"{where}.shard_count must be at least 1 and larger than every shard ID")
        entry = DiscordBot(
            name=name,
            token=token,
            api_url=api_url,
            gateway_url=gateway_url,
            command_prefix=prefix,
            admins=AdminPolicy(accounts=admins, ops_are_admins=True),
            admin_roles=roles,
            leave_grace=_take(b, where, "leave_grace", float, bot.leave_grace),
            turn_seconds=_turn_seconds(b, where, None),
            language=_language(b, where),
            channel_languages=_channel_languages(b, where),
            shards=shards if shards is not None else (tuple(range(count)) if count else None),
            shard_count=count,
        )
        if count is not None:
            for network in entry.networks:
                if network in taken:
                    raise ConfigError(f"{where}: the shard network {network!r} is another network's name")
                taken.add(network)
        bots.append(entry)
    if len({(b.api_url, b.gateway_url) for b in bots}) > 1:
        raise ConfigError("discord.bots: every bot of one process speaks to the same api_url and gateway_url")
    return tuple(bots)


def parse_config(data: dict[str, Any]) -> Config:
    """Validate a parsed TOML document."""
    _check_keys(
        data, "config", {"bot", "web", "irc", "matrix", "discord", "ai", "tables", "ratings", "store"}
    )
    tables = _tables(_table(data, "tables", "tables"))
    b = _table(data, "bot", "bot")
    _check_keys(
        b,
        "bot",
        {
            "nick",
            "db",
            "default_game",
            "language",
            "seed",
            "max_line",
            "leave_grace",
            "rate_limit",
            "snapshot_every",
            "max_tables",
        },
    )
    rl = _table(b, "rate_limit", "bot.rate_limit")
    _check_keys(rl, "bot.rate_limit", {"commands", "per_seconds"})
    rate = RateLimit(
        commands=_take(rl, "bot.rate_limit", "commands", int, 8),
        per_seconds=_take(rl, "bot.rate_limit", "per_seconds", float, 10.0),
    )
    if rate.commands < 1 or rate.per_seconds <= 0:
        raise ConfigError("bot.rate_limit needs commands >= 1 and per_seconds > 0")
    bot = BotSettings(
        nick=_take(b, "bot", "nick", str, "bazaarbot"),
        db=_take(b, "bot", "db", str, "bazaarbot.sqlite"),
        default_game=_take(b, "bot", "default_game", str, "jaipur"),
        language=_language(b, "bot") or "en",
        seed=_take(b, "bot", "seed", int, None),
        max_line=_take(b, "bot", "max_line", int, 400),
        leave_grace=_take(b, "bot", "leave_grace", float, 60.0),
        rate_limit=rate,
        ratings=_ratings(_table(data, "ratings", "ratings")),
        snapshot_every=_take(b, "bot", "snapshot_every", int, 50),
        max_tables=_take(b, "bot", "max_tables", int, 10),
    )
    if bot.snapshot_every < 0:
        raise ConfigError("bot.snapshot_every must be 0 (only at shutdown) or a number of moves")
    if bot.max_tables < 1:
        raise ConfigError("bot.max_tables must be at least 1")
    _at_least(bot.max_line, "bot.max_line", 1, "at least 1 (characters a line may have)")
    _at_least(bot.leave_grace, "bot.leave_grace", 0, "0 or more seconds")
    w = _table(data, "web", "web")
    _check_keys(
        w,
        "web",
        {
            "enabled",
            "host",
            "port",
            "network",
            "max_message",
            "admins",
            "limits",
            "turn_seconds",
            "language",
            "channel_languages",
            "trusted_proxies",
            "forwarded_header",
            "base_path",
            "metrics",
            "compress",
        },
    )
    web = WebSettings(
        enabled=_take(w, "web", "enabled", bool, True),
        host=_take(w, "web", "host", str, "127.0.0.1"),
        port=_take(w, "web", "port", int, 8080),
        network=_take(w, "web", "network", str, "web"),
        max_message=_take(w, "web", "max_message", int, 400),
        admins=_admins(w, "web", False),
        limits=_web_limits(w),
        turn_seconds=_turn_seconds(w, "web", None),
        language=_language(w, "web"),
        channel_languages=_channel_languages(w, "web"),
        trusted_proxies=_trusted_proxies(w),
        forwarded_header=_forwarded_header(w),
        base_path=_base_path(w),
        metrics=_take(w, "web", "metrics", str, "loopback"),
        compress=_take(w, "web", "compress", bool, False),
    )
    if web.metrics not in METRICS_ACCESS:
        raise ConfigError(f"web.metrics must be one of {', '.join(METRICS_ACCESS)}, not {web.metrics!r}")
    if not 0 <= web.port <= 65535:
        raise ConfigError("web.port must be between 0 and 65535")
    _at_least(web.max_message, "web.max_message", 1, "at least 1 (characters a line may have)")
    irc_section = _table(data, "irc", "irc")
    _check_keys(irc_section, "irc", {"networks"})
    networks = []
    seen: set[str] = set()
    listed = irc_section.get("networks", [])
    if not isinstance(listed, list) or not all(isinstance(n, dict) for n in listed):
        raise ConfigError(f"irc.networks must be a list of [[irc.networks]] tables, not {listed!r}")
    for i, n in enumerate(listed):
        where = f"irc.networks[{i}]"
        _check_keys(n, where, {f.name for f in IrcNetwork.__dataclass_fields__.values()})
        for key in ("name", "host"):
            if not isinstance(n.get(key), str) or not n[key]:
                raise ConfigError(f"{where}.{key} is required (a string)")
        if n["name"] in seen or n["name"] == web.network:
            raise ConfigError(f"{where}.name {n['name']!r} is used twice")
        seen.add(n["name"])
        channels = _strings(n, where, "channels")
        for channel in channels:
            if not channel.startswith(("#", "&")):
                raise ConfigError(f"{where}.channels: {channel!r} must start with #")
        if _take(n, where, "burst", int, 4) < 1 or _take(n, where, "lines_per_second", float, 1.0) <= 0:
            raise ConfigError(f"{where} needs burst >= 1 and lines_per_second > 0")
        if _take(n, where, "page_lines", int, 6) < 1:
            raise ConfigError(f"{where}.page_lines must be at least 1")
        if not 1 <= _take(n, where, "port", int, 6697) <= 65535:
            raise ConfigError(f"{where}.port must be between 1 and 65535, not {n['port']!r}")
        _at_least(_take(n, where, "leave_grace", float, 0.0), f"{where}.leave_grace", 0, "0 or more seconds")
        prefix = _take(n, where, "command_prefix", str, "!")
        if len(prefix) != 1 or prefix.isalnum() or prefix.isspace() or prefix in "/#&:,\"'":
            raise ConfigError(f"{where}.command_prefix must be one sign such as ! or . (not / # & : ,)")
        networks.append(
            IrcNetwork(
                name=n["name"],
                host=n["host"],
                port=_take(n, where, "port", int, 6697),
                tls=_take(n, where, "tls", bool, True),
                tls_verify=_take(n, where, "tls_verify", bool, True),
                nick=_take(n, where, "nick", str, bot.nick),
                alt_nicks=_strings(n, where, "alt_nicks"),
                username=_take(n, where, "username", str, "bazaarbot"),
                realname=_take(n, where, "realname", str, "bazaarbot - chat board games (a bot)"),
                password=_take(n, where, "password", str, None),
                sasl_account=_take(n, where, "sasl_account", str, None),
                sasl_password=_take(n, where, "sasl_password", str, None),
                nickserv_password=_take(n, where, "nickserv_password", str, None),
                channels=channels,
                admins=_admins(n, where, False),
                leave_grace=_take(n, where, "leave_grace", float, bot.leave_grace),
                burst=_take(n, where, "burst", int, 4),
                lines_per_second=_take(n, where, "lines_per_second", float, 1.0),
                page_lines=_take(n, where, "page_lines", int, 6),
                command_prefix=prefix,
                turn_seconds=_turn_seconds(n, where, None),
                language=_language(n, where),
                channel_languages=_channel_languages(n, where),
                accept_invites=_take(n, where, "accept_invites", bool, False),
            )
        )
    matrix = _matrix(_table(data, "matrix", "matrix"), bot, {web.network, *seen})
    discord = _discord(
        _table(data, "discord", "discord"), bot, {web.network, *seen, *(m.name for m in matrix)}
    )
    return Config(
        bot=bot,
        store=_store(_table(data, "store", "store")),
        web=web,
        irc=tuple(networks),
        matrix=matrix,
        discord=discord,
        ai=_ai(data.get("ai", {})),
        tables=tables,
    )


def _store(section: dict[str, Any]) -> StoreSettings:
    """``[store]``: a PostgreSQL URL (or nothing: the sqlite file) and the lease of a process's networks."""
    _check_keys(section, "store", {"url", "lease_seconds"})
    url = _take(section, "store", "url", str, "")
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"store.url must be a postgresql:// URL (the sqlite file is [bot] db), not {url!r}")
    lease = _take(section, "store", "lease_seconds", float, 2.0)
    if not 0.5 <= lease <= 60:
        raise ConfigError("store.lease_seconds must be between 0.5 and 60")
    return StoreSettings(url=url, lease_seconds=lease)


def load_config(path: str | Path | None) -> Config:
    """Read a TOML file; no path means every default (web chat on localhost, sqlite file)."""
    if path is None:
        return Config()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"config file {path} not found") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {path}: {error}") from None
    config = parse_config(data)
    remember(secrets_of(config))  # never in a log line, whatever a library logs
    return config


#: the names of the settings that hold a secret
SECRET_FIELDS = frozenset(
    {"password", "access_token", "token", "sasl_password", "nickserv_password", "client_secret"}
)


def secrets_of(value: object) -> list[str]:
    """Every secret a config holds (passwords, tokens), found by its field's name, at any depth."""
    found: list[str] = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            inner = getattr(value, item.name)
            if item.name in SECRET_FIELDS and isinstance(inner, str):
                found.append(inner)
            else:
                found += secrets_of(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            found += secrets_of(inner)
    elif isinstance(value, dict):
        for inner in value.values():
            found += secrets_of(inner)
    return found
