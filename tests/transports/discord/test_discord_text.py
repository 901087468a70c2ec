"""How the bot's lines read on Discord: names, mentions, code blocks and the 2,000-character limit."""

from __future__ import annotations

from bazaarbot.transports.discord import ids, text

NAMES = {1: "Alice", 2: "@everyone", 3: "`sneaky```", 4: "**bold**"}


def name_of(user_id: int) -> str:
    return NAMES.get(user_id, "?")


def test_the_person_to_act_is_a_mention_and_everybody_else_a_name() -> None:
    line = text.in_message("<@1> to play; <@4> waits.", name_of, pinged={1})
    assert line.startswith("<@1> to play")
    assert "<@4>" not in line and "\\*\\*bold\\*\\*" in line


def test_a_name_like_everyone_pings_nobody_in_a_message_or_a_block() -> None:
    said = text.in_message("<@2> joins.", name_of)
    assert "@everyone" not in said and "everyone" in said
    shown = text.in_block("Seats: <@2>, <@1>", name_of)
    assert "@everyone" not in shown and "Alice" in shown


def test_a_name_cannot_close_a_code_block() -> None:
    shown = text.block(text.in_block("Board\n<@3> 12 rupees\n```", name_of))
    assert shown.count("```") == 2, "only the block's own fences"


def test_a_room_is_a_channel_link_in_a_message_and_a_name_in_a_block() -> None:
    said = text.in_message("Your move at #123456789012345678.", name_of)
    assert said == "Your move at <#123456789012345678>."
    assert text.in_block("at #123456789012345678", name_of, room_of=lambda _: "bazaar") == "at #bazaar"


def test_long_text_is_cut_at_line_ends_into_messages_of_at_most_2000_characters() -> None:
    lines = [f"line {n}: " + " ".join(["cloth"] * (n % 30 + 1)) for n in range(300)]
    parts = text.pieces("\n".join(lines))
    assert len(parts) > 1 and all(len(part) <= text.MESSAGE_LIMIT for part in parts)
    assert "\n".join(parts).split("\n") == lines


def test_a_line_longer_than_a_message_is_cut_at_spaces() -> None:
    line = " ".join(["spice"] * 800)
    parts = text.pieces(line)
    assert all(len(part) <= text.MESSAGE_LIMIT for part in parts)
    assert " ".join(parts).split() == line.split()


def test_a_long_block_is_several_whole_code_blocks() -> None:
    body = "\n".join(f"row {n:03d} " + "." * 40 for n in range(120))
    parts = text.block_pieces(body)
    assert len(parts) > 1
    for part in parts:
        assert len(part) <= text.MESSAGE_LIMIT and part.startswith("```\n") and part.endswith("\n```")


def test_people_are_read_by_their_id_whatever_their_mention_style() -> None:
    assert text.people_in("<@1> and <@!4>") == {1, 4}
    assert ids.typed("!kick <@!42>") == "!kick <@42>"
    assert ids.user_id_of("<@42>") == 42 and ids.user_id_of("bob") is None
    assert ids.user_id_of("<@42>", "a:7") == 7, "the identity key outweighs the nick"
    assert ids.channel_id_of(ids.room_of(99)) == 99
