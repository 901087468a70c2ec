"""What players read around their moves: typos, plain words, whose turn, filters, counts, rate limits."""

from __future__ import annotations

import pytest
from support.botdriver import Driver, said, text, told
from support.countgame import GAME as COUNT

from bazaarbot.config import BotSettings, RateLimit
from plugins.jaipur import GAME as JAIPUR


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def bot(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    bot.script("alice: /join", "bob: /join", "alice: /start")
    return bot


def test_one_typo_in_a_move_verb_asks_did_you_mean(bot):
    out = bot.line("alice", "adf 2")
    assert told(out, "alice") == ['Did you mean "add 2"?'] and bot.table.state.total == 0


def test_a_typo_that_would_not_be_legal_gets_no_answer(bot):
    assert bot.line("alice", "adf the sandwiches") == []
    assert bot.line("bob", "adf 2") == []  # not bob's turn: no legal move to suggest


def test_chatter_from_someone_not_playing_is_never_answered(bot):
    assert bot.line("carol", "adf 2") == []
    assert bot.line("carol", "board") == []


def test_a_typo_said_privately_asks_did_you_mean(bot):
    assert told(bot.dm("alice", "adx 3"), "alice") == ['Did you mean "add 3"?']


def test_plain_board_hand_moves_help_work_for_a_seated_player(bot):
    assert said(bot.line("alice", "board")) == [bot.table.board()]
    assert "secret" in text(bot.line("bob", "hand"))
    assert told(bot.line("alice", "moves all"), "alice") == ["add 1\nadd 2\nadd 3"]
    assert "/help" in text(bot.line("bob", "help"))


def test_moves_out_of_turn_says_whose_turn_it_is(bot):
    assert told(bot.line("bob", "/moves"), "bob") == ["It is not your turn; waiting for alice."]


def test_moves_all_out_of_turn_is_the_single_no_moves_line(bot):
    assert told(bot.line("bob", "/moves all"), "bob") == ["(no moves)"]


def test_moves_all_with_a_word_lists_only_matching_commands(bot):
    assert told(bot.line("alice", "/moves all 2"), "alice") == ["add 2"]
    assert told(bot.line("alice", "/moves all sell"), "alice") == ["(no moves)"]


def test_a_game_with_one_player_count_says_2_players(tmp_path):
    bot = Driver(tmp_path / "b.sqlite", games={"count": COUNT, "jaipur": JAIPUR})
    assert "Jaipur (2 players)" in text(bot.line("alice", "/new jaipur"))
    assert "jaipur (Jaipur, 2 players)" in text(bot.line("alice", "/games"))
    assert "2-3 players" in text(bot.line("alice", "/games"))


def test_several_tables_example_names_the_command(tmp_path):
    bot = Driver(tmp_path / "b.sqlite")
    for channel in ("#a", "#b"):
        bot.line("alice", "/join", channel)
        bot.line("bob", "/join", channel)
        bot.line("alice", "/start", channel)
    answer = text(bot.dm("alice", "/hand"))
    assert "e.g. /hand #a" in answer
    assert "e.g. #a add 1" in text(bot.dm("alice", "add 1"))


def test_rate_limited_user_is_told_again_every_few_seconds(tmp_path):
    clock = Clock()
    settings = BotSettings(default_game="count", rate_limit=RateLimit(commands=1, per_seconds=600))
    bot = Driver(tmp_path / "b.sqlite", settings=settings, clock=clock)
    bot.line("alice", "/status")
    assert "Slow down" in text(bot.line("alice", "/status"))
    clock.now += 1
    assert bot.line("alice", "/status") == []  # at most one warning every few seconds
    clock.now += 5
    assert "Slow down" in text(bot.line("alice", "/status"))  # never silence after the first warning


def test_core_messages_with_counts_read_right_for_0_1_and_2(tmp_path):
    from support.counts import count_problems

    from plugins.bazaar import GAME as BAZAAR

    bot = Driver(tmp_path / "c.sqlite", games={"count": COUNT, "jaipur": JAIPUR, "bazaar": BAZAAR})
    said_lines: list[str] = []
    for line in [
        ("alice", "/start"),
        ("alice", "/join"),
        ("alice", "/start"),
        ("alice", "/status"),
        ("bob", "/join"),
        ("carol", "/join"),
        ("dave", "/join"),
        ("alice", "/games"),
        ("alice", "/new jaipur"),
        ("alice", "/reset clear"),
        ("alice", "/new bazaar"),
        ("alice", "/status"),
        ("alice", "/start"),
        ("alice", "/status"),
        ("alice", "/moves"),
        ("alice", "/leave"),
    ]:
        said_lines += [m.text for m in bot.line(*line)]
    problems = [p for text in said_lines for p in count_problems(text)]
    assert not problems, problems
