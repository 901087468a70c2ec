"""A person's and a table's settings: private lines as NOTICE, colour hints."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import command
from bazaarbot.i18n import N_, _
from bazaarbot.messages import Outgoing


@command(
    "notice",
    N_("get private lines as NOTICE instead of private messages (IRC)"),
    args=N_("on|off"),
    table=False,
)
def notice(ctx: Context) -> list[Outgoing]:
    if not ctx.args or ctx.args[0].lower() not in ("on", "off"):
        return [ctx.tell(_("Use /{name} on or /{name} off.").format(name="notice"))]
    value = ctx.args[0].lower()
    ctx.host.set_pref(ctx.network, ctx.user.key, "notice", value)
    return [ctx.tell(_("{name} is now {value} for you.").format(name="notice", value=value))]


@command(
    "colors",
    N_("colour hints in this channel (IRC)"),
    args=N_("on|off"),
    aliases=("colours", "color", "colour", "farben", "colores"),
)
def colors(ctx: Context) -> list[Outgoing]:
    table = ctx.the_table()
    if not ctx.args or ctx.args[0].lower() not in ("on", "off"):
        return [ctx.tell(_("Use /colors on or /colors off."))]
    table.colors = ctx.args[0].lower() == "on"
    table.save_lobby()
    return [
        table.say(
            _("Colour hints are {state} at this table.").format(state=_("on") if table.colors else _("off"))
        )
    ]
