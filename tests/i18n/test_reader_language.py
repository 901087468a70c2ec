"""Every line a sentence in its reader's language, on every surface: the console, the web page's
view and the replay page's data.

At an English table two people play a whole game, one reading German (``/lang de``) and one
Spanish (``/lang es``): every private line either of them reads must hold no English game word
of their language's game, no line anywhere an identifier (``gold_for_vp``, ``hints=True``), and
no line a list of scores said twice. The web page's view of each reader and the replay page
are built in their language and checked the same way. The console runs in the test's process
(``support.consolehere``): what is checked is its words, not the process.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from support.botdriver import Driver, said, told
from support.consolehere import ConsoleHere
from support.consoleproc import private
from support.english_words import english_terms_in, programmer_words_in, scores_said_twice

from bazaarbot.config import BotSettings, RateLimit
from bazaarbot.i18n import language
from bazaarbot.messages import Tell
from bazaarbot.registry import discover

GAMES = discover()
#: who reads which language (the table itself speaks English)
READERS = {"ann": "de", "bob": "es"}
#: an AI seat's name in each language (a name, not a sentence: left out of the English-word check)
AI_NAMES = ("KI:leicht", "IA:fácil", "AI:easy")


def _body(line: str) -> str:
    return line.split("> ", 1)[1] if "> " in line else line


def _problems(lines: list[str], lang: str, typed: set[str]) -> dict[str, str]:
    """What is wrong with the lines one reader of ``lang`` reads: the offending word -> its line."""
    found: dict[str, str] = {}
    for line in lines:
        body = _body(line)
        if body in typed:
            continue
        for name in AI_NAMES:
            body = body.replace(name, "")
        words = english_terms_in(body, lang) if lang != "en" else []
        for word in [*words, *programmer_words_in(body), *scores_said_twice(body)]:
            found.setdefault(word, line)
    return found


def _console_game(tmp_path, game: str, ais: int) -> tuple[list[str], set[str]]:
    """A whole console game at an English table: ann (German) and bob (Spanish) and ``ais`` AIs."""
    config = "[ai]\nworkers = 1\n[ai.levels.hard]\niterations = 8\n"  # hints and the review: quick
    console = ConsoleHere(tmp_path / "bot.sqlite", seed=5, config=config)
    rng = random.Random(len(game))
    typed: set[str] = set()

    def say(nick: str, text: str) -> list[str]:
        typed.add(text)
        return console.type(f"{nick}: {text}")

    try:
        for nick, lang in READERS.items():
            say(nick, f"/lang {lang}")
        say("ann", f"/new {game} hints=on")
        say("bob", "/join")
        for _ in range(ais):
            say("ann", "/addbot easy")
        say("ann", "/start")
        for nick in READERS:
            for text in ("/help", "/help moves", "/hand", "/status", "/hint"):
                say(nick, text)
        for turn in range(3000):
            listings = {n: private(say(n, "/moves all"), n) for n in READERS}
            movers = [n for n, offers in listings.items() if offers != ["(no moves)"]]
            if not movers:
                say("ann", "/status")
                continue
            nick = movers[0]
            offers = listings[nick]
            if turn % 11 == 3:
                say(nick, "/hint")
                verb = offers[0].split()[0]
                say(nick, f"{verb} 999 999")  # refused, with what would work
                say(nick, f"{verb} nothing here")  # chatter: no answer
            block = say(nick, rng.choice(offers))
            if any("Game over:" in line for line in block):
                break
        else:
            pytest.fail("the game did not end")
        for nick in READERS:
            for text in ("/status", "/history", "/review"):
                say(nick, text)
        console.type("ann: /status")  # a review made in the background comes before this one's ---
    finally:
        console.close()
    return console.seen, typed


CONSOLE_CASES = [("jaipur", 0), ("yspahan", 1), ("bazaar", 1)]


@pytest.mark.parametrize(("game", "ais"), CONSOLE_CASES)
def test_a_whole_console_game_speaks_to_each_reader_in_their_language(tmp_path, game, ais):
    seen, typed = _console_game(tmp_path, game, ais)
    for nick, lang in READERS.items():
        mine = [line for line in seen if line.startswith(f"@{nick}> ")]
        assert mine, f"{nick} was told nothing"
        assert not _problems(mine, lang, typed), f"{lang} reader of {game}: {_problems(mine, lang, typed)}"
    channel = [line for line in seen if line.startswith("#")]
    assert not _problems(channel, "en", typed), f"the channel of {game}: {_problems(channel, 'en', typed)}"
    over = [line for line in seen if "Game over:" in line]
    assert len(over) == 1 and over[0].count("Scores:") == 1


def _strings(data: Any, skip: frozenset[str]) -> list[str]:
    """Every text of a view a page shows (not its keys, nor the commands it sends back)."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() if k not in skip for s in _strings(v, skip)]
    if isinstance(data, list):
        return [s for item in data for s in _strings(item, skip)]
    return []


#: what a view holds for the page's code, not for its reader: the English command it sends back,
#: the game's and the level's ids, a language tag, the game's terms, stones and arms by id; and the
#: web chat's game log, whose announcements are the room's public lines (in the room's language)
NOT_SHOWN = frozenset(
    {"commands", "command", "text", "game", "games", "levels", "lang", "verbs", "verb", "kind", "terms"}
    | {"left", "right", "stones", "arm", "log"}
    | {"good", "colour", "colours", "ai", "id", "key", "phase", "to_act", "discard", "market", "goods"}
    | {"card", "cards", "hand", "field", "fields", "building", "buildings", "souk", "space", "shop", "type"}
)


def _driver_game(tmp_path, game: str) -> Driver:
    """A whole game at an English table between ann (German) and bob (Spanish), moved in process."""
    settings = BotSettings(default_game=game, seed=3, rate_limit=RateLimit(commands=100_000, per_seconds=1))
    bot = Driver(tmp_path / "bot.sqlite", games=GAMES, settings=settings)
    for nick, lang in READERS.items():
        bot.line(nick, f"/lang {lang}")
    bot.line("ann", f"/new {game}")
    bot.line("bob", "/join")
    bot.line("ann", "/start")
    rng = random.Random(2)
    for _ in range(5000):
        table = bot.table
        if not table.running:
            break
        seat = table.plugin.to_act(table.state)[0]
        nick = table.players[seat].nick
        bot.line(nick, rng.choice(table.plugin.legal_commands(table.state, seat)))
    assert not bot.table.running
    return bot


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_web_page_and_the_replay_page_speak_the_readers_language(tmp_path, game):
    bot = _driver_game(tmp_path, game)
    hub = bot.hub
    keys = {nick: hub.index.key_of_nick("test", nick) or f"n:{nick}" for nick in READERS}
    for nick, lang in READERS.items():
        private_lines = told(bot.replies, nick)
        assert not _problems(private_lines, lang, set()), f"{lang}: {_problems(private_lines, lang, set())}"
    views = hub.room_views("test", "#t", [keys["ann"], keys["bob"], None])
    assert views is not None
    for nick, lang in READERS.items():
        reader_lang, public, own = views[keys[nick]]
        assert reader_lang == lang
        shown = _strings(public, NOT_SHOWN) + _strings(own, NOT_SHOWN)
        assert not _problems(shown, lang, set()), (
            f"the {lang} page of {game}: {_problems(shown, lang, set())}"
        )
    game_id = hub.store.db.conn.execute("SELECT max(id) FROM games").fetchone()[0]
    for lang in ("en", *READERS.values()):
        with language(lang):
            replay = hub.replay_view("test", game_id)
        assert replay is not None and replay["replayable"]
        moves = [step["said"] for step in replay["steps"]]
        shown = _strings({k: v for k, v in replay.items() if k != "steps"}, NOT_SHOWN)
        shown += [line for step in replay["steps"] for line in step["lines"]] + moves
        shown += [s for step in replay["steps"][-3:] for s in _strings(step["public"], NOT_SHOWN)]
        assert not _problems(shown, lang, set()), (
            f"the {lang} replay of {game}: {_problems(shown, lang, set())}"
        )


def test_the_check_finds_identifiers_and_scores_said_twice():
    line = "Game over: AI:hard wins! Scores: alicia 37, AI:hard 60. alicia 37, AI:hard 60"
    assert scores_said_twice(line) == ["alicia 37, AI:hard 60"]
    assert programmer_words_in("AI:hard plays gold_for_vp; hints=True; /new yspahan must_place_all=off") == [
        "gold_for_vp",
        "=True",
    ]


def test_an_unseated_persons_private_answers_follow_their_lang(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    bot.line("bob", "/new count")
    bot.line("alice", "/lang de")
    assert told(bot.line("alice", "/new count"), "alice") == [
        "Nur der Gastgeber (bob) kann das Spiel an diesem Tisch ändern."
    ]
    assert "Nur wer am Tisch sitzt" in told(bot.line("alice", "/start"), "alice")[0]
    bot.line("carol", "/lang es")
    assert told(bot.line("carol", "/addbot"), "carol")[0].startswith("Solo")


def test_notice_holds_for_anybody_and_alone_says_the_setting(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    bot.line("alice", "/lang de")
    out = bot.line("alice", "/notice on")  # alice sits nowhere
    assert [(m.text, m.notice) for m in out if isinstance(m, Tell)] == [
        ("Deine privaten Zeilen kommen jetzt als NOTICE.", True)
    ]
    assert told(bot.line("alice", "/notice"), "alice") == [
        "Deine privaten Zeilen kommen jetzt als NOTICE. /notice on oder /notice off ändert es."
    ]
    bot.line("alice", "/notice off")
    assert told(bot.line("alice", "/hinweis"), "alice")[0].startswith(
        "Deine privaten Zeilen kommen als private Nachrichten."
    )


def test_every_command_in_help_has_a_german_and_a_spanish_name(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    for lang in ("de", "es"):
        bot.line("alice", f"/lang {lang}")
        listing = told(bot.line("alice", "/help"), "alice")[0]
        names = listing.split(": ", 1)[1].split(". ", 1)[0]
        bare = [n for n in names.split() if n.startswith("/") and not n.startswith("(")]
        english = [n.strip("()") for n in names.split() if n.startswith("(")]
        assert len(bare) == len(english), f"{lang}: a command without its {lang} name: {names}"


def test_an_option_answer_is_a_sentence(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite", games=GAMES, settings=BotSettings(default_game="yspahan"))
    announced = said(bot.line("alice", "/new yspahan hints=on"))[0]
    assert announced == "This table now plays Yspahan (2-4 players). Hints are on for this table."


@pytest.mark.parametrize(
    ("game", "chatter"),
    [
        ("jaipur", "take a break, brb"),
        ("yspahan", "take a break, brb"),
        ("bazaar", "trade a joke"),
        ("jaipur", "sell me on it"),
        ("yspahan", "move on please"),
    ],
)
def test_a_game_verb_without_any_of_the_games_things_is_chatter(game, chatter):
    assert not GAMES[game].is_move(chatter)


def test_chatter_said_privately_by_a_player_gets_no_answer(tmp_path):
    settings = BotSettings(default_game="jaipur", rate_limit=RateLimit(commands=1000, per_seconds=1))
    bot = Driver(tmp_path / "bot.sqlite", games=GAMES, settings=settings)
    bot.script("ann: /lang de", "ann: /new jaipur", "bob: /join", "ann: /start")
    for nick in ("ann", "bob"):
        assert bot.dm(nick, "take a break, brb") == []
    assert GAMES["jaipur"].is_move("take 2 spice") and GAMES["jaipur"].is_move("nimm Gold")


def test_a_supervisor_move_with_a_number_is_explained_in_words():
    from plugins.yspahan.scenario import new_game, set_tower

    yspahan = GAMES["yspahan"]
    state = set_tower(new_game(2), {"camels": (4, 2), "gold": (6, 2)})
    notes = {
        c: yspahan.command_note(state, 0, c)
        for c in yspahan.legal_commands(state, 0)
        if c.startswith("move 4 ")
    }
    assert notes["move 4 west"] is None  # nothing to explain
    explained = [n for c, n in notes.items() if c.endswith(" -1")]
    assert explained and all(n.startswith("the supervisor goes 3 steps, paying 1 gold") for n in explained)
    with language("de"):
        assert (
            yspahan.command_note(state, 0, "move 4 west -1") == "der Aufseher geht 3 Schritte, kostet 1 Gold"
        )


def test_history_said_privately_is_in_the_readers_language(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    bot.script("ann: /lang de", "ann: /new count", "bob: /join", "ann: /start")
    while bot.table.running:
        seat = bot.table.plugin.to_act(bot.table.state)[0]
        bot.line(bot.table.players[seat].nick, "add 3")
    lines = told(bot.dm("ann", "/history"), "ann")
    assert lines and lines[0].startswith("Spiel ") and "hat gewonnen" in lines[0], lines
    assert not re.search(r"\bwon\b|\bgame\b", lines[0])
