"""A person's and a table's settings: private lines as NOTICE, colour hints."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import command
from bazaarbot.i18n import N_, _
from bazaarbot.messages import Outgoing


@command(
    "notice",
    N_("get private lines as NOTICE instead of private messages (IRC)"),
    args=N_("[on|off]"),
    aliases=("hinweis", "aviso"),
    table=False,
)
def notice(ctx: Context) -> list[Outgoing]:
    current = ctx.host.prefs.get((ctx.network, ctx.user.key, "notice")) == "on"
    if not ctx.args:
        return [ctx.tell(_notice_sentence(current) + " " + _("/notice on or /notice off changes it."))]
    word = ctx.args[0].lower()
    if word not in NOTICE_WORDS:
        return [ctx.tell(_("Use /notice on or /notice off; /notice alone says your setting."))]
    wanted = NOTICE_WORDS[word]
    ctx.host.set_pref(ctx.network, ctx.user.key, "notice", "on" if wanted else "off")
    return [ctx.tell(_notice_sentence(wanted))]


#: what ``/notice`` reads as on and off, in each language
NOTICE_WORDS = {"on": True, "off": False, "an": True, "aus": False, "sí": True, "si": True, "no": False}


def _notice_sentence(on: bool) -> str:
    if on:
        return _("Your private lines come as NOTICE now.")
    return _("Your private lines come as private messages.")


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
