"""Lobby commands: choose a game, sit down, get up, start, remove a player, reset."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import Where, Who, command
from bazaarbot.i18n import N_
from bazaarbot.messages import Outgoing


@command(
    "new",
    N_("choose the game for this table (and sit down)"),
    args=N_("<game> [option=value ...]"),
    aliases=("game", "neu", "nuevo"),
    where=Where.CHANNEL,
    details=N_(
        "Before the first seat is taken anyone may choose; after that the host. /rules <game> lists "
        "a game's options."
    ),
)
def new(ctx: Context) -> list[Outgoing]:
    table = ctx.the_table()
    refusal = ctx.host.seat_limit_refusal(ctx.network, ctx.user, table)
    if refusal is not None:
        return [refusal]
    opening = not table.seats and not table.running
    out = table.new(ctx.actor, ctx.args)
    if opening and table.seats and ctx.channel is not None:  # the table opened: its /notify list is called
        out += ctx.host.opening_call(ctx.network, ctx.channel, ctx.user, table.plugin.title)
    return out


@command(
    "join",
    N_("sit down at this table"),
    args=N_("[seat]"),
    aliases=("sit", "mitspielen", "beitreten", "unirse"),
    where=Where.CHANNEL,
    details=N_("The first to sit is the host."),
)
def join(ctx: Context) -> list[Outgoing]:
    refusal = ctx.host.seat_limit_refusal(ctx.network, ctx.user, ctx.the_table())
    return [refusal] if refusal is not None else ctx.the_table().join(ctx.actor, ctx.args)


@command(
    "claim",
    N_("take your seat back from a new address"),
    args=N_("<code>"),
    aliases=("einlösen", "einloesen", "reclamar"),
    table=False,
    details=N_(
        "A seat taken without a services account belongs to your nick and address; the code I told "
        "you privately at /join moves it to your new address. Each code works once (best said privately)."
    ),
)
def claim(ctx: Context) -> list[Outgoing]:
    return ctx.host.claim_seat(ctx.network, ctx.user, ctx.args, public=ctx.channel is not None)


@command(
    "leave", N_("get up (ends a running game you play in)"), aliases=("part", "quit", "verlassen", "salir")
)
def leave(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().leave(ctx.actor)


@command(
    "start",
    N_("start the game with everybody seated (host)"),
    aliases=("starten", "empezar"),
    who=Who.HOST,
)
def start(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().start(ctx.actor)


@command(
    "kick",
    N_("remove a player (host or admin)"),
    aliases=("rauswerfen", "expulsar"),
    args=N_("<nick>"),
    who=Who.HOST,
)
def kick(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().kick(ctx.actor, ctx.args)


@command(
    "reset",
    N_("end the game here; seats stay (clear: empty them too)"),
    args=N_("[clear]"),
    aliases=("zurücksetzen", "zuruecksetzen", "reiniciar"),
    details=N_(
        "Before the start the host resets alone; during a game an admin at once, or the players by "
        "agreement: it happens when every other person in the game also says /reset within 2 minutes."
    ),
)
def reset(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().reset(ctx.actor, ctx.args)


@command(
    "addbot",
    N_("add an AI player to this table"),
    args=N_("[easy|medium|hard]"),
    aliases=("ai", "bot", "ki", "ia"),
    where=Where.CHANNEL,
    details=N_("/kick removes it before the start. A game needs at least one person."),
)
def addbot(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().addbot(ctx.actor, ctx.args)


@command(
    "back",
    N_("play your seat again after the AI stood in for you"),
    aliases=("zurück", "zurueck", "volver"),
    who=Who.SEATED,
    details=N_("Saying anything at the table, or playing a move, brings you back too."),
)
def back(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().back(ctx.actor)


@command(
    "undo",
    N_("take back your own last step of this turn"),
    aliases=("rückgängig", "rueckgaengig", "deshacer"),
    who=Who.SEATED,
    details=N_(
        "Only while it is still your turn, and only a step that revealed nothing (no card drawn, "
        "no die rolled). The undo is recorded with the game."
    ),
)
def undo(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().undo(ctx.actor)
