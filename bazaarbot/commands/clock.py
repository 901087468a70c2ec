"""The turn clock of a table: how long each decision may take before the AI plays it."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import Who, command
from bazaarbot.i18n import N_
from bazaarbot.messages import Outgoing


@command(
    "clock",
    N_("the time per decision before the AI plays it"),
    args=N_("[90s|5m|off]"),
    aliases=("timer", "uhr", "reloj"),
    who=Who.HOST,
    details=N_(
        "At half time and with 30s left the player is reminded; three timeouts in a row and the AI "
        "plays the seat until its player is back."
    ),
)
def clock(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().set_clock(ctx.actor, ctx.args)
