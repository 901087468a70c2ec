"""Every lobby rule: joining, hosts, starting, kicking, resetting, leaving mid-game."""

from __future__ import annotations

import pytest
from support.botdriver import Driver, said, text, told

from bazaarbot.text.commandmark import render


@pytest.fixture
def bot(tmp_path):
    return Driver(tmp_path / "bot.sqlite")


@pytest.fixture
def alice_and_bob_seated(bot: Driver) -> None:
    """alice (the host) and bob sit at the count table, in that order."""
    bot.script("alice: /join", "bob: /join")


def seated(bot: Driver) -> list[str]:
    return [s.nick for s in bot.table.seats]


def test_both_prefixes_and_addressing_work_for_table_commands(bot):
    bot.script("alice: /join", "bob: !JOIN", "carol: bazaarbot: join")
    assert seated(bot) == ["alice", "bob", "carol"]


def test_addressing_with_comma_and_mixed_case(bot):
    bot.line("alice", "BazaarBot, Join")
    assert seated(bot) == ["alice"]


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_first_to_join_is_host(bot):
    assert bot.table.host_nick() == "alice"


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_host_passes_on_when_host_leaves(bot):
    out = bot.line("alice", "/leave")
    assert bot.table.host_nick() == "bob"
    assert any("bob is now the host" in line for line in said(out))


def test_join_sends_a_private_line_at_once(bot):
    out = bot.line("alice", "/join")
    assert told(out, "alice") and "seat 1 at #t" in told(out, "alice")[0]


def test_join_twice_is_refused(bot):
    bot.line("alice", "/join")
    out = bot.line("alice", "/join")
    assert seated(bot) == ["alice"]
    assert "already" in text(out)


def test_join_a_chosen_seat(bot):
    bot.line("alice", "/join 2")
    bot.line("bob", "/join")
    assert [(s.number, s.nick) for s in bot.table.seats] == [(1, "bob"), (2, "alice")]


def test_join_a_taken_seat_names_the_free_ones(bot):
    bot.line("alice", "/join 2")
    out = bot.line("bob", "/join 2")
    assert "Seat 2 is taken" in text(out) and "1, 3" in text(out)


def test_join_a_seat_out_of_range_is_refused(bot):
    out = bot.line("alice", "/join 9")
    assert seated(bot) == [] and "seats 1 to 3" in text(out)


def test_join_a_full_table_is_refused(bot):
    for nick in ("a", "b", "c"):
        bot.line(nick, "/join")
    out = bot.line("d", "/join")
    assert "full" in text(out) and "d" not in seated(bot)


def test_start_below_minimum_says_why(bot):
    bot.line("alice", "/join")
    out = bot.line("alice", "/start")
    assert not bot.table.running
    assert "needs at least 2 players; 1 seated" in text(out)


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_start_by_non_host_is_refused(bot):
    out = bot.line("bob", "/start")
    assert not bot.table.running and "host (alice)" in text(out)


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_start_by_stranger_is_refused(bot):
    out = bot.line("eve", "/start")
    assert not bot.table.running and "seated player" in text(out)


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_start_deals_private_views_only_to_their_owners(bot):
    out = bot.line("alice", "/start")
    assert bot.table.running
    secrets = bot.table.state.secrets
    assert told(out, "alice") == [f"Your secret: {secrets[0]}"]
    assert told(out, "bob") == [f"Your secret: {secrets[1]}"]
    assert not any(str(s) in line for s in secrets for line in said(out))


def test_join_during_a_running_game_is_refused(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    out = bot.line("carol", "/join")
    assert "running" in text(out) and "carol" not in seated(bot)


def test_new_sets_game_options_and_seats_the_caller(bot):
    out = bot.line("alice", "/new count target=5")
    assert bot.table.options == {"target": 5} and seated(bot) == ["alice"]
    assert "At this table: the total that wins - 5." in text(out)  # an option in words, never ``target=5``


def test_new_with_unknown_option_lists_the_real_ones(bot):
    out = bot.line("alice", "/new count speed=9")
    assert "Unknown option" in text(out) and "target=10" in text(out)
    assert seated(bot) == []


def test_new_with_bad_option_value_says_what_works(bot):
    out = bot.line("alice", "/new count target=lots")
    assert "whole number" in text(out)


def test_new_unknown_game_lists_the_games(bot):
    out = bot.line("alice", "/new chess")
    assert "no game called chess" in text(out) and "count" in text(out)


def test_new_by_non_host_is_refused(bot):
    bot.line("alice", "/join")
    out = bot.line("bob", "/new count target=3")
    assert "Only the host" in text(out) and bot.table.options == {}


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_kick_by_host(bot):
    out = bot.line("alice", "/kick BOB")
    assert seated(bot) == ["alice"] and "removed" in text(out)


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_kick_by_ordinary_player_is_refused(bot):
    out = bot.line("bob", "/kick alice")
    assert seated(bot) == ["alice", "bob"] and "Only the host" in text(out)


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_kick_by_admin_account(bot):
    bot.line("mallory", "/kick bob", account="root")
    assert seated(bot) == ["alice"]


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_kick_by_admin_hostmask(bot):
    bot.line("mallory", "/kick bob", mask="mallory!m@admin.example")
    assert seated(bot) == ["alice"]


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_kick_by_channel_operator_the_transport_vouched_for(bot):
    bot.line("oper", "/kick bob", is_op=True)
    assert seated(bot) == ["alice"]


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_admin_is_never_a_bare_nick(bot):
    bot.line("root", "/kick bob")  # the admin account's name as a nick, without the account
    assert seated(bot) == ["alice", "bob"]


@pytest.mark.usefixtures("alice_and_bob_seated")
def test_reset_by_host_before_start_keeps_the_seats(bot):
    out = bot.line("alice", "/reset")
    assert seated(bot) == ["alice", "bob"] and "everybody stays seated" in text(out)


def test_reset_clear_by_host_before_start_empties_the_table(bot):
    bot.script("alice: /join", "bob: /join", "alice: /reset clear")
    assert seated(bot) == [] and bot.table.host == ""


def test_reset_of_running_game_by_an_admin_happens_at_once(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    game_id = bot.table.game_id
    bot.line("root", "/reset", account="root")
    assert not bot.table.running and seated(bot) == ["alice", "bob"]
    assert bot.hub.store.game_record(game_id)["status"] == "abandoned"
    bot.line("alice", "/start")
    assert bot.table.running and bot.table.game_id != game_id  # a new deal, same people


def test_reset_of_running_game_by_players_needs_everybodys_agreement(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    out = bot.line("alice", "/reset")
    assert bot.table.running and "bob: say /reset within 2 minutes" in text(out)
    assert "Only the players" in text(bot.line("carol", "/reset"))
    out = bot.line("bob", "/reset")
    assert not bot.table.running and "reset by agreement of alice, bob" in text(out)
    assert seated(bot) == ["alice", "bob"]


@pytest.mark.parametrize("turn_of_leaver", [True, False])
def test_leaving_a_running_game_hands_the_seat_to_an_ai_whoever_is_to_act(bot, turn_of_leaver):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    leaver = "alice" if turn_of_leaver else "bob"
    out = bot.line(leaver, "/leave")
    assert bot.table.running and "An AI (medium) now plays seat" in text(out)
    index = 0 if turn_of_leaver else 1
    assert bot.table.players[index].ai == "medium" and bot.table.players[index].nick == leaver
    assert leaver not in seated(bot) and len(seated(bot)) == 1


def test_kick_in_a_running_game_takes_the_same_leave_path(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start", "alice: /kick bob")
    assert bot.table.running and seated(bot) == ["alice"] and bot.table.players[1].ai == "medium"


def test_disconnect_takes_the_same_leave_path(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    from bazaarbot.messages import User

    out = bot.hub.identity.leave_now("test", None, User("bob").key)
    assert seated(bot) == ["alice"] and "bob is gone" in text(out) and bot.table.players[1].ai == "medium"


def test_status_in_lobby_and_game(bot):
    assert "nobody seated" in text(bot.line("alice", "/status"))
    bot.line("alice", "/join")
    bot.line("bob", "/join")
    assert "Seated: 1 alice, 2 bob" in text(bot.line("x", "/status"))
    bot.line("alice", "/start")
    assert "To act: alice" in text(bot.line("x", "/status"))


def test_unknown_command_gets_one_line_with_the_nearest_command(bot):
    out = bot.line("alice", "/strat")
    assert len(out) == 1 and "strat" in out[0].text and "/start" in render(out[0].text)


def test_channel_chatter_is_ignored_silently(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    assert bot.line("carol", "hello everyone") == []
    assert bot.line("alice", "nice weather") == []
    assert bot.line("carol", "add 2") == []  # a move word from a non-player is chatter too


def test_moves_by_private_message_reach_the_only_table(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    out = bot.dm("alice", "add 2")
    assert bot.table.state.total == 2 and "alice adds 2" in text(out)


def test_private_line_naming_the_channel(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    bot.dm("alice", "#t add 3")
    assert bot.table.state.total == 3


def test_moves_all_lists_every_command_privately(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    out = bot.line("alice", "/moves all")
    assert told(out, "alice") == ["add 1\nadd 2\nadd 3"] and not said(out)
    assert told(bot.line("bob", "/moves all"), "bob") == ["(no moves)"]


def test_wrong_turn_says_who_is_awaited(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    out = bot.line("bob", "add 1")
    assert "waiting for alice" in text(out) and bot.table.state.total == 0


def test_bad_move_is_refused_with_a_hint_and_changes_nothing(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    before = bot.hub.store.moves(bot.table.game_id)
    out = bot.line("alice", "add 7")
    assert told(out, "alice") == ["Say add 1, add 2 or add 3."]
    assert bot.table.state.total == 0 and bot.hub.store.moves(bot.table.game_id) == before


def test_game_over_line_names_the_winner_and_keeps_the_seats(bot):
    bot.script("alice: /new count target=3", "bob: /join", "alice: /start")
    out = bot.line("alice", "add 3")
    over = [line for line in said(out) if line.startswith("Game over:")]
    assert over and "alice wins" in over[0]
    assert not bot.table.running and seated(bot) == ["alice", "bob"]


def test_hand_is_resent_privately(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    out = bot.line("bob", "/hand")
    assert told(out, "bob") == [f"Your secret: {bot.table.state.secrets[1]}"] and not said(out)


def test_changed_private_view_is_resent_after_a_move(bot):
    bot.script("alice: /join", "bob: /join", "alice: /start")
    out = bot.line("alice", "add 1")
    assert told(out, "alice") == [f"Your secret: {bot.table.state.secrets[0]}"]
    assert told(out, "bob") == []


def test_nick_change_keeps_the_seat(bot):
    from bazaarbot.messages import User

    bot.script("alice: /join", "bob: /join", "alice: /start")
    bot.hub.identity.rename("test", User("alice"), User("alice_"))
    out = bot.line("alice_", "add 2")
    assert bot.table.state.total == 2 and bot.table.state.players[0] == "alice_"
    assert "alice_ adds 2" in text(out)


def test_tables_are_per_channel(bot):
    bot.line("alice", "/join", channel="#one")
    bot.line("bob", "/join", channel="#two")
    assert [s.nick for s in bot.hub.tables[("test", "#one")].seats] == ["alice"]
    assert [s.nick for s in bot.hub.tables[("test", "#two")].seats] == ["bob"]


def test_channel_names_are_case_insensitive(bot):
    bot.line("alice", "/join", channel="#Games")
    bot.line("bob", "/join", channel="#games")
    assert [s.nick for s in bot.hub.tables[("test", "#games")].seats] == ["alice", "bob"]


def test_games_rules_and_help(bot):
    assert "count (Count, 2-3 players)" in text(bot.line("alice", "/games"))
    assert "Take turns" in text(bot.line("alice", "/rules count"))
    assert "/join" in text(bot.line("alice", "/help"))
    assert "sit down" in text(bot.line("alice", "/help join"))
    assert "add 1" in text(bot.line("alice", "/help moves"))


def test_the_game_cannot_change_to_one_that_seats_fewer_than_are_seated(tmp_path):
    from bazaarbot.registry import discover
    from plugins.jaipur import GAME as JAIPUR

    bot = Driver(tmp_path / "bot.sqlite", games={"bazaar": discover()["bazaar"], "jaipur": JAIPUR})
    bot.script("alice: /new bazaar", "bob: /join", "alice: /addbot easy")
    out = bot.line("alice", "/new jaipur")
    assert told(out, "alice") == [
        "Jaipur takes at most 2 players and 3 would sit here: AI:easy must leave first"
        " (/leave, or /kick by the host)."
    ]
    assert bot.table.game_name == "bazaar", "nothing changed"
    out = bot.line("carol", "/new jaipur")
    assert bot.table.game_name == "bazaar"


def test_when_the_last_person_leaves_a_lobby_its_ais_leave_with_them(bot):
    bot.line("alice", "/join")
    bot.line("alice", "/addbot easy")
    out = bot.line("alice", "/leave")
    assert "Nobody is left to play with AI:easy, so they leave too." in said(out)
    assert seated(bot) == []
    bot.line("bob", "/new count")
    assert seated(bot) == ["bob"], "the next person opens a table without a /join of the AIs' table"
