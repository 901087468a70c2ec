"""Playing by buttons: the moves fit Discord's 25 buttons, grouped and paged, and a stale press is known."""

from __future__ import annotations

from bazaarbot.transports.discord import picker

CHANNEL = 123456789012345678


def test_few_moves_are_one_button_each_in_the_readers_words() -> None:
    commands = ["take spice", "sell 2 cloth", "take camels"]
    said = ["nimm Gewürz", "verkaufe 2 Stoff", "nimm Kamele"]
    buttons = picker.picker(CHANNEL, 7, 3, commands, said)
    assert [b.label for b in buttons] == said
    presses = [picker.parse(b.custom_id) for b in buttons]
    assert [p.index for p in presses if p] == [0, 1, 2]
    assert all(p and p.game_id == 7 and p.moves == 3 and p.channel_id == CHANNEL for p in presses)


def test_many_moves_are_grouped_by_verb_then_paged_within_25_buttons() -> None:
    commands = [f"exchange {n}" for n in range(47)] + [f"sell {n} cloth" for n in range(1, 4)]
    groups = picker.picker(CHANNEL, 1, 0, commands, commands)
    assert [b.label for b in groups] == ["exchange (47)", "sell (3)"]
    seen: list[int] = []
    press = picker.parse(groups[0].custom_id)
    assert press is not None and press.verb == "exchange"
    page = 0
    while True:
        buttons = picker.picker(CHANNEL, 1, 0, commands, commands, verb="exchange", page=page)
        assert len(buttons) <= 25 and all(len(b.custom_id) <= 100 for b in buttons)
        plays = [picker.parse(b.custom_id) for b in buttons if b.style == "primary"]
        seen += [p.index for p in plays if p and p.index is not None]
        ways = [picker.parse(b.custom_id) for b in buttons if b.style == "secondary"]
        forward = [w for w in ways if w and w.kind == picker.VERB and w.page > page]
        if not forward:
            break
        page = forward[0].page
    assert seen == list(range(47)), "every move on exactly one page"


def test_a_label_longer_than_discord_allows_is_shortened() -> None:
    assert len(picker.label("x" * 200)) == picker.LABEL_LIMIT


def test_a_foreign_or_malformed_custom_id_is_no_press() -> None:
    for custom in ("", "other:play:1:2:3:4", "bb:play:abc:1:2:3", "bb:play:1:x:2:3", "bb:unknown:1"):
        assert picker.parse(custom) is None


def test_the_boards_buttons_are_the_readers_hand_and_moves() -> None:
    hand, moves = picker.seat_buttons(CHANNEL, "Deine Hand", "Deine Züge")
    assert (hand.label, moves.label) == ("Deine Hand", "Deine Züge")
    assert picker.parse(hand.custom_id) == picker.Press(picker.HAND, CHANNEL)
