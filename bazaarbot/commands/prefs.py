"""A person's and a table's settings: private lines as NOTICE, calls when a table opens, colour hints."""

from __future__ import annotations

from collections.abc import Callable

from bazaarbot.commands.context import Context
from bazaarbot.commands.local_names import local_name
from bazaarbot.commands.registry import command
from bazaarbot.i18n import N_, _
from bazaarbot.messages import Outgoing
from bazaarbot.people.openings import NOTIFY


@command(
    "notice",
    N_("get private lines as NOTICE instead of private messages (IRC)"),
    args=N_("[on|off]"),
    aliases=("hinweis", "aviso"),
    table=False,
)
def notice(ctx: Context) -> list[Outgoing]:
    changes = _("/notice on or /notice off changes it.")
    usage = _("Use /notice on or /notice off; /notice alone says your setting.")
    return _own_switch(ctx, "notice", _notice_sentence, changes, usage)


def _own_switch(
    ctx: Context, pref: str, sentence: Callable[[bool], str], changes: str, usage: str
) -> list[Outgoing]:
    """A person's own on/off preference: said when no word follows, set by on or off in any language."""
    if not ctx.args:
        current = ctx.host.prefs.get((ctx.network, ctx.user.key, pref)) == "on"
        return [ctx.tell(sentence(current) + " " + changes)]
    wanted = NOTICE_WORDS.get(ctx.args[0].lower())
    if wanted is None:
        return [ctx.tell(usage)]
    ctx.host.set_pref(ctx.network, ctx.user.key, pref, "on" if wanted else "off")
    return [ctx.tell(sentence(wanted))]


#: what ``/notice`` reads as on and off, in each language
NOTICE_WORDS = {"on": True, "off": False, "an": True, "aus": False, "sí": True, "si": True, "no": False}


def _notice_sentence(on: bool) -> str:
    if on:
        return _("Your private lines come as NOTICE now.")
    return _("Your private lines come as private messages.")


@command(
    "notify",
    N_("be called when somebody opens a table in a room you are in"),
    args=N_("[on|off]"),
    aliases=("benachrichtigen", "notificar"),
    table=False,
    details=N_(
        "Your own setting on this network, kept across restarts. When somebody opens a table with /new, "
        "the people of the list who are in that room are named in one line (a highlight, a mention, the "
        "page's notification); a room is called at most once in ten minutes, and so are you."
    ),
)
def notify(ctx: Context) -> list[Outgoing]:
    changes = _("/notify on or /notify off changes it.")
    usage = _("Use /notify on or /notify off; /notify alone says your setting.")
    return _own_switch(ctx, NOTIFY, _notify_sentence, changes, usage)


def _notify_sentence(on: bool) -> str:
    if on:
        return _("You are called when somebody opens a table in a room you are in.")
    return _("You are not called when a table opens.")


#: the preference that colours a person's private lines (``"on"``)
COLORS = "colors"


@command(
    "colors",
    N_("colours for you, or in this channel (host) (IRC)"),
    args=N_("[on|off] | channel on|off"),
    aliases=("colours", "color", "colour", "farben", "colores"),
    table=False,
    details=N_(
        "/colors on colours the lines I send you privately; /colors channel on colours this channel's "
        "lines, for the table's host or an admin. Each player's name has their seat's colour, the same "
        "on the board and in the moves; the goods have theirs."
    ),
)
def colors(ctx: Context) -> list[Outgoing]:
    words = [w.lower() for w in ctx.args]
    mine = ctx.host.prefs.get((ctx.network, ctx.user.key, COLORS)) == "on"
    if not words:
        line = _colors_sentence(mine)
        table = ctx.host.table_at(ctx.network, ctx.channel) if ctx.channel is not None else None
        if table is not None:
            line += " " + _channel_colors_sentence(table.colors)
        return [ctx.tell(line + " " + _("/colors on or /colors off changes yours."))]
    if words[0] == "channel":
        return _set_channel_colors(ctx, words[1:])
    if len(words) != 1 or words[0] not in NOTICE_WORDS:
        return [ctx.tell(_("Use /colors on or /colors off, or /colors channel on|off (host)."))]
    wanted = NOTICE_WORDS[words[0]]
    ctx.host.set_pref(ctx.network, ctx.user.key, COLORS, "on" if wanted else "off")
    return [ctx.tell(_colors_sentence(wanted))]


def _colors_sentence(on: bool) -> str:
    if on:
        return _("The lines I send you privately are coloured.")
    return _("The lines I send you privately are plain.")


def _channel_colors_sentence(on: bool) -> str:
    if on:
        return _("This channel's lines are coloured.")
    return _("This channel's lines are plain.")


def _set_channel_colors(ctx: Context, words: list[str]) -> list[Outgoing]:
    if ctx.channel is None:
        return [ctx.tell(_("Say /colors channel on|off in the channel it is for."))]
    if len(words) != 1 or words[0] not in NOTICE_WORDS:
        return [ctx.tell(_("Use /colors channel on or /colors channel off."))]
    table = ctx.host.table(ctx.network, ctx.channel)
    if table.host and not ctx.actor.is_admin and ctx.user.key != table.host:
        return [
            ctx.tell(
                _("Only the host ({host}) or an admin can use /{name}.").format(
                    host=table.host_nick(), name=local_name("colors") + " channel"
                )
            )
        ]
    table.colors = NOTICE_WORDS[words[0]]
    table.save_lobby()
    return [table.say(_channel_colors_sentence(table.colors))]
