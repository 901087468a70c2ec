"""``view_version``: while it is equal, ``room_views`` builds the views it built before.

The web transport builds a room's views only when its version changed (a ``/moves all``, a
``/board`` or a chat line changes nothing a view shows), so the version must change with
everything a view reads: the game, the seats and who plays them, the host, the lobby's game,
the clock, the log, the readers and their languages, the long verbs a page asked for.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from support.botdriver import NETWORK, Driver

from bazaarbot.config import BotSettings, RateLimit, TableSettings
from bazaarbot.messages import User
from bazaarbot.registry import discover

PEOPLE = ("alice", "bob", "carol")

#: lines anybody may type, whatever the moment (most change nothing a view shows)
LINES = (
    "/join",
    "/leave",
    "/start",
    "/addbot easy",
    "/moves all",
    "/moves",
    "/board",
    "/hand",
    "/status",
    "/clock",
    "/tables",
    "/lang de",
    "/lang es",
    "/lang en",
    "/undo",
    "/back",
    "/reset",
    "/game jaipur",
    "/game yspahan",
    "/game bazaar",
    "/clock 120",
    "hello there",
)


def shown(parts: Any) -> str:
    """The views as a page reads them, less the clock's reading of now (it moves on by itself)."""
    views = {str(key): [lang, public, you] for key, (lang, public, you) in (parts or {}).items()}
    for _lang, public, _you in views.values():
        clock = public.get("clock")
        if clock:
            public["clock"] = {k: v for k, v in clock.items() if k != "now" and not clock.get("foreseen")}
    return json.dumps(views, sort_keys=True, default=str)


@pytest.mark.parametrize("game", ["jaipur", "yspahan", "bazaar"])
def test_while_the_view_version_holds_the_views_are_the_ones_built_before(tmp_path: Path, game: str) -> None:
    now = [1_000_000.0]
    bot = Driver(
        tmp_path / "bot.sqlite",
        games=discover(),
        settings=BotSettings(
            default_game=game, seed=5, rate_limit=RateLimit(commands=100_000, per_seconds=1)
        ),
        tables=TableSettings(turn_seconds=300),
        wall_clock=lambda: now[0],
    )
    hub, rng = bot.hub, random.Random(game)
    bot.line("alice", f"/new {game}")
    bot.line("bob", "/join")
    keys = [None, *(User(nick).key for nick in PEOPLE)]  # a spectator and the three people
    kept: tuple[Any, str] | None = None
    held = changed = 0
    wanted: dict[str | None, set[str]] = {}
    for _step in range(600):
        nick = rng.choice(PEOPLE)
        table = hub.tables.get((NETWORK, "#t"))
        seat = table.game_seat_of(keys[1 + PEOPLE.index(nick)]) if table and table.running else None
        legal = table.legal_now(seat) if seat is not None else []
        text = rng.choice(legal) if legal and rng.random() < 0.6 else rng.choice(LINES)
        bot.line(nick, text)
        if rng.random() < 0.2:
            now[0] += rng.choice((1.0, 30.0))
        # the long verbs alice's page asked for (it asks again as it draws another turn)
        verbs = sorted({command.split(" ", 1)[0] for command in legal}) if nick == "alice" else []
        if rng.random() < 0.1:
            wanted = {keys[1]: set(rng.sample(verbs, min(len(verbs), 2)))}
        version = hub.view_version(NETWORK, "#t", keys, wanted)
        views = shown(hub.room_views(NETWORK, "#t", keys, wanted))
        if kept is not None and kept[0] == version:
            assert views == kept[1], f"the version held through {nick}: {text}, but the views changed"
            held += 1
        else:
            changed += 1
        kept = (version, views)
    assert held > 100 and changed > 50, f"the lines both changed the table and did not ({held}, {changed})"
