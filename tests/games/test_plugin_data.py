"""The structured views each game hands to the drawn web table: contents and secrecy."""

from __future__ import annotations

import json
import random

from bazaarbot.registry import discover

GAMES = discover()


def _start(name: str, players: int = 2, seed: int = 3):
    game = GAMES[name]
    defaults = {o.name: o.default for o in game.options}
    return game, game.setup([f"p{i}" for i in range(players)], random.Random(seed), defaults)


def _play(game, state, steps: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.result(state) is not None:
            return
        seat = game.to_act(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        game.apply(state, seat, game.parse(state, seat, command))


def test_jaipur_public_data_shows_the_table_but_no_hand():
    game, state = _start("jaipur")
    public = game.public_data(state)
    assert len(public["market"]) == 5 and public["deck"] == 40
    assert [p["hand"] for p in public["players"]] == [5 - state.herds[0], 5 - state.herds[1]]
    assert [pile["left"] for pile in public["piles"]][0] == [7, 7, 5, 5, 5]
    assert [b["left"] for b in public["bonus_piles"]] == [7, 6, 5]
    text = json.dumps(public)
    assert "value" not in text  # bonus values are secret; only their counts are public


def test_jaipur_private_data_is_the_seats_own_hand():
    game, state = _start("jaipur")
    for seat in (0, 1):
        mine = game.private_data(state, seat)
        assert len(mine["hand"]) == sum(state.hands[seat]) and mine["herd"] == state.herds[seat]
    assert game.private_data(state, 0) != game.private_data(state, 1)


def test_jaipur_public_data_does_not_change_when_hidden_cards_are_redealt():
    game, state = _start("jaipur")
    _play(game, state, 30)
    for seed in range(10):
        for seat in (0, 1):
            seen = game.determinize(state, seat, random.Random(seed))
            assert game.public_data(seen) == game.public_data(state)


def test_yspahan_public_data_has_the_city_tower_caravan_and_players():
    game, state = _start("yspahan", 3)
    _play(game, state, 12)
    public = game.public_data(state)
    assert [n["name"] for n in public["neighbourhoods"]] == ["Sacks", "Barrels", "Chests", "Vases"]
    assert sum(len(n["souks"]) for n in public["neighbourhoods"]) == 14
    assert len(public["tower"]) == 6 and public["supervisor"]
    assert [len(arm["spaces"]) for arm in public["road"]] == [10, 7, 4, 7]
    assert [p["cards"] for p in public["players"]] == [len(h) for h in state.hands]
    assert "cards" not in json.dumps(public["neighbourhoods"])


def test_yspahan_private_data_lists_only_the_seats_cards():
    game, state = _start("yspahan", 2)
    _play(game, state, 40)
    for seat in (0, 1):
        mine = game.private_data(state, seat)
        assert len(mine["cards"]) == len(state.hands[seat])


def test_bazaar_public_data_has_both_sides_of_every_row_and_field_tops():
    game, state = _start("bazaar", 3)
    public = game.public_data(state)
    assert len(public["rows"]) == len(state.rows)
    assert all(row["left"] and row["right"] for row in public["rows"])
    assert [f["left"] for f in public["fields"]] == [6, 6, 6, 6]
    assert all(len(f["top"]) == 5 for f in public["fields"])
    assert public["prices"] == {"normal": [5, 3, 2, 1], "valuable": [8, 5, 3, 2]}
    assert game.private_data(state, 0) is None


def test_bazaar_field_shows_only_its_top_combination():
    game, state = _start("bazaar", 2)
    public = game.public_data(state)
    for field, stack in zip(public["fields"], state.fields, strict=True):
        assert len(field["top"]) == 5 and field["left"] == len(stack)
    assert "fields" in public and all(
        set(f) == {"top", "left", "per_field", "valuable"} for f in public["fields"]
    )
