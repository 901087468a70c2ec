"""What Yspahan players type: the grammar, aliases, canonical forms, and refusals that teach."""

from __future__ import annotations

import pytest

from bazaarbot.plugin import MoveError
from plugins.yspahan import GAME
from plugins.yspahan import rules as R
from plugins.yspahan.board import SPACE_INDEX
from plugins.yspahan.cards import BAZAAR, EXCHANGE, GOLD3, HAMMAM, SOUK_CUBE
from plugins.yspahan.scenario import full_tower_game, new_game, play, put, set_tower, shop_of


def parse(st, text, seat=None):
    return GAME.parse(st, GAME.to_act(st)[0] if seat is None else seat, text)


def parse_error(st, text) -> str:
    with pytest.raises(MoveError) as err:
        parse(st, text)
    return err.value.message


@pytest.fixture
def tower_state():
    """Ann to act: camels 3x1, sacks 2x2, barrels 1x3, chests 1x4, vases 1x5, gold 1x6; supervisor at X."""
    st = full_tower_game()
    st.hands[0] = [GOLD3, SOUK_CUBE]
    st.pile.remove(GOLD3)
    st.pile.remove(SOUK_CUBE)
    return st


@pytest.mark.parametrize(
    "text",
    [
        "take camels",
        "Move 4 west",
        "roll",
        "yellow 2",
        "let go",
        "protect",
        "done",
        "play gold3",
        "card 4",
        "first vase1",
        "draw",
        "move",
    ],
)
def test_is_move_accepts_game_verbs(text):
    assert GAME.is_move(text)


@pytest.mark.parametrize(
    "text",
    [
        "hello all",
        "",
        "   ",
        "nice move!",
        "taking a break",
        "lol",
        "let me think",
        "first of all",
        "pass the salt please",
    ],
)
def test_is_move_ignores_chatter(text):
    assert not GAME.is_move(text)


def test_issue_examples_parse(tower_state):
    st = tower_state
    assert parse(st, "take camels") == (R.A_TAKE, 0)
    assert parse(st, "take gold") == (R.A_TAKE, 5)
    assert parse(st, "deliver sacks") == (R.A_TAKE, 1)
    assert parse(st, "move 4 west") == (R.A_MOVE, 3, SPACE_INDEX["w4"])
    assert parse(st, "move 5 south +1") == (R.A_MOVE, 4, SPACE_INDEX["s6"])
    assert parse(st, "move 5 north -1") == (R.A_MOVE, 4, SPACE_INDEX["n4"])
    assert "road ends" in parse_error(st, "move 5 north +1")
    assert parse(st, "move 3 east -1") == (R.A_MOVE, 2, SPACE_INDEX["e2"])
    assert parse(st, "play gold3") == (R.A_PLAY, GOLD3, 0, 0)
    assert parse(st, "play souk_cube chest4") == (R.A_PLAY, SOUK_CUBE, shop_of("chest4"), 0)
    assert parse(st, "extra gold3") == (R.A_EXTRA, GOLD3)
    assert parse(st, "card 4") == parse(st, "draw 4") == (R.A_DRAW, 3)
    assert parse(st, "done") == parse(st, "pass") == (R.A_DONE,)
    assert parse(st, "protect") == (R.A_PROTECT, 1) and parse(st, "let go") == (R.A_PROTECT, 0)
    assert parse(st, "build hoist") == (R.A_BUILD, 5, -1, -1)


def test_let_needs_go():
    st = new_game(3)
    assert "let go" in parse_error(st, "let it be")


def test_roll_and_yellow_zero_are_the_same():
    st = new_game(3)
    assert parse(st, "roll") == parse(st, "yellow 0") == (R.A_YELLOW, 0)
    assert parse(st, "yellow 2") == (R.A_YELLOW, 2)
    assert "how many yellow" in parse_error(st, "yellow")


def test_dice_groups_by_value_or_field_word(tower_state):
    st = tower_state
    assert parse(st, "move sacks west") == parse(st, "move 2 west")
    assert parse(st, "draw gold") == parse(st, "draw 6")
    assert parse(st, "take 1") == parse(st, "take camels")


def test_move_through_the_crossing_with_a_turn(tower_state):
    st = tower_state
    st.sup = SPACE_INDEX["w2"]
    assert parse(st, "move 6 east then north") == (R.A_MOVE, 5, SPACE_INDEX["n4"])
    assert parse(st, "move 6 e then n") == parse(st, "move 6 east then north")
    assert parse(st, "move 4 to n2") == (R.A_MOVE, 3, SPACE_INDEX["n2"])


def test_move_from_the_crossing_takes_one_direction(tower_state):
    st = tower_state
    assert "give just one direction" in parse_error(st, "move 4 north then east")
    assert parse(st, "move 4 north") == (R.A_MOVE, 3, SPACE_INDEX["n4"])


def test_move_of_zero_forms(tower_state):
    st = tower_state
    assert parse(st, "move 4 -4") == parse(st, "move 4 stay") == (R.A_MOVE, 3, st.sup)


def test_canonical_move_commands_name_direction_turn_and_change(tower_state):
    st = tower_state
    st.sup = SPACE_INDEX["w2"]
    st.gold[0] = 5
    commands = GAME.legal_commands(st, 0)
    for text in ("move 4 east then south", "move 4 west", "move 4 east +1", "move 1 -1", "move 6 west -2"):
        assert text in commands
    assert "move 4 east then east" not in commands


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("move 4", "Give a direction"),
        ("move 4 sideways", "e.g. move 4 west"),
        ("move 4 west -5", "below 0"),
        ("move 7 west", "No dice showing 7"),
        ("move 4 to s5 +0", "S5 is 5 spaces away, not 4"),
    ],
)
def test_move_errors_teach_the_syntax(tower_state, text: str, says: str):
    assert says in parse_error(tower_state, text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("play joker", "Cards: camels3, gold3"),
        ("build palace", "Buildings: paddock, shop"),
        ("play souk_cube tent9", "Souks: sack3"),
        ("take ducks", "value (e.g. 4) or field"),
        ("take", "take camels, take gold, deliver sacks"),
    ],
)
def test_unknown_words_list_what_exists(tower_state, text: str, says: str):
    assert says in parse_error(tower_state, text)


def test_card_ids_typeable_with_or_without_underscores(tower_state):
    st = tower_state
    assert (
        parse(st, "play soukcube chest4")
        == parse(st, "play souk-cube chest4")
        == parse(st, "play SOUK_CUBE chest4")
    )


def test_building_aliases(tower_state):
    st = tower_state
    assert parse(st, "build market")[1] == BAZAAR and parse(st, "build badehaus")[1] == HAMMAM


def test_place_in_a_souk_without_inner_shops_asks_for_the_road_space():
    st = set_tower(new_game(3), {"sacks": (2, 2), "gold": (6, 2)})
    play(st, "deliver sacks")
    msg = parse_error(st, "place sack3")
    assert "place sack3 W3" in msg and "place sack3 S2" in msg
    assert "its road shops are at W3, W1/S1, S2" in parse_error(st, "place sack3 E4")
    assert parse(st, "place sack3 S1") == parse(st, "place sack3 W1")


def test_first_names_a_waiting_souk():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    put(st, 1, "barrel2 E1")
    put(st, 2, "vase1")
    play(st, "move 1 east")
    assert "first barrel2 or first vase1" in parse_error(st, "first")
    assert "No cube of sack3" in parse_error(st, "first sack3")


def test_exchange_phrasings():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    assert (
        parse(st, "play exchange 2 gold")
        == parse(st, "play exchange 2 gold for camels")
        == (R.A_PLAY, EXCHANGE, 2, 0)
    )
    assert parse(st, "play exchange 1 camels for gold") == (R.A_PLAY, EXCHANGE, 1, 1)
    assert "what you give" in parse_error(st, "play exchange")


def test_two_player_build_needs_a_group():
    st = set_tower(new_game(2), {"camels": (1, 1), "gold": (6, 1)}, seat=0)
    assert "build hoist with 4" in parse_error(st, "build hoist")
    assert parse(st, "build hoist with 6") == parse(st, "build hoist gold") == (R.A_BUILD, 5, 5, -1)


def test_refusal_names_whose_turn_it_is(tower_state):
    st = tower_state
    with pytest.raises(MoveError, match="Not your decision now - Ann: pick dice"):
        GAME.apply(st, 1, GAME.parse(st, 1, "take camels"))


def test_refusals_leave_the_state_untouched(tower_state):
    st = tower_state
    before = GAME.to_json(st)
    for text in (
        "done",
        "build paddock",
        "place sack5",
        "yellow 1",
        "move 6 west +9",
        "play gold_for_vp 3",
        "stop",
    ):
        with pytest.raises(MoveError):
            GAME.apply(st, 0, GAME.parse(st, 0, text))
        assert GAME.to_json(st) == before


def test_every_canonical_command_parses_back_to_its_action(tower_state):
    st = tower_state
    st.gold[0] = 4
    for action, text in zip(R.legal(st), GAME.legal_commands(st, 0), strict=True):
        assert parse(st, text) == action


def test_command_help_teaches_every_verb():
    for verb in (
        "roll",
        "yellow",
        "take camels",
        "deliver",
        "move",
        "then",
        "draw",
        "place",
        "first",
        "protect",
    ):
        assert verb in GAME.command_help
    for verb in ("let go", "build", "play", "extra", "done", "souk_cube", "exchange", "gold_for_vp"):
        assert verb in GAME.command_help
    assert all(len(line) < 300 for line in GAME.command_help.splitlines())
