"""Who hears which language: public lines in the channel's, private lines in the reader's.

One bot, a German room and a Spanish room side by side; people who chose
their own language with /lang; the host-only /lang channel; the config's
defaults per network and channel; the German and Spanish command aliases.
"""

from __future__ import annotations

import asyncio
import pickle
import random

import pytest
from support.botdriver import NETWORK, Driver, language_bot, told
from support.languages import EXPECTED, GAME_OVER, TO_ACT, english_fragments
from support.waits import next_turn

from bazaarbot.config import ConfigError, parse_config
from bazaarbot.i18n import _, current_language, language, localized, ngettext
from bazaarbot.messages import Outgoing, Say, Tell
from bazaarbot.registry import discover
from bazaarbot.text.commandmark import render

GAMES = sorted(discover())
GERMAN_HAND = "Deine Hand"
NOT_YOUR_TURN = {"en": "It is not your turn", "de": "Du bist nicht am Zug"}


bot = language_bot


def public(out: list[Outgoing], channel: str) -> list[str]:
    return [m.text for m in out if isinstance(m, Say) and m.channel == channel]


class Room:
    """Two players at one channel's table, typing only what /moves all offers."""

    def __init__(self, driver: Driver, channel: str, lang: str, players: list[str], game: str) -> None:
        self.driver, self.channel, self.lang, self.players = driver, channel, lang, players
        self.game = game
        self.seen: list[str] = []
        self.commands: set[str] = set()
        self.over = False

    def say(self, nick: str, text: str) -> list[Outgoing]:
        out = self.driver.line(nick, text, self.channel)
        for message in out:
            if (isinstance(message, Say) and message.channel == self.channel) or (
                isinstance(message, Tell) and message.nick in self.players
            ):
                self.seen += message.text.split("\n")
        return out

    def open(self) -> None:
        first, second = self.players
        self.say(first, f"/new {self.game}")
        self.say(second, "/join")
        assert EXPECTED[self.lang]["help"] in "\n".join(told(self.say(first, "/help"), first))
        rules = told(self.say(first, f"/rules {self.game}"), first) + told(
            self.say(first, "/help moves"), first
        )
        assert EXPECTED[self.lang][self.game].lower() in "\n".join(rules).lower()
        self.say(first, "/start")

    def step(self, rng: random.Random, turn: int) -> None:
        status = public(self.say(self.players[0], "/status"), self.channel)[0]
        assert TO_ACT[self.lang] in status, status
        nick = status.rsplit(TO_ACT[self.lang], 1)[1].split(",")[0].rstrip(".")
        offers = told(self.say(nick, "/moves all"), nick)[0].split("\n")
        self.commands.update(offers)
        assert offers != ["(no moves)"], status
        if turn % 25 == 0:
            self.say(nick, f"{offers[0].split()[0]} 999 nonsense")  # a refusal, in the room's language
        if any(
            line.startswith(GAME_OVER[self.lang])
            for line in public(self.say(nick, rng.choice(offers)), self.channel)
        ):
            self.over = True

    def leaks(self) -> list[str]:
        said = "\n".join(line for line in self.seen if line not in self.commands)
        return [piece for piece in english_fragments(self.lang) if piece in said]


@pytest.mark.parametrize("game", GAMES)
def test_a_german_room_and_a_spanish_room_on_one_bot_each_play_in_their_own_language(tmp_path, game):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#spiel"): "de"})
    driver.line("carla", "/join", "#juego")
    driver.line("carla", "/lang channel es", "#juego")  # the host sets the room's language
    driver.line("carla", "/leave", "#juego")
    rooms = [
        Room(driver, "#spiel", "de", ["anna", "ben"], game),
        Room(driver, "#juego", "es", ["carla", "diego"], game),
    ]
    for room in rooms:
        room.open()
    rng = random.Random(3)
    for turn in range(5000):
        for room in rooms:
            if not room.over:
                room.step(rng, turn)
        if all(room.over for room in rooms):
            break
    else:
        pytest.fail("a game did not end")
    for room in rooms:
        assert not room.leaks(), f"English in the {room.lang} room: {room.leaks()}"
    assert current_language() == "en"  # nothing of a room's language stays behind


def _german_table_with_an_english_player(tmp_path) -> Driver:
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    driver.line("eve", "/lang en")
    assert told(driver.line("otto", "/new jaipur"), "otto")[0].startswith("Du sitzt auf Platz 1")
    assert told(driver.line("eve", "/join"), "eve")[0].startswith("You sit in seat 2")
    return driver


def _waiting_and_mover(driver: Driver) -> tuple[str, str]:
    table = driver.table
    mover = table.players[table.plugin.to_act(table.state)[0]].nick
    return ("eve" if mover == "otto" else "otto"), mover


def test_a_person_who_chose_english_gets_private_lines_in_english_at_a_german_table(tmp_path):
    driver = _german_table_with_an_english_player(tmp_path)
    start = driver.line("otto", "/start")
    assert any(line.startswith("Jaipur beginnt") for line in public(start, "#t"))
    assert told(start, "eve")[0].startswith("Your hand")
    assert told(start, "otto")[0].startswith(GERMAN_HAND)
    assert told(driver.line("eve", "/hand"), "eve")[0].startswith("Your hand")
    assert told(driver.dm("eve", "/hand"), "eve")[0].startswith("Your hand")
    eve_key = driver.table.seat_of(driver.hub._key_for_nick(NETWORK, "eve")).key
    assert driver.hub.private_view(NETWORK, "#t", eve_key).startswith("Your hand")
    waiting, mover = _waiting_and_mover(driver)
    refused = told(driver.line(waiting, "take camels"), waiting)[0]
    assert refused.startswith(NOT_YOUR_TURN["en" if waiting == "eve" else "de"]), refused


def test_the_english_players_moves_and_help_are_english_while_the_channel_stays_german(tmp_path):
    driver = _german_table_with_an_english_player(tmp_path)
    driver.line("otto", "/start")
    waiting, mover = _waiting_and_mover(driver)
    if mover == "otto":  # otto moves first, so that it is eve's turn
        offers = told(driver.line("otto", "/moves all"), "otto")[0].split("\n")
        assert public(driver.line("otto", offers[0]), "#t")
    refusal = told(driver.line("eve", "sell 999 cloth"), "eve")[0]  # the plugin's refusal, said to eve
    assert refusal == localized(refusal, "en") != localized(refusal, "de"), refusal
    summary = told(driver.line("eve", "/moves"), "eve")[0]
    assert summary.startswith("take one:") or summary.startswith("take camels"), summary
    assert summary.endswith("(all: /moves all)")
    assert "take camels" in told(driver.line("eve", "/help moves"), "eve")[0]
    assert told(driver.line("eve", "/help"), "eve")[0].startswith("Commands: /")
    assert told(driver.line("otto", "/help"), "otto")[0].startswith("Befehle: /")
    assert told(driver.line("otto", "/moves"), "otto")[0].startswith("Du bist nicht am Zug")
    unknown = told(driver.line("eve", "/frobnicate"), "eve")[0]
    assert unknown.startswith("I do not know the command"), unknown
    assert "Markt" in public(driver.line("eve", "/board"), "#t")[0]


def test_lang_alone_says_the_choice_and_the_languages(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    line = told(driver.line("eve", "/lang"), "eve")[0]
    assert line.startswith("Du hörst die Sprache des Raums, Deutsch")
    assert "en (English), de (Deutsch), es (español)" in line
    driver.line("eve", "/lang es")
    assert told(driver.line("eve", "/lang"), "eve")[0].startswith("Elegiste español; esta sala habla Deutsch")


def test_lang_with_an_unknown_language_is_refused_and_changes_nothing(tmp_path):
    driver = bot(tmp_path)
    refusal = told(driver.line("eve", "/lang klingon"), "eve")[0]
    assert refusal.startswith("I do not speak 'klingon'")
    assert driver.hub.person_language(NETWORK, driver.hub._key_for_nick(NETWORK, "eve")) is None


def test_lang_default_goes_back_to_the_channels_language(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "es"})
    driver.line("eve", "/lang de")
    assert told(driver.line("eve", "/leave"), "eve")[0] == "Du sitzt nicht an diesem Tisch."
    driver.line("eve", "/lang default")
    assert told(driver.line("eve", "/leave"), "eve")[0] == "No estás sentado en esta mesa."


def test_a_persons_lang_is_kept_per_identity_across_a_restart(tmp_path):
    driver = bot(tmp_path)
    driver.line("eve", "/lang de")
    driver = driver.restart()
    assert told(driver.line("eve", "/leave"), "eve")[0] == "Du sitzt nicht an diesem Tisch."
    assert told(driver.line("mallory", "/leave"), "mallory")[0] == "You do not sit at this table."


def test_lang_channel_needs_the_host_or_an_admin(tmp_path):
    driver = bot(tmp_path)
    driver.line("otto", "/join")
    refusal = told(driver.line("eve", "/lang channel de"), "eve")[0]
    assert refusal == "Only the host (otto) or an admin can use /lang channel."
    assert "lang" not in driver.table.settings
    assert public(driver.line("otto", "/lang channel de"), "#t") == ["Dieser Kanal spricht jetzt Deutsch."]
    assert public(driver.line("root", "/lang channel es", account="root"), "#t") == [
        "Este canal habla ahora español."
    ]
    driver = driver.restart()
    assert told(driver.line("eve", "/leave"), "eve")[0] == "No estás sentado en esta mesa."


def test_lang_channel_said_privately_is_refused(tmp_path):
    driver = bot(tmp_path)
    assert told(driver.dm("eve", "/lang channel de"), "eve")[0] == (
        "Say /lang channel <language> in the channel it is for."
    )


def test_the_channel_language_precedence_table_setting_then_channel_then_network(tmp_path):
    driver = bot(
        tmp_path,
        network_languages={NETWORK: "es"},
        channel_languages={(NETWORK, "#spiel"): "de"},
    )
    assert told(driver.line("eve", "/leave", "#spiel"), "eve")[0] == "Du sitzt nicht an diesem Tisch."
    assert told(driver.line("eve", "/leave", "#other"), "eve")[0] == "No estás sentado en esta mesa."
    driver.line("otto", "/join", "#spiel")
    driver.line("otto", "/lang channel en", "#spiel")
    assert told(driver.line("eve", "/leave", "#spiel"), "eve")[0] == "You do not sit at this table."


def test_a_private_line_is_answered_in_the_language_of_the_speakers_table(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    driver.line("otto", "/join")
    assert told(driver.dm("otto", "/frobnicate"), "otto")[0].startswith(
        "Den Befehl 'frobnicate' kenne ich nicht"
    )


def test_the_config_sets_languages_per_network_and_per_channel():
    config = parse_config(
        {
            "bot": {"language": "en"},
            "web": {"language": "es"},
            "irc": {
                "networks": [
                    {
                        "name": "libera",
                        "host": "irc.example",
                        "language": "de-AT",
                        "channel_languages": {"#Bazaar-ES": "es", "#bazaar-en": "en"},
                    },
                    {"name": "other", "host": "irc.other"},
                ]
            },
        }
    )
    assert config.network_languages() == {"web": "es", "libera": "de"}
    assert config.channel_languages() == {("libera", "#bazaar-es"): "es", ("libera", "#bazaar-en"): "en"}


@pytest.mark.parametrize(
    "section",
    [
        {"web": {"language": "klingon"}},
        {"irc": {"networks": [{"name": "n", "host": "h", "language": 3}]}},
        {"irc": {"networks": [{"name": "n", "host": "h", "channel_languages": {"bazaar": "de"}}]}},
        {"irc": {"networks": [{"name": "n", "host": "h", "channel_languages": {"#b": "xx"}}]}},
        {"irc": {"networks": [{"name": "n", "host": "h", "channel_languages": ["#b"]}]}},
    ],
)
def test_a_config_language_the_bot_does_not_speak_is_refused(section):
    with pytest.raises(ConfigError):
        parse_config(section)


@pytest.mark.parametrize(
    ("alias", "expected"),
    [
        ("/hilfe", "Befehle: /"),
        ("!ayuda", "Órdenes"),
        ("/regeln jaipur", "Jaipur"),
        ("/reglas bazaar", "Bazaar"),
        ("/spiele", "jaipur"),
        ("/juegos", "yspahan"),
        ("/sprache", "Du hörst die Sprache des Raums"),
        ("/idioma", "Du hörst die Sprache des Raums"),
    ],
)
def test_the_german_and_spanish_aliases_of_the_bots_commands(tmp_path, alias, expected):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    if alias.startswith("!ayuda"):
        driver.line("eve", "/lang es")
    assert expected.lower() in "\n".join(render(m.text) for m in driver.line("eve", alias)).lower()


def test_the_table_aliases_run_a_game_from_new_to_hand(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "es"})
    assert public(driver.line("ana", "/nuevo jaipur"), "#t")
    assert public(driver.line("beto", "/unirse"), "#t")
    assert public(driver.line("ana", "/empezar"), "#t")
    assert told(driver.line("ana", "/mano"), "ana")[0].startswith("Tu mano")
    assert public(driver.line("ana", "/tablero"), "#t")[0].startswith("Jaipur")
    assert told(driver.line("ana", "/movimientos"), "ana")
    assert told(driver.line("ana", "/jugadas all"), "ana")
    assert public(driver.line("beto", "/salir"), "#t")


def test_the_german_table_aliases(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    assert public(driver.line("anna", "/neu jaipur"), "#t")
    assert public(driver.line("ben", "/mitspielen"), "#t")
    assert public(driver.line("anna", "/starten"), "#t")
    assert told(driver.line("anna", "/karten"), "anna")[0].startswith(GERMAN_HAND)
    assert public(driver.line("anna", "/brett"), "#t")
    assert told(driver.line("anna", "/züge"), "anna")
    assert told(driver.line("anna", "/zuege all"), "anna")
    assert public(driver.line("ben", "/verlassen"), "#t")


def test_a_new_alias_word_said_plainly_is_chatter(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    for word in ("hilfe", "regeln", "mano", "salir", "idioma bitte"):
        assert driver.line("eve", word) == []


def test_a_msg_renders_again_in_another_language_with_its_arguments():
    with language("de"):
        inner = _("nothing")
        line = _("Only the host ({host}) or an admin can use /{name}.").format(host=inner, name="start")
        counted = ngettext("{n} stone", "{n} stones", 2).format(n=2)
        joined = line + " " + counted
    assert render(line) == "Nur der Gastgeber (nichts) oder ein Admin kann /start verwenden."
    assert render(localized(line, "en")) == "Only the host (nothing) or an admin can use /start."
    assert localized(line, "es").startswith("Solo el anfitrión (nada)")
    assert localized(counted, "es") == "2 piedras"
    assert render(localized(joined, "en")) == "Only the host (nothing) or an admin can use /start. 2 stones"
    assert localized("plain text", "de") == "plain text"
    again = pickle.loads(pickle.dumps(joined))
    assert again == joined
    assert localized(again, "en") == localized(joined, "en")


def test_the_language_of_one_task_never_reaches_another():
    """Two lines answered at once in two languages: each task keeps its own (contextvars)."""

    async def speak(lang: str, seen: list[str]) -> None:
        with language(lang):
            for _round in range(5):
                await next_turn()  # the other task speaks meanwhile
                seen.append(_("You do not sit at this table."))

    async def both() -> tuple[list[str], list[str]]:
        german: list[str] = []
        spanish: list[str] = []
        await asyncio.gather(speak("de", german), speak("es", spanish))
        return german, spanish

    german, spanish = asyncio.run(both())
    assert set(german) == {"Du sitzt nicht an diesem Tisch."}
    assert set(spanish) == {"No estás sentado en esta mesa."}
    assert current_language() == "en"


def test_two_hands_at_one_table_are_each_in_their_owners_language(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "en"})
    driver.script("anna: /lang de", "beto: /lang es", "anna: /new jaipur", "beto: /join")
    start = driver.line("anna", "/start")
    assert told(start, "anna")[0].startswith(GERMAN_HAND)
    assert told(start, "beto")[0].startswith("Tu mano")
    assert any(line.startswith("Jaipur starts") for line in public(start, "#t"))
