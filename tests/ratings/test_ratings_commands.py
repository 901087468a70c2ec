"""Ratings in the chat: the line after a rated game, /stats, /top, /history, renames, the rebuild command."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce
from support.botdriver import NETWORK, Driver, said, text, told

from bazaarbot.cli import main
from bazaarbot.config import BotSettings, RateLimit, RatingSettings
from bazaarbot.messages import Say, Tell, User
from bazaarbot.store import Store


def bot_at(tmp_path, min_games: int = 1) -> Driver:
    settings = BotSettings(
        default_game="count",
        seed=7,
        rate_limit=RateLimit(commands=1000, per_seconds=1),
        ratings=RatingSettings(min_games=min_games),
    )
    return Driver(tmp_path / "r.sqlite", settings=settings)


def seat(bot: Driver, nicks: list[str], **user: object) -> None:
    bot.line(nicks[0], "/new count target=3", **user)
    for nick in nicks[1:]:
        bot.line(nick, "/join", **user)


def count_started(
    bot: Driver, host: str, guest: str, host_as: dict[str, Any], guest_as: dict[str, Any] | None = None
) -> None:
    """``host`` (known as ``host_as``) sets a Count to 3, ``guest`` joins, ``host`` starts."""
    bot.line(host, "/new count target=3", **host_as)
    bot.line(guest, "/join", **(guest_as or {}))
    bot.line(host, "/start", **host_as)


def play(bot: Driver, nicks: list[str], winner: int, **user: object) -> list:
    """One game of Count to 3 at the seated table, won by seat ``winner``; returns the last answer."""
    bot.line(nicks[0], "/start", **user)
    for index in range(winner):
        bot.line(nicks[index], "add 1", **user)
    return bot.line(nicks[winner], f"add {3 - winner}", **user)


def expected_mus(ranks: list[int]) -> list[float]:
    """openskill's own means for fresh players after one game with these ranks."""
    model = PlackettLuce()
    return [team[0].mu for team in model.rate([[model.rating()] for _ in ranks], ranks=ranks)]


def test_a_rated_game_ends_with_one_ratings_line_in_the_channel(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    lines = said(play(bot, ["alice", "bob"], 0))
    alice, bob = expected_mus([1, 2])
    rating_lines = [line for line in lines if line.startswith("Ratings")]
    assert rating_lines == [
        f"Ratings (Count): alice {alice:.1f} ({alice - 25:+.1f}), bob {bob:.1f} ({bob - 25:+.1f})."
    ]
    assert lines.index(rating_lines[0]) > next(i for i, s in enumerate(lines) if s.startswith("Game over:"))


def test_a_three_player_game_rates_the_losers_as_tied(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob", "carol"])
    line = next(s for s in said(play(bot, ["alice", "bob", "carol"], 2)) if s.startswith("Ratings"))
    alice, bob, carol = expected_mus([2, 2, 1])
    assert alice == bob
    assert f"carol {carol:.1f} ({carol - 25:+.1f})" in line and f"alice {alice:.1f}" in line


def test_an_abandoned_game_is_not_rated(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    bot.line("alice", "/start")
    bot.line("alice", "add 1")
    out = bot.line("root", "/reset", account="root")  # an admin ends the running game
    assert "abandoned" in text(out) and "Ratings" not in text(out)
    assert text(bot.line("alice", "/stats")) == "alice has no rated games yet."
    assert "abandoned" in text(bot.line("alice", "/history"))


def test_stats_of_oneself_another_player_and_one_game(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 0)
    play(bot, ["alice", "bob"], 1)
    play(bot, ["alice", "bob"], 0)
    mine = said(bot.line("alice", "/stats"))
    assert len(mine) == 1 and mine[0].startswith("alice at Count: 3 games, 2 wins (67%), rating ")
    theirs = text(bot.line("carol", "/stats bob count"))
    assert theirs.startswith("bob at Count: 3 games, 1 win (33%)")
    assert text(bot.line("carol", "/stats")) == "carol has no rated games yet."


def test_stats_with_two_games_names_the_best_game(tmp_path):
    from support.countgame import CountGame

    class Race(CountGame):
        name = "race"
        title = "Race"

    bot = bot_at(tmp_path)
    bot.games["race"] = bot.hub.games["race"] = Race()
    bot.hub.ratings.titles["race"] = "Race"
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 1)
    bot.line("alice", "/new race target=3")
    play(bot, ["alice", "bob"], 0)
    line = text(bot.line("alice", "/stats", channel=None))
    assert line.startswith("alice: 2 games, 1 win (50%); ")
    assert "Count " in line and "Race " in line and "best game Race" in line


def test_stats_of_an_unknown_game_says_so_briefly(tmp_path):
    bot = bot_at(tmp_path)
    out = bot.line("alice", "/stats bob chess")
    assert told(out, "alice") == ["There is no game called chess. Try one of: count."]


def test_top_lists_only_players_with_enough_rated_games(tmp_path):
    bot = bot_at(tmp_path, min_games=2)
    assert text(bot.line("alice", "/top")) == "Nobody is ranked at Count yet (it takes 2 rated games)."
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 0)
    bot.line("bob", "/leave")
    bot.line("carol", "/join")
    play(bot, ["alice", "carol"], 0)
    out = bot.line("dave", "/top count")
    lines = told(out, "dave")[0].splitlines()
    assert lines[0].startswith("Best at Count")
    assert lines[1].startswith("1. alice ") and "2 games" in lines[1]
    assert len(lines) == 2  # bob and carol have one game each
    assert all(isinstance(m, Tell) and m.listing for m in out)


def test_top_of_an_unknown_game_says_so(tmp_path):
    bot = bot_at(tmp_path)
    assert told(bot.line("alice", "/top chess"), "alice")[0].startswith("There is no game called chess.")


def test_history_lists_the_last_five_games_privately_with_their_ids(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    for game in range(6):
        play(bot, ["alice", "bob"], game % 2)
    out = bot.line("carol", "/history alice")
    assert len(out) == 1 and isinstance(out[0], Tell) and out[0].nick == "carol" and out[0].listing
    lines = out[0].text.splitlines()
    assert len(lines) == 5
    assert lines[0].startswith("game 6, ") and ", Count: alice 0, bob 1 - bob won" in lines[0]
    assert lines[-1].startswith("game 2, ")
    assert Store(bot.db).game_record(6) is not None  # the id bazaarbot export takes


def test_one_short_history_line_is_said_where_it_was_asked(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 0)
    out = bot.line("alice", "/history")
    assert len(out) == 1 and isinstance(out[0], Say)
    assert out[0].text.endswith("alice 1, bob 0 - alice won - /replay/1")


def test_help_lists_the_ratings_commands(tmp_path):
    bot = bot_at(tmp_path)
    listed = text(bot.line("alice", "/help"))
    assert "/stats" in listed and "/top" in listed and "/history" in listed


def test_nick_change_with_an_account_keeps_the_rating(tmp_path):
    bot = bot_at(tmp_path)
    count_started(bot, "alice", "bob", {"account": "alice"})
    bot.line("alice", "add 3", account="alice")
    bot.hub.identity.rename(NETWORK, User("alice", account="alice"), User("alicia", account="alice"))
    line = text(bot.line("alicia", "/stats", account="alice"))
    assert line.startswith("alicia at Count: 1 game, 1 win (100%)")
    bot.line("alicia", "/start", account="alice")
    bot.line("alicia", "add 3", account="alice")
    assert text(bot.line("alicia", "/stats", account="alice")).startswith("alicia at Count: 2 games, 2 wins")
    assert text(bot.line("bob", "/stats alicia")).startswith("alicia at Count: 2 games")


def test_nick_change_without_an_account_takes_the_record_along(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 0)
    bot.hub.identity.rename(NETWORK, User("alice"), User("alice_"))
    play(bot, ["alice_", "bob"], 0)
    assert text(bot.line("alice_", "/stats")).startswith("alice_ at Count: 2 games, 2 wins")
    assert text(bot.line("bob", "/stats alice_")).startswith("alice_ at Count: 2 games")
    before = bot.hub.database.execute("SELECT * FROM ratings ORDER BY identity").fetchall()
    bot.hub.ratings.rebuild()
    assert bot.hub.database.execute("SELECT * FROM ratings ORDER BY identity").fetchall() == before


def test_a_rename_onto_a_nick_with_its_own_record_moves_nothing(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 0)
    bot.line("alice", "/leave")
    bot.hub.identity.rename(NETWORK, User("alice"), User("bob2"))
    bot.hub.identity.rename(NETWORK, User("bob2"), User("bob"))  # onto a nick that has games of its own
    assert text(bot.line("carol", "/stats bob")).startswith("bob at Count: 1 game, 0 wins")


def test_an_accountless_nick_cannot_take_over_an_accounts_record(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"], account=None)
    bot.line("alice", "/leave")
    bot.line("bob", "/leave")
    bot.line("alice", "/new count target=3", account="alice")
    bot.line("bob", "/join", account="bob")
    play(bot, ["alice", "bob"], 0, account="alice")  # alice's account wins (bob's moves are not needed)
    account = bot.hub.ratings.standing(NETWORK, "count", "a:alice")
    assert account is not None and account.games == 1
    bot.line("alice", "/leave", account="alice")
    bot.line("bob", "/leave", account="bob")
    # somebody without an account takes the nick "alice" and loses a game as her
    bot.line("alice", "/join")
    bot.line("mallory", "/join")
    play(bot, ["alice", "mallory"], 1)
    assert bot.hub.ratings.standing(NETWORK, "count", "a:alice") == account
    impostor = bot.hub.ratings.standing(NETWORK, "count", "n:alice")
    assert impostor is not None and impostor.wins == 0
    bot.line("alice", "/leave")
    bot.line("mallory", "/leave")
    # asked by nick, the account's record comes first; renaming a bare nick never reaches an account's
    assert text(bot.line("carol", "/stats alice")).startswith("alice at Count: 1 game, 1 win")
    bot.hub.identity.rename(NETWORK, User("alice"), User("alice2"))
    assert bot.hub.ratings.standing(NETWORK, "count", "a:alice") == account


def test_ratings_survive_a_restart_and_the_rebuild_command_reproduces_them(tmp_path, capsys):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob", "carol"])
    for winner in (0, 2, 1, 2):
        play(bot, ["alice", "bob", "carol"], winner)
    before = bot.hub.database.execute("SELECT * FROM ratings ORDER BY identity").fetchall()
    changes = bot.hub.database.execute("SELECT * FROM rating_changes ORDER BY game_id, seat").fetchall()
    again = bot.restart()
    assert again.hub.database.execute("SELECT * FROM ratings ORDER BY identity").fetchall() == before
    again.hub.store.close()
    assert main(["ratings", "rebuild", "--db", str(tmp_path / "r.sqlite")]) == 0
    assert "from 4 finished games: 3 ratings" in capsys.readouterr().out
    store = Store(tmp_path / "r.sqlite")
    try:
        assert store.db.execute("SELECT * FROM ratings ORDER BY identity").fetchall() == before
        assert store.db.execute("SELECT * FROM rating_changes ORDER BY game_id, seat").fetchall() == changes
    finally:
        store.close()


def test_a_rating_that_could_not_be_written_is_caught_up_by_the_next_game(tmp_path, monkeypatch):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    records = bot.hub.ratings.records
    real = records.add_changes

    def broken(changes):
        raise OSError("disk full")

    monkeypatch.setattr(records, "add_changes", broken)
    out = play(bot, ["alice", "bob"], 0)
    assert any(s.startswith("Game over:") for s in said(out))
    assert "Ratings" not in text(out) and "Traceback" not in text(out)
    monkeypatch.setattr(records, "add_changes", real)
    line = next(s for s in said(play(bot, ["alice", "bob"], 0)) if s.startswith("Ratings"))
    assert text(bot.line("alice", "/stats")).startswith("alice at Count: 2 games, 2 wins")
    assert "alice " in line


def test_a_long_nick_asked_about_is_cut_short(tmp_path):
    bot = bot_at(tmp_path)
    answer = text(bot.line("alice", "/stats " + "x" * 300))
    assert answer == "x" * 32 + " has no rated games yet."


def test_a_web_nick_claim_renamed_by_its_browser_takes_its_record_along(tmp_path):
    bot = bot_at(tmp_path)
    count_started(bot, "alice", "bob", {"account": "alice"}, {"account": "bob"})
    bot.line("alice", "add 3", account="alice")
    bot.hub.identity.rename(NETWORK, User("alice", account="alice"), User("alicia", account="alicia"))
    assert text(bot.line("alicia", "/stats", account="alicia")).startswith("alicia at Count: 1 game, 1 win")
    # whoever claims the freed nick later starts afresh
    assert text(bot.line("alice", "/stats", account="alice")) == "alice has no rated games yet."


def test_logging_in_to_an_account_does_not_hand_it_the_bare_nicks_record(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 0)
    bot.hub.identity.rename(NETWORK, User("alice"), User("alice", account="alice"))
    assert bot.hub.ratings.standing(NETWORK, "count", "a:alice") is None
    assert bot.hub.ratings.standing(NETWORK, "count", "n:alice") is not None


def test_stats_with_only_a_game_name_shows_ones_own_record_in_it(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 1)
    assert text(bot.line("bob", "/stats count")).startswith("bob at Count: 1 game, 1 win (100%)")


def test_top_said_privately_names_the_game_of_the_table_one_sits_at(tmp_path):
    bot = bot_at(tmp_path)
    seat(bot, ["alice", "bob"])
    play(bot, ["alice", "bob"], 0)
    lines = told(bot.dm("bob", "/top"), "bob")[0].splitlines()
    assert lines[0].startswith("Best at Count") and lines[1].startswith("1. alice ")


def test_a_nick_change_on_irc_without_an_account_takes_the_record_along(tmp_path):
    bot = bot_at(tmp_path)
    mask = {"mask": "alice!al@home.example"}
    count_started(bot, "alice", "bob", mask, {"mask": "bob!b@elsewhere.example"})
    bot.line("alice", "add 3", **mask)
    bot.hub.identity.rename(NETWORK, User("alice", **mask), User("alice_", mask="alice_!al@home.example"))
    answer = text(bot.line("alice_", "/stats", mask="alice_!al@home.example"))
    assert answer.startswith("alice_ at Count: 1 game, 1 win")


def test_history_of_a_nick_lists_a_game_that_player_left(tmp_path):
    bot = bot_at(tmp_path)
    count_started(bot, "p1", "p2", {"account": "p1"})
    bot.line("p1", "add 1", account="p1")
    bot.line("p1", "/leave", account="p1")  # an AI plays on for p1; the game is not rated for p1
    assert text(bot.line("p2", "add 2")).startswith("p2 adds 2")
    own = text(bot.line("p1", "/history", account="p1"))
    assert own.startswith("game 1, ")
    assert text(bot.line("p2", "/history p1")) == own
