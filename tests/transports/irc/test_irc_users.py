"""The roster: accounts or nicks as identity, ops per channel, and the events the hub needs."""

from __future__ import annotations

from bazaarbot.messages import User
from bazaarbot.transports.irc.lines import parse
from bazaarbot.transports.irc.users import Left, Renamed, Returned, Roster


def feed(roster: Roster, *raws: str) -> list:
    events: list = []
    for raw in raws:
        line = parse(raw)
        assert line is not None
        events += roster.feed(line)
    return events


def roster_user(nick: str, user: str, host: str) -> User:
    return User(nick, None, f"{nick}!{user}@{host}", False)


def joined() -> Roster:
    roster = Roster("bot")
    feed(
        roster,
        ":s 001 bot :Welcome bot!~bot@host",
        ":s 005 bot PREFIX=(qaohv)~&@%+ CHANMODES=beI,k,l,imnpstcS CASEMAPPING=rfc1459 :are supported",
        ":bot!~bot@host JOIN #Bazaar",
        ":s 353 bot = #Bazaar :bot @+alice bob ~carol",
        ":s 366 bot #Bazaar :End of NAMES",
    )
    return roster


def test_names_with_multi_prefix_give_ops() -> None:
    roster = joined()
    assert roster.is_op("alice", "#bazaar")
    assert roster.is_op("carol", "#BAZAAR")  # founder counts as op
    assert not roster.is_op("bob", "#bazaar")
    assert roster.user("alice", "#bazaar").is_op
    assert not roster.user("alice", None).is_op


def test_mode_changes_follow_prefix_and_param_modes() -> None:
    roster = joined()
    feed(roster, ":carol!c@h MODE #bazaar +k-o+lc key alice 10")
    assert not roster.is_op("alice", "#bazaar")
    feed(roster, ":carol!c@h MODE #bazaar +o-v+b bob alice *!*@spam")
    assert roster.is_op("bob", "#bazaar")
    feed(roster, ":s 324 bot #bazaar +nt")
    feed(roster, ":carol!c@h MODE #bazaar +lc 10")
    assert roster.channel_modes("#bazaar") == {"n", "t", "l", "c"}


def test_key_and_op_in_one_mode_line() -> None:
    roster = joined()
    feed(roster, ":alice!a@h MODE #bazaar +ko secret bob")
    assert roster.is_op("bob", "#bazaar")


def test_channel_mode_reply() -> None:
    roster = joined()
    assert roster.channel_modes("#bazaar") is None  # not asked yet
    feed(roster, ":s 324 bot #bazaar +ntS")
    assert roster.channel_modes("#bazaar") == {"n", "t", "S"}


def test_nick_change_is_a_rename_and_keeps_ops() -> None:
    roster = joined()
    events = feed(roster, ":alice!~a@host NICK :Alicia")
    assert events == [Renamed(roster_user("alice", "~a", "host"), roster.user("Alicia"))]
    assert roster.is_op("alicia", "#bazaar") and not roster.in_channel("alice", "#bazaar")


def test_part_quit_and_kick_are_leaves() -> None:
    roster = joined()
    assert feed(roster, ":bob!b@h PART #bazaar :bye") == [Left("#bazaar", roster_user("bob", "b", "h"))]
    assert not roster.in_channel("bob", "#bazaar")
    feed(roster, ":bob!b@h JOIN #bazaar")
    assert feed(roster, ":bob!b@h QUIT :gone") == [Left(None, roster_user("bob", "b", "h"))]
    carol = roster.user("carol")
    assert feed(roster, ":alice!a@h KICK #bazaar carol :out") == [Left("#bazaar", carol)]


def test_join_is_a_return() -> None:
    roster = joined()
    events = feed(roster, ":dave!d@h JOIN #bazaar")
    assert events == [Returned("#bazaar", roster.user("dave"))]
    assert roster.user("dave").mask == "dave!d@h"


def test_accounts_from_extended_join_tags_and_account_notify() -> None:
    roster = joined()
    feed(roster, ":erin!e@h JOIN #bazaar erinacct :Erin")
    assert roster.user("erin").account == "erinacct"
    assert roster.user("erin").key == "a:erinacct"
    feed(roster, "@account=bobacct :bob!b@h PRIVMSG #bazaar :hi")
    assert roster.user("bob").account == "bobacct"
    events = feed(roster, ":frank!f@h JOIN #bazaar * :Frank", ":frank!f@h ACCOUNT frankacct")
    assert isinstance(events[-1], Renamed)
    assert events[-1].old.key == "m:frank!f@h" and events[-1].new.key == "a:frankacct"
    assert feed(roster, ":frank!f@h ACCOUNT *") == []
    assert roster.user("frank").account is None


def test_who_and_whox_replies_fill_masks_and_modes() -> None:
    roster = joined()
    feed(roster, ":s 352 bot #bazaar ~b bhost irc.test bob H@ :0 Bob")
    assert roster.user("bob").mask == "bob!~b@bhost" and roster.is_op("bob", "#bazaar")
    feed(roster, ":s 354 bot 42 #bazaar ~c chost carol H bobsacct")
    assert roster.user("carol").account == "bobsacct" and not roster.is_op("carol", "#bazaar")


def test_casemapping_rfc1459() -> None:
    roster = joined()
    feed(roster, ":s 353 bot = #bazaar :[dan]")
    assert roster.in_channel("{DAN}", "#bazaar")


def test_own_nick_change_and_part() -> None:
    roster = joined()
    assert feed(roster, ":bot!~bot@host NICK bot2") == []
    assert roster.me == "bot2"
    feed(roster, ":bot2!~bot@host PART #bazaar")
    assert roster.channel("#bazaar") is None


def test_a_new_host_for_the_same_connection_moves_the_seat_with_it() -> None:
    roster = joined()
    feed(roster, ":gina!g@plain.host JOIN #bazaar")
    events = feed(roster, ":gina!g@plain.host CHGHOST g gina.cloak")
    assert events == [Renamed(roster_user("gina", "g", "plain.host"), roster_user("gina", "g", "gina.cloak"))]
    assert events[0].new.key == "m:gina!g@gina.cloak"


def test_a_nick_held_from_another_host_holds_nothing_of_the_owners() -> None:
    roster = joined()
    feed(roster, ":hal!h@home JOIN #bazaar")
    assert roster.holds("hal", "m:hal!h@home")
    feed(roster, ":hal!h@home QUIT :bye", ":hal!m@evil JOIN #bazaar")
    assert not roster.holds("hal", "m:hal!h@home")
    assert roster.holds("hal", "m:hal!m@evil")
    assert not roster.holds("nobody", "m:nobody!n@h")  # unknown: nothing private goes there
    assert roster.holds("anyone", "n:anyone")  # a bare nick key is the nick
    assert roster.present("#bazaar", "hal", "m:hal!m@evil")
    assert not roster.present("#bazaar", "hal", "m:hal!h@home")
