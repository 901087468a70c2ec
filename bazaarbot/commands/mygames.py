"""``/tables`` (``/mygames``): the tables where you sit on this network, your move first."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import command
from bazaarbot.i18n import N_
from bazaarbot.messages import Outgoing
from bazaarbot.people.mygames import entries, listing


@command(
    "tables",
    N_("the tables where you sit on this network: game, room, whose turn, time left, paused"),
    aliases=("mygames",),
    table=False,
)
def tables(ctx: Context) -> list[Outgoing]:
    found = ctx.host.tables_of_person(ctx.network, ctx.user.key)
    now = found[0].wall_clock() if found else 0.0
    return [ctx.tell(line, listing=True) for line in listing(entries(found, ctx.user.key, now))]
