"""``/lang``: the language a person reads privately, and the language a channel speaks."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.local_names import local_name
from bazaarbot.commands.registry import command
from bazaarbot.i18n import N_, _, available_languages, current_language, language, normalize_language
from bazaarbot.messages import Outgoing

#: each language by its own name (what a speaker of it looks for)
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "es": "español"}

#: ``/lang default``: forget the choice and hear the channel's language again
DEFAULT_WORDS = frozenset({"default", "auto", "standard", "predeterminado"})


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


def _choices() -> str:
    return ", ".join(f"{code} ({language_name(code)})" for code in available_languages())


@command(
    "lang",
    N_("the language I speak to you, or in this channel (host)"),
    args=N_("[de|es|en] | channel <de|es|en>"),
    aliases=("sprache", "idioma", "language"),
    table=False,
    details=N_(
        "/lang de sets the language of your private lines (hand, moves, refusals); /lang default "
        "goes back to the channel's. /lang channel es sets the channel's language, for the table's "
        "host or an admin."
    ),
)
def lang(ctx: Context) -> list[Outgoing]:
    words = [w.lower() for w in ctx.args]
    if not words:
        return [_current(ctx)]
    if words[0] == "channel":
        return _set_channel(ctx, words[1:])
    if len(words) != 1:
        return [ctx.tell(_("Use /lang de, /lang es or /lang en; /lang alone shows your choice."))]
    if words[0] in DEFAULT_WORDS:
        ctx.host.set_pref(ctx.network, ctx.user.key, "lang", "")
        return [ctx.tell(_("I speak the channel's language to you again."))]
    chosen = normalize_language(words[0])
    if chosen is None:
        return [
            ctx.tell(
                _("I do not speak {word!r}. I speak: {choices}.").format(
                    word=ctx.args[0][:20], choices=_choices()
                )
            )
        ]
    ctx.host.set_pref(ctx.network, ctx.user.key, "lang", chosen)
    with language(chosen):
        return [ctx.tell(_("I speak {language} to you now.").format(language=language_name(chosen)))]


def _current(ctx: Context) -> Outgoing:
    mine = ctx.host.person_language(ctx.network, ctx.user.key)
    here = current_language()
    if mine:
        line = _("You chose {language}; this room speaks {room}. I speak: {choices}.")
    else:
        line = _("You hear the room's language, {room}. I speak: {choices}.")
    return ctx.tell(
        line.format(language=language_name(mine or here), room=language_name(here), choices=_choices())
        + " "
        + _("/lang de|es|en chooses yours.")
    )


def _set_channel(ctx: Context, words: list[str]) -> list[Outgoing]:
    if ctx.channel is None:
        return [ctx.tell(_("Say /lang channel <language> in the channel it is for."))]
    if len(words) != 1:
        return [ctx.tell(_("Use /lang channel de, /lang channel es or /lang channel en."))]
    chosen = normalize_language(words[0])
    if chosen is None:
        return [
            ctx.tell(
                _("I do not speak {word!r}. I speak: {choices}.").format(
                    word=words[0][:20], choices=_choices()
                )
            )
        ]
    table = ctx.host.table(ctx.network, ctx.channel)
    if not ctx.actor.is_admin and ctx.user.key != table.host:
        return [
            ctx.tell(
                _("Only the host ({host}) or an admin can use /{name}.").format(
                    host=table.host_nick(), name=local_name("lang") + " channel"
                )
            )
        ]
    table.save_setting("lang", chosen)
    with language(chosen):
        return [table.say(_("This channel speaks {language} now.").format(language=language_name(chosen)))]
