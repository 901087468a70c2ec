"""What players type: verbs, aliases in three languages, exchanges, refusals, canonical commands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bazaarbot.plugin import MoveError
from plugins.jaipur import GAME
from plugins.jaipur import random_play as RP
from plugins.jaipur import rules as R
from plugins.jaipur.cards import CLOTH, DIAMOND, GOLD, LEATHER, SILVER, SPICE
from plugins.jaipur.render import format_action
from plugins.jaipur.scenario import build_state


def parse(state, text, seat=None):
    return GAME.parse(state, state.turn if seat is None else seat, text)


def refusal(state, text, seat=None) -> str:
    with pytest.raises(MoveError) as err:
        parse(state, text, seat)
    return err.value.message


@pytest.fixture
def market_state():
    """A market with two spice, diamond, leather and a camel; alice holds cloth, gold, 2 silver, 2 camels."""
    return build_state("2 spice diamond leather camel", ["cloth gold 2 silver"], herds=(2, 0))


# --- is_move ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "take diamond",
        "TAKE Diamond",
        "!take spice",
        "t spice",
        "sell 3 cloth",
        "s cloth",
        "camels",
        "Kamele",
        "camellos",
        "nimm Diamanten",
        "verkaufe 3 Tuch",
        "tomar oro",
        "vender 3 tela",
        "swap 2 spice for 2 camels",
    ],
)
def test_is_move_accepts_game_verbs_and_aliases(text):
    assert GAME.is_move(text)


@pytest.mark.parametrize(
    "text", ["hello all", "taken already?", "selling soon", "", "   ", "pass", "lol take"]
)
def test_is_move_ignores_chatter(text):
    assert not GAME.is_move(text)


# --- goods names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "good"),
    [
        ("diamond", DIAMOND),
        ("diamonds", DIAMOND),
        ("dia", DIAMOND),
        ("Diamanten", DIAMOND),
        ("diamantes", DIAMOND),
        ("gold", GOLD),
        ("Gold", GOLD),
        ("oro", GOLD),
        ("silver", SILVER),
        ("Silber", SILVER),
        ("plata", SILVER),
        ("cloth", CLOTH),
        ("Tuch", CLOTH),
        ("tela", CLOTH),
        ("spice", SPICE),
        ("spices", SPICE),
        ("Gewürze", SPICE),
        ("especias", SPICE),
        ("leather", LEATHER),
        ("Leder", LEATHER),
        ("cuero", LEATHER),
    ],
)
def test_goods_names_in_english_german_spanish_and_short_forms(word, good):
    market = ["diamond", "gold", "silver", "cloth", "spice", "leather"][good]
    state = build_state(f"{market} 4 camels", [f"3 {market}"])
    assert parse(state, f"take {word}") == (R.TAKE, good)
    assert parse(state, f"sell 3 {word}") == (R.SELL, good, 3)


@pytest.mark.parametrize(
    "text",
    [
        "take camels",
        "take camel",
        "camels",
        "camel",
        "take Kamele",
        "nimm Kamel",
        "tomar camellos",
        "camello",
    ],
)
def test_take_camels_in_every_spelling(text):
    state = build_state("diamond spice 3 camels", ["cloth"])
    assert parse(state, text) == (R.CAMELS,)


def test_take_one_good_forms(market_state):
    forms = ("take diamond", "take 1 diamond", "take a diamond", "take one diamond", "t dia", "get diamond")
    for text in forms:
        assert parse(market_state, text) == (R.TAKE, DIAMOND)


# --- exchanges ----------------------------------------------------------------------------


def test_exchange_forms(market_state):
    two_for_two = (R.EXCHANGE, (0, 0, 0, 0, 2, 0), (0, 0, 0, 0, 0, 0, 2))
    for text in (
        "take 2 spice give 2 camels",
        "take spice spice give camel camel",
        "swap 2 camels for 2 spice",
        "take 2 spices for 2 camels",
        "tausche 2 Kamele gegen 2 Gewürze",
        "cambiar 2 camellos por 2 especias",
        "take 2 spice",
    ):
        assert parse(market_state, text) == two_for_two, text
    mixed = (R.EXCHANGE, (0, 0, 0, 0, 1, 1), (0, 0, 0, 1, 0, 0, 1))
    for text in ("take spice leather give cloth camel", "take spice, leather for cloth and camel"):
        assert parse(market_state, text) == mixed


def test_plain_take_of_several_goods_pays_with_camels_when_possible(market_state):
    play_state = GAME.clone(market_state)
    GAME.apply(play_state, 0, parse(play_state, "take 2 spice"))
    assert play_state.herds[0] == 0 and play_state.hands[0][SPICE] == 2


def test_plain_take_of_several_goods_without_enough_camels_lists_what_works():
    state = build_state("2 spice diamond leather camel", ["cloth gold"], herds=(1, 0))
    message = refusal(state, "take 2 spice")
    assert "only 1 camel)" in message
    assert "take 2 spice give cloth camel" in message and "take 2 spice give gold cloth" in message


def test_plain_take_of_several_goods_over_the_hand_limit_lists_what_works():
    state = build_state("2 spice diamond leather camel", ["cloth gold 2 silver 2 leather"], herds=(3, 0))
    message = refusal(state, "take 2 spice")
    assert "over 7" in message
    assert "take 2 spice give 2 camels" not in message
    assert "take 2 spice give cloth camel" in message
    for shown in message.split(": ", 1)[1].rstrip(".").split("; "):
        command = shown.split(" (+")[0]
        GAME.apply(GAME.clone(state), 0, parse(state, command))


def test_plain_take_with_nothing_to_give_back_explains():
    state = build_state("2 spice diamond leather camel", [""], herds=(1, 0))
    message = refusal(state, "take 2 spice")
    assert "give back 2 cards" in message and "1 camel." in message


def test_plain_take_of_goods_the_market_lacks_says_so(market_state):
    assert "not 3 spice" in refusal(market_state, "take 3 spice")


# --- sales ------------------------------------------------------------------------------


def test_sell_forms():
    state = build_state("5 camels", ["3 cloth 2 gold"])
    assert parse(state, "sell 3 cloth") == (R.SELL, CLOTH, 3)
    assert parse(state, "sell 2 cloth") == (R.SELL, CLOTH, 2)
    assert parse(state, "sell cloth") == (R.SELL, CLOTH, 3)
    assert parse(state, "sell all cloth") == (R.SELL, CLOTH, 3)
    assert parse(state, "s three cloth") == (R.SELL, CLOTH, 3)
    assert parse(state, "verkaufe 3 Tuch") == (R.SELL, CLOTH, 3)
    assert parse(state, "vender tela") == (R.SELL, CLOTH, 3)
    assert parse(state, "sell gold") == (R.SELL, GOLD, 2)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("sell spice", "no spice"),
        ("sell 4 cloth", "only 3 cloth"),
        ("sell diamond", "two or more at a time"),
        ("sell camels", "Camels cannot be sold"),
        ("sell", "Sell what"),
        ("sell 0 cloth", "at least one"),
    ],
)
def test_sell_refusals_say_why(text: str, says: str):
    state = build_state("5 camels", ["3 cloth diamond"], herds=(2, 0))
    assert says in refusal(state, text)


# --- syntax errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("take banana", "I don't know the good 'banana'"),
        ("take 2", "needs a good"),
        ("take", "Take what"),
        ("take 2 spice give", "Give what"),
        ("take 2 3 spice", "after each number"),
        ("hello", "start with"),
    ],
)
def test_unknown_words_and_dangling_numbers_are_explained(market_state, text: str, says: str):
    assert says in refusal(market_state, text)


def test_refusals_are_short_single_lines(market_state):
    texts = ("take banana", "take 2 spice give cloth", "take gold", "sell 9 cloth", "take spice give camel")
    for text in texts:
        message = refusal(market_state, text)
        assert "\n" not in message and len(message) < 300


# --- legal_commands ---------------------------------------------------------------------


def test_legal_commands_use_the_canonical_forms():
    state = build_state(
        "diamond 2 spice leather camel", ["3 cloth gold spice", "leather"], herds=(2, 0), deck="silver " * 3
    )
    commands = GAME.legal_commands(state, 0)
    for expected in (
        "take diamond",
        "take camels",
        "sell 3 cloth",
        "sell 1 cloth",
        "take 2 spice give 2 camels",
        "take spice leather give cloth camel",
    ):
        assert expected in commands
    assert GAME.legal_commands(state, 1) == []


def random_positions(rng: random.Random, games: int, most_actions: int):
    """A running position of each of ``games`` seeded games, after up to ``most_actions`` random actions."""
    for seed in range(games):
        state = GAME.setup(["a", "b"], random.Random(seed), {})
        for _ in range(rng.randrange(0, most_actions)):
            if state.over:
                break
            R.play(state, RP.random_action(state, rng))
        if not state.over:
            yield state


def test_every_legal_command_is_unique_round_trips_and_is_accepted():
    rng = random.Random(11)
    checked = 0
    for state in random_positions(rng, 25, 30):
        seat = state.turn
        actions = R.legal_actions(state)
        commands = GAME.legal_commands(state, seat)
        assert len(set(commands)) == len(commands) == len(actions)
        for action, command in zip(actions, commands, strict=True):
            assert GAME.parse(state, seat, command) == action
            assert format_action(action) == command
            GAME.apply(GAME.clone(state), seat, GAME.parse(state, seat, command))
            checked += 1
    assert checked > 200


def test_brief_moves_is_one_short_line():
    state = build_state("diamond 2 spice leather camel", ["3 cloth gold spice"], herds=(2, 0))
    brief = GAME.brief_moves(state, 0)
    assert "\n" not in brief and len(brief) < 300
    assert "take one: diamond, spice, leather" in brief
    assert "take camels (1)" in brief and "exchange:" in brief and "1-3 cloth" in brief
    assert GAME.brief_moves(state, 1) == "(no moves)"


def test_parse_is_deterministic():
    state = build_state("diamond 2 spice leather camel", ["3 cloth gold spice"], herds=(2, 0))
    for text in ("take 2 spice", "sell cloth", "take spice leather give cloth camel"):
        assert parse(state, text) == parse(GAME.from_json(GAME.to_json(state)), text)


def test_two_people_play_a_full_match_by_typing():
    """Typed commands only (as a chat table would), until someone holds two seals."""
    state = GAME.setup(["alice", "bob"], random.Random(2024), {})
    rng = random.Random(5)
    lines = 0
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        commands = GAME.legal_commands(state, seat)
        sells = [c for c in commands if c.startswith("sell")]
        command = rng.choice(sells if sells and rng.random() < 0.4 else commands)
        assert GAME.is_move(command)
        out = GAME.apply(state, seat, GAME.parse(state, seat, command))
        assert out.public
        lines += 1
    result = GAME.result(state)
    assert sorted(result.scores.values())[-1] == 2 and lines > 10


def _respell(command: str, rng: random.Random) -> str:
    """The same command as a German, Spanish or terse player might type it."""
    from plugins.jaipur.cards import CARD_ALIASES

    aliases: dict[int, list[str]] = {}
    for word, card in CARD_ALIASES.items():
        aliases.setdefault(card, []).append(word)
    verbs = {
        "take": ["take", "t", "nimm", "tomar", "TAKE"],
        "give": ["give", "for", "gegen", "por"],
        "sell": ["sell", "s", "verkaufe", "vender"],
    }
    words = []
    for word in command.split():
        if word in verbs:
            words.append(rng.choice(verbs[word]))
        elif word.isdigit():
            words.append(word)
        else:
            words.append(rng.choice(aliases[CARD_ALIASES[word]]))
    return " ".join(words)


def test_every_legal_command_respelled_in_other_languages_means_the_same():
    rng = random.Random(21)
    checked = 0
    for state in random_positions(rng, 15, 40):
        seat = state.turn
        for command in GAME.legal_commands(state, seat):
            respelled = _respell(command, rng)
            assert GAME.is_move(respelled)
            assert GAME.parse(state, seat, respelled) == GAME.parse(state, seat, command), respelled
            checked += 1
    assert checked > 150


def test_a_player_typing_out_of_turn_is_told_whose_turn_it_is(market_state):
    for text in ("take 2 spice", "sell cloth", "take banana", "take diamond"):
        assert "alice's turn" in refusal(market_state, text, seat=1)


def test_articles_count_as_one_and_absurd_numbers_are_refused_politely():
    state = build_state("5 camels", ["3 cloth"])
    assert parse(state, "sell a cloth") == (R.SELL, CLOTH, 1)
    assert "only 3 cloth" in refusal(state, "sell 999 cloth")
    assert "I don't know" in refusal(state, "sell " + "9" * 5000 + " cloth")


_WORDS = [
    "take",
    "sell",
    "give",
    "camels",
    "2",
    "3",
    "spice",
    "diamond",
    "gold",
    "all",
    "for",
    "x2",
    "0",
    "-1",
    "!",
    ",",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS) | st.text(max_size=8), max_size=8))
def test_any_text_is_either_a_legal_move_or_a_move_error(words):
    state = build_state("2 spice diamond leather camel", ["cloth gold 2 silver"], herds=(2, 0))
    before = GAME.to_json(state)
    text = " ".join(words)
    try:
        action = GAME.parse(state, 0, text)
    except MoveError as err:
        assert err.message and "\n" not in err.message
        assert GAME.to_json(state) == before
        return
    GAME.apply(state, 0, action)
