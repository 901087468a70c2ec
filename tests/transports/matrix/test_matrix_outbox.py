"""The Matrix transport's own decisions, without a homeserver: fair sending, 429s, contents."""

from __future__ import annotations

import pytest

pytest.importorskip("nio", reason="matrix-nio is not installed (pip install -e '.[matrix]')")

from bazaarbot.transports.matrix import content  # noqa: E402
from bazaarbot.transports.matrix.outbox import Board, Item, Outbox  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def drain(outbox: Outbox) -> list[tuple[str, str]]:
    sent = []
    while (item := outbox.take()) is not None:
        sent.append((item.room_id, item.text))
        outbox.done(item)
    return sent


def test_rooms_take_turns_so_one_long_answer_never_holds_up_another_table() -> None:
    outbox = Outbox()
    for n in range(3):
        outbox.put(Item("!a", f"a{n}", kind="pre"))
    outbox.put(Item("!b", "b0", kind="pre"))
    assert [room for room, _ in drain(outbox)] == ["!a", "!b", "!a", "!a"]


def test_a_429_pauses_every_room_and_its_event_is_sent_first_again() -> None:
    """A homeserver limits the account: another room tried meanwhile would only earn another 429."""
    clock = Clock()
    outbox = Outbox(clock)
    outbox.put(Item("!a", "first", kind="pre"))
    outbox.put(Item("!b", "other", kind="pre"))
    held = outbox.take()
    assert held is not None and held.room_id == "!a"
    held.tried = True
    outbox.hold("!a", 2.0)
    assert outbox.take() is None and outbox.wait() == pytest.approx(2.0)
    clock.now += 2.0
    again = outbox.take()
    assert again is held and again.text == "first" and outbox.retries == 1
    outbox.done(again)
    assert [room for room, _ in drain(outbox)] == ["!b"]


def test_rooms_refused_by_429s_go_first_in_the_order_they_were_refused() -> None:
    clock = Clock()
    outbox = Outbox(clock)
    for room in ("!a", "!b", "!c"):
        outbox.put(Item(room, room + "1", kind="pre"))
    refused = outbox.take()
    assert refused is not None and refused.room_id == "!a"
    outbox.hold("!a", 1.0)
    clock.now += 1.0
    again = outbox.take()
    assert again is refused
    outbox.hold("!a", 0.5)  # refused once more: it keeps its place
    clock.now += 0.5
    sent = outbox.take()
    assert sent is refused
    outbox.done(sent)
    outbox.put(Item("!a", "a2", kind="pre"))
    nxt = outbox.take()
    assert nxt is not None and nxt.room_id == "!b"
    outbox.hold("!b", 0.5)
    clock.now += 0.5
    assert [room for room, _ in drain(outbox)] == ["!b", "!c", "!a"]


def test_a_room_held_alone_lets_the_others_go() -> None:
    """While a player's direct room is opened, only their lines wait."""
    clock = Clock()
    outbox = Outbox(clock)
    outbox.put(Item("@bob:hs", "your hand", kind="pre"))
    outbox.put(Item("!a", "alice takes 2 spice.", kind="pre"))
    outbox.hold("@bob:hs", 5.0, limited=False)
    assert [room for room, _ in drain(outbox)] == ["!a"] and outbox.retries == 0
    assert outbox.wait() == pytest.approx(5.0)
    clock.now += 5.0
    assert [room for room, _ in drain(outbox)] == ["@bob:hs"]


def test_plain_lines_waiting_for_one_room_leave_as_one_event() -> None:
    outbox = Outbox()
    for text in ("alice takes 2 spice.", "bob to play."):
        outbox.put(Item("!a", text))
    outbox.put(Item("!a", "board", kind="pre"))
    assert drain(outbox) == [("!a", "alice takes 2 spice.\nbob to play."), ("!a", "board")]


def test_nothing_is_merged_into_an_event_that_was_already_tried() -> None:
    outbox = Outbox()
    outbox.put(Item("!a", "one"))
    first = outbox.take()
    assert first is not None
    first.tried = True  # it may have reached the homeserver: the retry must be the same event
    outbox.put(Item("!a", "two"))
    assert outbox.take() is first and first.text == "one"


def test_a_board_edit_not_sent_yet_takes_the_newer_board() -> None:
    outbox = Outbox()
    board = Board("!a", event_id="$board")
    outbox.put(Item("!a", "move 1", kind="pre"))
    outbox.put(Item("!a", "board 1", kind="edit", board=board))
    outbox.put(Item("!a", "board 2", kind="edit", board=board))
    assert drain(outbox) == [("!a", "move 1"), ("!a", "board 2")]


def test_listings_wait_behind_game_lines_and_are_dropped_when_asked_again() -> None:
    outbox = Outbox()
    outbox.put(Item("@bob:hs", "help 1", bulk=True))
    outbox.put(Item("!a", "alice takes 2 spice.", kind="pre"))
    assert outbox.take().room_id == "!a"  # type: ignore[union-attr]
    assert outbox.drop_bulk("@bob:hs") == 1 and len(outbox) == 1


def test_boards_and_hands_are_blocks_with_a_plain_fallback_and_escaped() -> None:
    sent = content.pre("Market: <b>gold</b> & 2 camels")
    assert sent["body"] == "Market: <b>gold</b> & 2 camels" and sent["msgtype"] == "m.notice"
    assert sent["formatted_body"] == "<pre><code>Market: &lt;b&gt;gold&lt;/b&gt; &amp; 2 camels</code></pre>"
    edited = content.edit("$board", "Market: 3 camels")
    assert edited["m.relates_to"] == {"rel_type": "m.replace", "event_id": "$board"}
    assert edited["m.new_content"]["body"] == "Market: 3 camels" and edited["body"].startswith("* ")
    assert edited["m.mentions"] == {}, "an edit alerts nobody"
    assert content.reaction("$line", "ok")["m.relates_to"] == {
        "rel_type": "m.annotation",
        "event_id": "$line",
        "key": "ok",
    }


def test_people_are_named_by_display_name_with_a_pill_and_the_id_only_where_names_clash() -> None:
    shown = {"@ann:hs": "Ann", "@bob:hs": "Bob (@bob:hs)", "@eve:hs": "@ann:hs", "@zed:hs": "@zed:hs"}
    sent = content.message("Game over: @ann:hs wins; @bob:hs, @eve:hs and @zed:hs.", name_of=shown.get)
    assert sent["body"] == "Game over: Ann wins; Bob (@bob:hs), @eve:hs and @zed:hs."
    assert '<a href="https://matrix.to/#/@ann:hs">Ann</a> wins' in sent["formatted_body"]
    assert sent["msgtype"] == "m.notice" and sent["m.mentions"] == {}, "naming somebody alerts nobody"
    stranger = content.message("@nobody:hs to play", name_of=shown.get)
    assert stranger["body"] == "@nobody:hs to play" and "formatted_body" not in stranger


def test_a_line_for_the_player_to_move_is_a_message_that_mentions_them() -> None:
    sent = content.message(
        "@ann:hs to play.", name_of={"@ann:hs": "Ann"}.get, mentions=["@ann:hs"], notify=True
    )
    assert sent["msgtype"] == "m.text" and sent["m.mentions"] == {"user_ids": ["@ann:hs"]}
    assert sent["body"] == "Ann to play."


def test_a_table_that_asked_for_colours_gets_its_goods_tinted_in_html_only() -> None:
    sent = content.plain("alice takes 2 camels & <gold>", colors=True)
    assert sent["body"] == "alice takes 2 camels & <gold>"
    assert sent["formatted_body"] == (
        'alice takes 2 <font color="#e08000" data-mx-color="#e08000">camels</font> &amp; '
        '&lt;<font color="#c09000" data-mx-color="#c09000">gold</font>&gt;'
    )
    assert "formatted_body" not in content.plain("alice takes 2 camels")
    assert "<font" in content.pre("Market: spice", colors=True)["formatted_body"]
    assert "<font" not in content.pre("Market: spice")["formatted_body"]


@pytest.mark.parametrize(
    ("sent", "line"),
    [
        ({"msgtype": "m.text", "body": "take 2 spice"}, "take 2 spice"),
        ({"msgtype": "m.notice", "body": "!join"}, None),  # another bot
        ({"msgtype": "m.emote", "body": "waves"}, None),
        ({"msgtype": "m.image", "body": "x.png"}, None),
        (
            {
                "msgtype": "m.text",
                "body": "* take camels",
                "m.relates_to": {"rel_type": "m.replace", "event_id": "$x"},
            },
            None,
        ),  # an edit of an earlier line is not a new move
        (
            {
                "msgtype": "m.text",
                "body": "> <@bazaarbot:hs> bob to play\n\ntake camels",
                "m.relates_to": {"m.in_reply_to": {"event_id": "$x"}},
            },
            "take camels",
        ),
    ],
)
def test_what_counts_as_a_typed_line(sent: dict[str, object], line: str | None) -> None:
    assert content.incoming_text(sent) == line


async def test_a_private_line_goes_only_to_the_identity_it_is_meant_for() -> None:
    from bazaarbot.config import MatrixAccount
    from bazaarbot.messages import Tell
    from bazaarbot.transports.matrix import MatrixTransport

    bot = MatrixTransport(
        MatrixAccount(name="m", homeserver="http://127.0.0.1:9", user_id="@bot:hs", password="x")
    )
    await bot.send(Tell("m", "@bob:hs", "Your hand: 2 gold", key="a:@alice:hs"))
    await bot.send(Tell("m", "bob", "Your hand: 2 gold"))  # not a Matrix user ID
    await bot.send(Tell("m", "#bazaar:hs", "Your hand: 2 gold"))
    assert len(bot.outbox) == 0
    await bot.send(Tell("m", "@alice:hs", "Your hand: 2 gold", key="a:@alice:hs"))
    assert list(bot.outbox.rooms) == ["@alice:hs"]  # her direct room, opened when it leaves


def test_an_event_counts_the_other_rooms_events_that_left_while_it_waited() -> None:
    """The fairness measure: how many events of other rooms went first, however slow the homeserver."""
    outbox = Outbox()
    for n in range(3):
        outbox.put(Item("!flood", f"f{n}", kind="pre"))
    outbox.put(Item("@fred:hs", "your hand", kind="pre"))
    outbox.put(Item("!calm", "carol joins", kind="pre"))
    assert [room for room, _ in drain(outbox)] == ["!flood", "@fred:hs", "!calm", "!flood", "!flood"]
    assert outbox.overtaken["!calm"] == 2 and outbox.overtaken["@fred:hs"] == 1


def test_an_answer_asked_twice_while_the_first_still_waits_is_known_to_wait() -> None:
    outbox = Outbox()
    outbox.put(Item("!a", "Seated: 1 ann, 2 bob. ann to play."))
    assert outbox.waiting("!a", "Seated: 1 ann, 2 bob. ann to play.")
    assert not outbox.waiting("!b", "Seated: 1 ann, 2 bob. ann to play.")
    item = outbox.take()
    assert item is not None
    item.tried = True  # on its way: a new ask is answered anew
    assert not outbox.waiting("!a", "Seated: 1 ann, 2 bob. ann to play.")
