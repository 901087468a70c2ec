"""Every declared command is a slash command, within Discord's rules, and turns back into a typed line."""

from __future__ import annotations

import re

from bazaarbot.commands.registry import REGISTRY
from bazaarbot.transports.discord import slash

#: Discord's rule for a command's and an option's name
NAME = re.compile(r"^[-_\w]{1,32}$")


def test_every_declared_command_and_play_are_slash_commands() -> None:
    names = [payload["name"] for payload in slash.all_payloads()]
    assert names == [spec.name for spec in REGISTRY] + ["play"]
    assert len(names) == len(set(names)) <= 100, "Discord takes at most 100 commands"


def test_names_and_descriptions_keep_discords_limits_in_every_language() -> None:
    for payload in slash.all_payloads():
        assert NAME.match(payload["name"]) and payload["name"] == payload["name"].lower()
        for local in payload["name_localizations"].values():
            assert NAME.match(local) and local == local.lower(), local
        texts = [payload["description"], *payload["description_localizations"].values()]
        texts += [option["description"] for option in payload.get("options", ())]
        assert all(0 < len(text) <= slash.DESCRIPTION_LIMIT for text in texts), payload["name"]


def test_german_and_spanish_clients_read_their_own_descriptions() -> None:
    join = next(p for p in slash.all_payloads() if p["name"] == "join")
    localized = join["description_localizations"]
    assert set(localized) == {"de", "es-ES", "es-419"}
    assert localized["de"] != join["description"] and localized["es-ES"] != join["description"]


def test_a_word_choice_is_offered_as_choices_and_a_required_argument_is_required() -> None:
    payloads = {p["name"]: p for p in slash.all_payloads()}
    addbot = payloads["addbot"]["options"][0]
    assert [c["value"] for c in addbot["choices"]] == ["easy", "medium", "hard"] and not addbot["required"]
    assert payloads["new"]["options"][0]["required"]


def test_an_invocation_is_the_line_a_person_would_type() -> None:
    option = {"type": slash.STRING, "name": slash.TEXT_OPTION, "value": " jaipur "}
    assert slash.typed_line({"name": "new", "options": [option]}) == "!new jaipur"
    assert slash.typed_line({"name": "start"}, prefix=".") == ".start"
    move = {"type": slash.STRING, "name": "move", "value": "take 2 spice"}
    assert slash.typed_line({"name": "play", "options": [move]}) == "take 2 spice"
    assert slash.typed_line({"name": "play"}) is None
    assert slash.typed_line({"name": "rm -rf"}) is None
