"""A reader's line whole in their language: /help names, the host, moves and what the AI played."""

from __future__ import annotations

import random

from support.botdriver import NETWORK, language_bot, said, told

from bazaarbot.commands.local_names import LOCAL_NAMES
from bazaarbot.commands.registry import REGISTRY
from bazaarbot.i18n import _, language, localized
from bazaarbot.words.moves import command_here, command_phrase
from plugins.jaipur import GAME as JAIPUR

bot = language_bot


def test_every_local_command_name_is_a_declared_alias_of_its_command():
    for lang, names in LOCAL_NAMES.items():
        for name, alias in names.items():
            assert REGISTRY.lookup(alias) is REGISTRY.lookup(name), (lang, name, alias)


def test_help_lists_the_commands_by_the_readers_name_first_then_the_english_one(tmp_path):
    driver = bot(tmp_path)
    driver.line("otto", "/sprache de")
    listing = told(driver.line("otto", "/hilfe"), "otto")[0]
    assert "/hilfe (/help)" in listing and "/regeln (/rules)" in listing and "/züge (/moves)" in listing
    driver.line("rosa", "/idioma es")
    assert "/ayuda (/help)" in told(driver.line("rosa", "/ayuda"), "rosa")[0]
    assert "/help /rules" in told(driver.line("eve", "/help"), "eve")[0]


def test_a_table_without_a_host_says_so_in_words_and_names_the_command_as_typed(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "es"})
    answer = told(driver.line("rosa", "/idioma channel de"), "rosa")[0]
    assert "(-)" not in answer and "nadie todavía" in answer and "/idioma channel" in answer


def german_jaipur(tmp_path):
    """otto and eve at a started Jaipur in the German room #t: driver, table, who moves, their offers."""
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    driver.script("otto: /new jaipur", "eve: /join", "otto: /start")
    table = driver.table
    mover = table.players[table.plugin.to_act(table.state)[0]].nick
    return driver, table, mover, told(driver.line(mover, "/moves all"), mover)[0].split("\n")


def test_moves_all_lists_the_commands_in_the_readers_words_and_they_are_played(tmp_path):
    driver, table, mover, offers = german_jaipur(tmp_path)
    assert offers and all(o.split()[0] in ("nimm", "verkaufe") for o in offers), offers
    before = table.moves_made
    driver.line(mover, random.Random(1).choice(offers))
    assert table.moves_made == before + 1


def test_a_slip_of_a_german_verb_is_answered_in_german_words(tmp_path):
    driver, table, mover, offers = german_jaipur(tmp_path)
    take = next(o for o in offers if o.startswith("nimm "))
    answer = told(driver.line(mover, "nimn " + take.split(" ", 1)[1]), mover)
    assert answer == [f'Meintest du "{take}"?'] or answer == [f'Meinst du "{take}"?'], answer


def test_the_move_the_ai_played_is_quoted_as_each_reader_types_it():
    state = JAIPUR.setup(["ann", "ben"], random.Random(1), {o.name: o.default for o in JAIPUR.options})
    seat = JAIPUR.to_act(state)[0]
    with language("de"):
        line = _('Time is up for {nick}: the AI plays "{command}" for them.').format(
            nick="ann", command=command_phrase(JAIPUR, state, seat, "take camels")
        )
    assert '"nimm kamele"' in line
    assert '"toma camellos"' in localized(line, "es")
    assert '"take camels"' in localized(line, "en")


def test_an_ai_seat_is_named_in_the_tables_language(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    driver.line("otto", "/new jaipur")
    assert any("KI:leicht" in line for line in said(driver.line("otto", "/addbot easy")))


def test_status_and_board_asked_privately_come_whole_in_the_readers_language(tmp_path):
    driver = bot(tmp_path)
    driver.script("otto: /new yspahan", "otto: /addbot easy", "otto: /start")
    driver.dm("otto", "/sprache de")
    status = told(driver.dm("otto", "/status"), "otto")[0]
    assert "Am Zug" in status and " gegen " in status and "(AI)" not in status, status
    board = told(driver.dm("otto", "/board"), "otto")[0]
    assert "Würfelturm" in board and "chest2" not in board and "truhe2" in board, board


def test_a_mistyped_command_is_suggested_by_its_name_in_the_readers_language(tmp_path):
    driver = bot(tmp_path)
    driver.line("otto", "/sprache de")
    assert "/hilfe?" in told(driver.line("otto", "/hilf"), "otto")[0]
    assert "/help?" in told(driver.line("eve", "/hepl"), "eve")[0]


def test_the_game_log_on_the_page_shows_each_move_in_the_readers_words(tmp_path):
    driver = bot(tmp_path)
    driver.script("otto: /new jaipur", "eve: /join", "otto: /start")
    driver.dm("otto", "/sprache de")
    table = driver.table
    seat = table.plugin.to_act(table.state)[0]
    mover = table.players[seat].nick
    command = next(c for c in table.plugin.legal_commands(table.state, seat) if c.startswith("take "))
    driver.line(mover, command)  # typed in English
    german = table.plugin.command_in(None, seat, command, "de")
    assert german != command
    assert driver.hub.table_view(NETWORK, "#t", "n:otto")["log"][-1]["text"] == german
    assert driver.hub.table_view(NETWORK, "#t", "n:eve")["log"][-1]["text"] == command


def test_a_seated_german_or_spanish_player_may_say_help_moves_hand_board_plainly(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "de"})
    driver.script("otto: /new jaipur", "eve: /join", "otto: /start")
    assert told(driver.line("otto", "karten"), "otto")[0].startswith("Deine Hand")
    assert "/hilfe" in told(driver.line("otto", "hilfe"), "otto")[0]
    assert said(driver.line("eve", "brett"))
    assert told(driver.line("eve", "mano"), "eve")[0].startswith("Deine Hand")


def test_at_a_spanish_yspahan_table_german_and_spanish_moves_are_answered(tmp_path):
    driver = bot(tmp_path, channel_languages={(NETWORK, "#t"): "es"})
    driver.script("rosa: /nuevo yspahan", "hans: /unirse", "rosa: /empezar")
    table = driver.table

    def mover() -> str:
        return table.players[table.plugin.to_act(table.state)[0]].nick

    before = table.moves_made
    driver.line(mover(), "tira")
    assert table.moves_made == before + 1
    for typed in ("toma camellos", "tomar camellos", "nimm kamele"):
        out = driver.line(mover(), typed)
        assert out, f"{typed!r} got no answer"


def test_the_views_words_for_the_moves_list_only_what_the_reader_types_otherwise(tmp_path):
    driver = bot(tmp_path)
    driver.script("otto: /new jaipur", "eve: /join", "otto: /start")
    table = driver.table
    seat = table.plugin.to_act(table.state)[0]
    mover = table.players[seat]
    english = driver.hub.table_view(NETWORK, "#t", mover.key)["you"]
    assert english["commands"] and english["said"] == {}  # typed as they are: not sent twice
    driver.dm(mover.nick, "/sprache de")
    german = driver.hub.table_view(NETWORK, "#t", mover.key)["you"]
    assert german["commands"] == english["commands"]
    with language("de"):
        typed = {c: command_here(table.plugin, table.state, seat, c) for c in german["commands"]}
    assert {c: german["said"].get(c, c) for c in german["commands"]} == typed  # the page's fallback
    assert german["said"] and all(words != command for command, words in german["said"].items())
