"""Seats belong to a person: identity keys, one-time seat codes, the tables-per-nick bound (hub level)."""

from __future__ import annotations

import re
from dataclasses import replace

from support.botdriver import NETWORK, Driver, said, text, told

from bazaarbot.config import AdminPolicy, BotSettings, RateLimit, parse_config
from bazaarbot.messages import Tell, User

ALICE = {"mask": "alice!~a@home.example"}
ALICE_ELSEWHERE = {"mask": "alice!~a@cafe.example"}
MALLORY = {"mask": "alice!~m@evil.example"}


def seated_game(bot: Driver) -> str:
    """alice (bound to her host) and bob (a bare nick) play Count; alice's seat code."""
    out = bot.line("alice", "/join", **ALICE)
    code = re.search(r"/claim (\w+)", "\n".join(told(out, "alice")))
    assert code
    bot.line("bob", "/join")
    bot.line("alice", "/start", **ALICE)
    return code.group(1)


def test_a_seat_is_bound_to_nick_and_user_at_host() -> None:
    assert User("alice", mask="alice!~a@home.example").key == "m:alice!~a@home.example"
    assert User("alice", mask="alice!~m@evil.example").key != User("alice", mask="alice!~a@home.example").key
    assert User("alice", account="Alice", mask="alice!~a@home.example").key == "a:alice"
    assert User("alice").key == "n:alice"


def test_a_stranger_under_the_same_nick_has_no_hand_and_no_moves(store_target) -> None:
    bot = Driver(store_target)
    seated_game(bot)
    assert told(bot.line("alice", "/hand", **MALLORY)) == [
        "You are not playing a game at this table. A seat here is held by alice from another address; "
        "if it is yours, /claim <code> with the code I told you at /join."
    ]
    assert told(bot.dm("alice", "add 2", **MALLORY))[0].startswith("You sit at no table")
    assert bot.line("alice", "add 2", **MALLORY) == []
    assert bot.table.state.total == 0
    hand = bot.line("alice", "/hand", **ALICE)
    assert [m.key for m in hand if isinstance(m, Tell)] == ["m:alice!~a@home.example"]


def test_every_private_line_of_a_seat_names_its_owner(store_target) -> None:
    bot = Driver(store_target)
    bot.line("alice", "/join", **ALICE)
    bot.line("bob", "/join")
    start = bot.line("alice", "/start", **ALICE)
    keys = {m.nick: m.key for m in start if isinstance(m, Tell)}
    assert keys == {"alice": "m:alice!~a@home.example", "bob": "n:bob"}
    move = bot.line("alice", "add 1", **ALICE)
    assert [m.key for m in move if isinstance(m, Tell)] == ["m:alice!~a@home.example"]


def test_the_seat_code_is_told_only_to_seats_bound_to_a_host(store_target) -> None:
    bot = Driver(store_target)
    assert "/claim" in told(bot.line("alice", "/join", **ALICE))[0]
    assert "/claim" not in told(bot.line("bob", "/join"))[0]  # a vouched nick (console, web)
    carol = bot.line("carol", "/join", account="carol", mask="carol!~c@h")
    assert all("/claim" not in line for line in told(carol))  # a services account moves by itself


def test_the_owner_takes_the_seat_back_from_a_new_address_with_the_code(store_target) -> None:
    bot = Driver(store_target)
    code = seated_game(bot)
    out = bot.dm("alice", f"/claim {code}", **ALICE_ELSEWHERE)
    assert said(out) == ["alice takes seat 1 back."]
    private = told(out, "alice")
    assert private[0].startswith("Seat 1 at #t is yours again.") and "/claim" in private[0]
    assert private[1].startswith("Your secret")
    assert all(m.key == "m:alice!~a@cafe.example" for m in out if isinstance(m, Tell))
    assert bot.table.players[0].key == "m:alice!~a@cafe.example"
    assert said(bot.line("alice", "add 2", **ALICE_ELSEWHERE))
    assert bot.table.state.total == 2
    # the old address is a stranger now
    refusal = told(bot.line("alice", "/hand", **ALICE))[0]
    assert refusal.startswith("You are not playing a game at this table.")


def test_a_seat_code_works_once(store_target) -> None:
    bot = Driver(store_target)
    code = seated_game(bot)
    bot.dm("alice", f"/claim {code}", **ALICE_ELSEWHERE)
    refusal = told(bot.dm("alice", f"/claim {code}", **MALLORY))
    assert refusal == ["That code is not valid here (each code works once)."]
    assert bot.table.players[0].key == "m:alice!~a@cafe.example"


def test_a_wrong_or_missing_seat_code_changes_nothing(store_target) -> None:
    bot = Driver(store_target)
    seated_game(bot)
    assert told(bot.dm("alice", "/claim 0123456789", **MALLORY)) == [
        "That code is not valid here (each code works once)."
    ]
    assert told(bot.dm("alice", "/claim", **MALLORY)) == [
        "Use /claim <code>, the code I told you when you sat down."
    ]
    assert bot.table.players[0].key == "m:alice!~a@home.example"


def test_a_seat_code_for_ones_own_seat_or_when_seated_already_is_refused(store_target) -> None:
    bot = Driver(store_target)
    code = re.search(r"/claim (\w+)", told(bot.line("alice", "/join", **ALICE))[0])
    assert code
    assert told(bot.dm("alice", f"/claim {code.group(1)}", **ALICE)) == ["That seat is yours already."]
    bot.line("alice", "/join", **ALICE_ELSEWHERE)  # sat down again from the new address
    assert told(bot.dm("alice", f"/claim {code.group(1)}", **ALICE_ELSEWHERE)) == [
        "You already sit at #t; /leave that seat first."
    ]


def test_a_seat_code_survives_a_restart_and_follows_a_nick_change(store_target) -> None:
    bot = Driver(store_target)
    code = seated_game(bot)
    bot.hub.identity.rename(NETWORK, User("alice", **ALICE), User("alicia", mask="alicia!~a@home.example"))
    bot = bot.restart()
    out = bot.dm("alicia", f"/claim {code}", mask="alicia!~a@cafe.example")
    assert said(out) == ["alicia takes seat 1 back."]
    assert bot.table.players[0].key == "m:alicia!~a@cafe.example"


def test_only_a_hash_of_a_seat_code_is_stored(store_target) -> None:
    bot = Driver(store_target)
    code = seated_game(bot)
    rows = bot.hub.database.execute("SELECT * FROM seat_codes").fetchall()
    assert rows and code not in repr(rows)


def test_a_seat_code_is_gone_with_the_seat(store_target) -> None:
    bot = Driver(store_target)
    code = re.search(r"/claim (\w+)", told(bot.line("alice", "/join", **ALICE))[0])
    assert code
    bot.line("alice", "/leave", **ALICE)
    bot.line("bob", "/join")
    assert told(bot.dm("alice", f"/claim {code.group(1)}", **MALLORY))[0].startswith("That code is not valid")


def test_tables_a_nick_sits_at_are_bounded_and_the_bound_is_configurable(store_target) -> None:
    settings = BotSettings(default_game="count", max_tables=2, rate_limit=RateLimit(1000, 1))
    bot = Driver(store_target, settings=settings)
    assert said(bot.line("alice", "/join", channel="#a"))
    assert said(bot.line("alice", "/new count", channel="#b"))
    refusal = bot.line("alice", "/join", channel="#c")
    assert told(refusal) == ["You sit at 2 tables already, the limit; /leave one first."]
    assert told(bot.line("alice", "/new count", channel="#c")) == told(refusal)
    assert not bot.hub.tables[(NETWORK, "#c")].seats
    assert said(bot.line("bob", "/join", channel="#c"))  # another nick is not bound by alice's tables
    bot.line("alice", "/leave", channel="#a")
    assert said(bot.line("alice", "/join", channel="#c"))
    assert parse_config({"bot": {"max_tables": 3}}).bot.max_tables == 3
    assert BotSettings().max_tables == 10


def test_one_table_bound_says_table_not_tables(store_target) -> None:
    settings = replace(BotSettings(default_game="count"), max_tables=1)
    bot = Driver(store_target, settings=settings)
    bot.line("alice", "/join", channel="#a")
    assert told(bot.line("alice", "/join", channel="#b")) == [
        "You sit at 1 table already, the limit; /leave one first."
    ]


def test_channel_operators_are_not_admins_unless_configured(store_target) -> None:
    assert not AdminPolicy().ops_are_admins
    config = parse_config({"irc": {"networks": [{"name": "n", "host": "h"}]}})
    assert not config.irc[0].admins.ops_are_admins
    bot = Driver(store_target, admins=AdminPolicy())
    bot.line("alice", "/join")
    assert told(bot.line("mallory", "/reset", is_op=True))[0].startswith("Only the host (alice) or an admin")
    bot = Driver(store_target, admins=AdminPolicy(ops_are_admins=True))
    bot.line("alice", "/join")
    assert said(bot.line("mallory", "/reset", is_op=True))[0].startswith("The table is reset")


def test_a_seat_the_ai_plays_after_its_owner_left_is_claimed_back_with_the_code(store_target) -> None:
    bot = Driver(store_target)
    code = seated_game(bot)
    bot.hub.identity.leave_now(NETWORK, None, "m:alice!~a@home.example")  # the grace ran out: an AI stands in
    assert bot.table.players[0].ai is not None
    out = bot.dm("alice", f"/claim {code}", **ALICE_ELSEWHERE)
    assert "alice takes seat 1 back." in said(out)
    assert bot.table.players[0].ai is None and bot.table.players[0].key == "m:alice!~a@cafe.example"
    assert any(line.startswith("Your secret") for line in told(out, "alice"))


def test_claim_code_works_in_a_query_without_a_prefix(tmp_path) -> None:
    bot = Driver(tmp_path / "b.sqlite")
    code = seated_game(bot)
    bot.hub.identity.leave_now(NETWORK, None, "m:alice!~a@home.example")
    out = bot.dm("alice", f"claim {code}", **ALICE_ELSEWHERE)  # an IRC query window has no "!" habit
    assert "alice takes seat 1 back." in said(out)


def test_a_seat_code_said_in_the_channel_is_replaced_at_once_and_its_owner_told_privately(tmp_path) -> None:
    bot = Driver(tmp_path / "b.sqlite")
    code = seated_game(bot)
    out = bot.line("alice", f"/claim {code}", **ALICE)  # her own code, said where everybody reads it
    [note] = [line for line in told(out, "alice") if "said in a channel" in line]
    fresh = re.search(r"/claim (\w+)", note)
    assert fresh and fresh.group(1) != code
    out = bot.dm("mallory", f"/claim {code}", mask="mallory!~m@evil.example")
    assert "not valid" in text(out) and bot.table.players[0].key == "m:alice!~a@home.example"
    bot.hub.identity.leave_now(NETWORK, None, "m:alice!~a@home.example")
    out = bot.line("alice", f"/claim {fresh.group(1)}", **ALICE_ELSEWHERE)  # used up by this claim
    assert "alice takes seat 1 back." in said(out)
    assert any("say /claim privately" in line for line in told(out, "alice"))
