"""Every declared command as a Discord slash command, built from the declarations in ``commands/``.

A command's arguments, as its declaration writes them (``<game> [option=value
...]``), become one text option, required when they start with ``<``, offered
as choices when they are one set of plain words (``[easy|medium|hard]``).
German and Spanish names and descriptions come from the same declarations and
catalogues as ``/help``. ``/play`` plays a move typed as text. An invocation
is turned back into the line a person would have typed (``!new jaipur``), so a
slash command and a typed one take the same path through the hub.
"""

from __future__ import annotations

import re
from typing import Any

from bazaarbot.commands.local_names import LOCAL_NAMES
from bazaarbot.commands.registry import REGISTRY, CommandSpec
from bazaarbot.i18n import N_, _, language

#: the slash command that plays a move typed as text
PLAY = "play"
#: the option every command with arguments takes
TEXT_OPTION = "text"
#: Discord's locales for each language the bot speaks (Spanish has two)
LOCALES: dict[str, tuple[str, ...]] = {"de": ("de",), "es": ("es-ES", "es-419")}
#: Discord's longest command description
DESCRIPTION_LIMIT = 100
#: Discord's option types (a string)
STRING = 3
CHAT_INPUT = 1
_CHOICES = re.compile(r"^[\[<]([a-z]+(?:\|[a-z]+)*)[\]>]$")
PLAY_SUMMARY = N_("play a move, typed as in the channel (take 2 spice)")
PLAY_OPTION = N_("the move, e.g. take 2 spice")


def _short(text: str) -> str:
    text = str(text)
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "\u2026"


def _described(english: str) -> tuple[str, dict[str, str]]:
    """A description in English and its German and Spanish translations, each at most 100 characters."""
    found: dict[str, str] = {}
    for lang, locales in LOCALES.items():
        with language(lang):
            local = _short(_(english))
        for locale in locales:
            found[locale] = local
    with language("en"):
        return _short(_(english)), found


def _local_names(name: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for lang, locales in LOCALES.items():
        local = LOCAL_NAMES.get(lang, {}).get(name)
        if local and local != name:
            for locale in locales:
                found[locale] = local
    return found


def command_payload(spec: CommandSpec) -> dict[str, Any]:
    """One declared command as Discord's application command JSON."""
    description, localized = _described(spec.summary)
    payload: dict[str, Any] = {
        "type": CHAT_INPUT,
        "name": spec.name,
        "description": description,
        "description_localizations": localized,
        "name_localizations": _local_names(spec.name),
        "dm_permission": True,
    }
    if spec.args:
        option: dict[str, Any] = {
            "type": STRING,
            "name": TEXT_OPTION,
            "description": _short(spec.args),
            "required": spec.args.startswith("<"),
        }
        choices = _CHOICES.match(spec.args)
        if choices:
            option["choices"] = [{"name": word, "value": word} for word in choices.group(1).split("|")]
        payload["options"] = [option]
    return payload


def play_payload() -> dict[str, Any]:
    description, localized = _described(PLAY_SUMMARY)
    option_description, _localized = _described(PLAY_OPTION)
    return {
        "type": CHAT_INPUT,
        "name": PLAY,
        "description": description,
        "description_localizations": localized,
        "name_localizations": {"de": "zug", "es-ES": "jugar", "es-419": "jugar"},
        "dm_permission": True,
        "options": [
            {
                "type": STRING,
                "name": "move",
                "description": option_description,
                "required": True,
            }
        ],
    }


def all_payloads() -> list[dict[str, Any]]:
    """The bot's whole set of slash commands, in the declarations' order, ``/play`` last."""
    return [*(command_payload(spec) for spec in REGISTRY), play_payload()]


def typed_line(data: dict[str, Any], prefix: str = "!") -> str | None:
    """The line a person would have typed for a slash command's invocation (None: not ours)."""
    name = str(data.get("name") or "")
    values = [
        str(option.get("value", "")).strip()
        for option in data.get("options") or ()
        if isinstance(option, dict) and option.get("type") == STRING
    ]
    text = " ".join(value for value in values if value)
    if name == PLAY:
        return text or None
    if name not in REGISTRY:
        return None
    return f"{prefix}{name} {text}".rstrip()
