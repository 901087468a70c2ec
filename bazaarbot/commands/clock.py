"""The turn clock of a table: how long each decision may take before the AI plays it."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import Who, command
from bazaarbot.i18n import N_
from bazaarbot.messages import Outgoing


@command(
    "clock",
    N_("the time per decision before the AI plays it"),
    args=N_("[90s|5m|2h|1d|off]"),
    aliases=("timer",),
    who=Who.ANYONE,
    details=N_(
        "Without an argument it says the current setting; the host or an admin sets it, up to 14 days "
        "(1d is correspondence play: a player who disconnects keeps their seat and is told on return). "
        "At half time and with 30s left the player is reminded; the first timeout of a player who has "
        "not moved yet only reminds them; three timeouts in a row and the AI plays the seat until its "
        "player is back."
    ),
)
def clock(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().set_clock(ctx.actor, ctx.args)
