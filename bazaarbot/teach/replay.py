"""A finished game as the web replay shows it: the public board after every step, never a hand.

Only a finished game is replayed, so a spectator learns nothing of a game
still being played. Each step carries the plugin's ``public_data`` (the same
secrecy as the public board) and the bot's public announcement of the move,
so whatever the game itself revealed at its end (hands shown in the final
scoring) is shown, and nothing more. A stored review adds each player's
estimated win chance after each of their decisions (the moves they played
are public; the better moves the search found stay in their owner's chat).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from bazaarbot.i18n import _, current_language
from bazaarbot.plugin import GamePlugin
from bazaarbot.store import Store
from bazaarbot.store.teaching import TeachingRecords
from bazaarbot.table.steps import replay
from bazaarbot.tableview.table import result_data

from .review import chance_lines

log = logging.getLogger(__name__)

#: finished games whose steps are kept (a replay page asks again on every reload)
CACHED_GAMES = 32
_CACHE: OrderedDict[tuple[str, str, int, str], dict[str, Any]] = OrderedDict()


def _review_data(review: dict[str, Any] | None) -> dict[str, Any] | None:
    if review is None:
        return None
    return {
        "lines": [
            [{"step": step, "chance": chance} for step, chance in line] for line in chance_lines(review)
        ],
        "decisions": [
            {"step": d["step"], "seat": d["seat"], "played": d["played"], "chance": d["chance"]}
            for d in review["decisions"]
        ],
        "complete": review.get("complete", True),
    }


def replay_view(
    store: Store, games: dict[str, GamePlugin], network: str, game_id: int
) -> dict[str, Any] | None:
    """The replay of game ``game_id`` of ``network``; None when there is no such game.

    A game that is not finished gives ``{"replayable": False, "reason": ...}`` and no steps.
    """
    record = store.game_record(game_id)
    if record is None or record["network"] != network or record["game"] not in games:
        return None
    game = games[record["game"]]
    nicks = [str(p["nick"]) for p in record["players"]]
    head: dict[str, Any] = {
        "game_id": game_id,
        "game": game.name,
        "title": game.title,
        "players": nicks,
        "channel": record["channel"],
        "terms": game.terms(),  # the names the drawn table shows for the game's ids
    }
    if record["status"] != "finished":
        reason = (
            _("This game is still running; it can be replayed once it is over.")
            if record["status"] == "running"
            else _("This game was abandoned; only a finished game can be replayed.")
        )
        return {**head, "replayable": False, "reason": reason}
    key = (store.path, network, game_id, current_language())  # its boards and result are worded
    cached = _CACHE.get(key)
    if cached is None:
        try:
            cached = _frames(game, record, nicks)
        except Exception:
            log.exception("game %s could not be replayed", game_id)
            return {
                **head,
                "replayable": False,
                "reason": _("This game no longer replays under the installed rules."),
            }
        _CACHE[key] = cached
        while len(_CACHE) > CACHED_GAMES:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return {
        **head,
        "replayable": True,
        **cached,
        "review": _review_data(TeachingRecords(store.db.conn, store.writer.write).review(game_id)),
    }


def _frames(game: GamePlugin, record: dict[str, Any], nicks: list[str]) -> dict[str, Any]:
    """The start, every step and the result of a finished game (which never changes again)."""
    steps, final = replay(game, int(record["seed"]), nicks, dict(record["options"]), record["moves"])
    frames = []
    for index, step in enumerate(steps):
        after = steps[index + 1].before if index + 1 < len(steps) else None
        state = game.from_json(after) if after is not None else final
        frames.append(
            {
                "seat": step.seat,
                "nick": nicks[step.seat] if step.seat < len(nicks) else "?",
                "text": step.text,
                "lines": step.lines,
                "public": game.public_data(state),
                "to_act": game.to_act(state),
            }
        )
    first = game.from_json(steps[0].before) if steps else final
    result = game.result(final)
    return {
        "start": {"public": game.public_data(first), "to_act": game.to_act(first)},
        "steps": frames,
        "result": result_data(result, nicks) if result is not None else None,
    }
