"""Stage 3: a read line to its command handler or to the table, with the permission checks on the way.

There is no branch per command here: a command's declaration (``commands/``)
says where it may be said, by whom, and whether it acts on one table.
"""

from __future__ import annotations

from typing import Protocol

from bazaarbot.commands import REGISTRY, Command, CommandHost, Context, Where
from bazaarbot.commands.local_names import name_phrase
from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing, Tell, User
from bazaarbot.metrics import Metrics
from bazaarbot.pipeline.permission import paused_refusal, refusal
from bazaarbot.pipeline.private_target import private_target
from bazaarbot.pipeline.reading import Line, typo_hint
from bazaarbot.table import Actor, Table
from bazaarbot.text.commandmark import command as named


class DispatchHost(CommandHost, Protocol):
    """What dispatch needs of the hub besides the services it hands to command handlers."""

    tables: dict[tuple[str, str], Table]
    metrics: Metrics

    def use(self, table: Table) -> Table:
        """Note that the line uses ``table``."""

    def actor(self, network: str, user: User) -> Actor:
        """The speaker with their admin rights on ``network``."""

    def only_table(self, network: str, channel: str | None, key: str) -> Table | None:
        """The channel's table, or for a private line the one table ``key`` sits at."""


def _target(
    host: DispatchHost, line: Line, text: str, command: str = ""
) -> tuple[Table | list[Outgoing], str]:
    return private_target(host.tables, host.seated_tables, host.use, line.network, line.user, text, command)


def move(host: DispatchHost, line: Line) -> list[Outgoing]:
    """A move: to the channel's table, or privately to the speaker's (words it does not know answered)."""
    network, user = line.network, line.user
    actor = host.actor(network, user)
    if line.channel is not None:
        table = host.tables[(network, line.channel.lower())]
        paused = paused_refusal(host.store, table, actor, None)
        if paused is not None:
            host.metrics.refused("paused")
            return paused
        return _played(host, table, actor, line.text)
    target, rest = _target(host, line, line.text)
    if isinstance(target, list):
        host.metrics.refused("no_table")
        return target
    paused = paused_refusal(host.store, target, actor, None)
    if paused is not None:
        host.metrics.refused("paused")
        return paused
    if not target.running or target.game_seat_of(user.key) is None:
        host.metrics.refused("not_playing")
        return [Tell(network, user.nick, _("You are not in a running game. /help lists what I understand."))]
    if not target.plugin.is_move(rest):
        host.metrics.refused("unknown_move")
        hint = typo_hint(network, target, user, rest)
        if hint:
            return hint
        return [
            Tell(
                network,
                user.nick,
                _("I did not understand {text!r}. /moves lists your moves, /help the commands.").format(
                    text=rest[:60]
                ),
            )
        ]
    return _played(host, target, actor, rest)


def _played(host: DispatchHost, table: Table, actor: Actor, text: str) -> list[Outgoing]:
    """The table's answer to a move; one the game refused is counted by the metrics."""
    before = (table.game_id, table.moves_made)
    answer = table.move(actor, text)
    if (table.game_id, table.moves_made) == before:
        host.metrics.refused("move_refused")
    return answer


def command(host: DispatchHost, line: Line, said: Command) -> list[Outgoing]:
    """A command: its declaration, the table it acts on, the permission check, then its handler."""
    network, channel, user = line.network, line.channel, line.user
    spec = REGISTRY.lookup(said.name) if said.known else None
    if spec is None:
        return unknown_command(host, line, said)
    args = said.args
    if spec.where is Where.CHANNEL and channel is None:
        return [
            Tell(
                network,
                user.nick,
                _("Say /{name} in the channel of the table you want.").format(name=spec.name),
            )
        ]
    if spec.where is Where.PRIVATE and channel is not None:
        return [Tell(network, user.nick, _("Say /{name} privately to me.").format(name=spec.name))]
    table: Table | None = None
    if spec.table:
        if channel is None:
            target, rest = _target(host, line, " ".join(args), named(spec.name))
            if isinstance(target, list):
                return target
            table = target
            args = tuple(rest.split()) if args and args[0].startswith(("#", "&")) else args
        else:
            table = host.table(network, channel)
    actor = host.actor(network, user)
    if table is not None:
        paused = paused_refusal(host.store, table, actor, spec)
        if paused is not None:
            host.metrics.refused("paused")
            return paused
    why = refusal(spec, table, actor)
    if why is not None:
        host.metrics.refused("permission")
        return [Tell(network, user.nick, why)]
    return spec.handler(Context(host, network, channel, actor, args, table))


def unknown_command(host: DispatchHost, line: Line, said: Command) -> list[Outgoing]:
    """A word after the prefix that is no command: a move said with a prefix, or a typo."""
    network, user, text = line.network, line.user, line.text
    table = host.only_table(network, line.channel, user.key)
    body = text.split(None, 1)[1] if text[:1] not in "/!" and " " in text else text[1:]
    if table and table.running and table.game_seat_of(user.key) is not None and table.plugin.is_move(body):
        return _played(host, host.use(table), host.actor(network, user), body)
    host.metrics.refused("unknown_command")
    near = REGISTRY.nearest(said.name)
    suggestion = _(" Did you mean /{near}?").format(near=name_phrase(near)) if near else None
    hint = suggestion or _(" /help lists the commands.")
    return [
        Tell(network, user.nick, _("I do not know the command {word!r}.").format(word=said.name[:30]) + hint)
    ]
