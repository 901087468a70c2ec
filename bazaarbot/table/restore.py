"""Rebuilding tables from the store: at start-up (all at once) and after a failed commit (one table).

A running game comes back from its latest snapshot plus the moves logged
after it, so a restart costs the same however long the games are. A game
saved under another rules version than the installed plugin's is replayed
from its seed and whole log, and checked against its snapshot; if that is not
possible the table keeps the game *paused* (it stays running on disk, the
channel is told why, an admin can /reset it) — never silently abandoned.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass
from typing import Any

from bazaarbot.i18n import _
from bazaarbot.plugin import GamePlugin
from bazaarbot.store import RunningGameRow, Store, TableRow
from bazaarbot.table import Seat, Table

log = logging.getLogger(__name__)


@dataclass
class Restored:
    """What happened to one running game on restore (for the log and the benchmark)."""

    table: Table
    replayed: int
    from_snapshot: bool


def apply_row(table: Table, row: TableRow, games: dict[str, GamePlugin], default_game: str) -> None:
    """Set the lobby of ``table`` from its stored row (the game part is cleared)."""
    table.core.id = row.id
    table.core.game_name = row.game if row.game in games else default_game
    table.core.options = dict(row.options)
    table.core.host = row.host
    table.core.seats = [Seat(s.seat, s.user_key, s.nick) for s in sorted(row.seats, key=lambda s: s.seat)]
    table.core.colors = row.colors
    clear_game(table)


def clear_game(table: Table) -> None:
    table.game.state = None
    table.game.undo_point = None
    table.clock.timeouts = {}
    table.lobby.reset_requests = {}
    table.clock.turn_clock = None
    table.game.game_id = None
    table.core.players = []
    table.game.moves_made = 0
    table.game.paused = None


def _normal(data: Any) -> Any:
    """A snapshot as it reads back from JSON, for comparing a replay with it."""
    return json.loads(json.dumps(data))


def _matches(plugin: GamePlugin, state: Any, snapshot: dict[str, Any]) -> bool:
    return bool(_normal(plugin.to_json(state)) == _normal(snapshot))


def _replay(table: Table, moves: list[dict[str, Any]]) -> None:
    """Play logged commands again on ``table.game.state`` the way the table played them (undos included)."""
    for record in moves:
        table.game.replay_step(record["seat"], record["text"], record["n"] + 1)


def restore_game(table: Table, running: RunningGameRow, store: Store, games: dict[str, GamePlugin]) -> int:
    """Bring a running game back onto ``table``; the number of moves replayed.

    Raises when the log cannot be replayed under the same rules (the caller
    marks the game abandoned, as before). A rules-version change that the
    installed plugin cannot reproduce leaves the table paused instead.
    """
    game, snapshot = running.game, running.snapshot
    plugin = games[game.plugin]
    names = [p["nick"] for p in game.players]
    table.core.game_name = game.plugin
    table.game.game_id = game.id
    table.game.game_seed = game.seed
    table.core.players = [
        Seat(i + 1, str(p["key"]), str(p["nick"]), p.get("ai"), bool(p.get("away")), p.get("owner"))  # type: ignore[arg-type]
        for i, p in enumerate(game.players)
    ]
    if game.rules_version != plugin.rules_version:
        return _restore_other_rules(table, running, store, plugin)
    state = None
    if snapshot is not None and snapshot.rules_version == plugin.rules_version:
        try:
            state = plugin.from_json(snapshot.state)
        except Exception:
            log.exception("game %s: its snapshot cannot be read; replaying the whole log", game.id)
        tail = running.tail
        moves_made = snapshot.n + len(tail)
    if state is None:
        tail = running.tail if snapshot is None else store.moves(game.id)
        state = plugin.setup(names, random.Random(game.seed), game.options)
        moves_made = len(tail)
    table.game.state = state
    table.game.undo_point = None
    try:
        _replay(table, tail)
    except Exception:
        clear_game(table)
        raise
    _follow_renames(table)
    table.game.moves_made = moves_made
    # who made a step (the first timeout only reminds a seat that did not): a game old enough
    # for a snapshot has had every seat move
    before_tail = set(range(len(names))) if moves_made > len(tail) else set()
    table.game.moved = {int(r["seat"]) for r in tail} | before_tail
    table.notify()
    return len(tail)


def _follow_renames(table: Table) -> None:
    """The names the game shows: a nick change after the snapshot, a seat an AI took over."""
    state = table.game.state
    if hasattr(state, "players") and isinstance(state.players, list):
        for index, seat in enumerate(table.core.players[: len(state.players)]):
            state.players[index] = seat.label


def _restore_other_rules(table: Table, running: RunningGameRow, store: Store, plugin: GamePlugin) -> int:
    game, snapshot = running.game, running.snapshot
    names = [p["nick"] for p in game.players]
    moves = store.moves(game.id)
    why = ""
    try:
        table.game.state = plugin.setup(names, random.Random(game.seed), game.options)
        table.game.undo_point = None
        for index, record in enumerate(moves):
            if (
                snapshot is not None
                and index == snapshot.n
                and not _matches(plugin, table.game.state, snapshot.state)
            ):
                why = "differs from its snapshot"
                break
            _replay(table, [record])
        at_end = snapshot is not None and snapshot.n == len(moves)
        if not why and at_end and not _matches(plugin, table.game.state, snapshot.state):
            why = "differs from its snapshot"
    except Exception as error:  # the new rules refuse an old move
        why = f"move refused: {error}"
    if why:
        table.game.state = None
        table.game.undo_point = None
        table.game.paused = _(
            "The game of {game} here is paused: it was saved under rules {old} and this bot has "
            "rules {new}, which cannot replay it. An admin can /reset the table."
        ).format(game=plugin.title, old=game.rules_version, new=plugin.rules_version)
        log.warning(
            "game %s (%s) paused: rules %s -> %s, replay %s",
            game.id,
            game.plugin,
            game.rules_version,
            plugin.rules_version,
            why,
        )
        return 0
    _follow_renames(table)
    table.game.moves_made = len(moves)
    table.game.moved = {int(r["seat"]) for r in moves}
    table.notify()
    note = f"replayed under rules {plugin.rules_version} (saved under {game.rules_version})"
    store.set_rules_version(game.id, plugin.rules_version, note)
    log.warning("game %s: %s", game.id, note)
    return len(moves)


def restore_into(
    table: Table, running: RunningGameRow | None, store: Store, games: dict[str, GamePlugin]
) -> None:
    """The running game of a freshly loaded table, or the reason it cannot come back (logged)."""
    if running is None:
        return
    game = running.game
    if game.plugin not in games:
        store.finish_game(game.id, "abandoned", None, [], f"game {game.plugin} is no longer installed")
        return
    try:
        restore_game(table, running, store, games)
    except Exception:
        log.exception("game %s could not be replayed; marked abandoned", game.id)
        clear_game(table)
        store.finish_game(game.id, "abandoned", None, [], "could not be replayed")


def reload_table(table: Table, store: Store, games: dict[str, GamePlugin], default_game: str) -> None:
    """Make ``table`` exactly what the file holds (after a commit that did not make it)."""
    rows = store.load_tables(table.core.id) if table.core.id is not None else []
    if not rows:
        table.core.id = None
        table.core.game_name = default_game
        table.core.options = {}
        table.core.host = ""
        table.core.seats = []
        table.core.colors = False
        clear_game(table)
        return
    apply_row(table, rows[0], games, default_game)
    found = store.running_games(rows[0].id)
    restore_into(table, found[0] if found else None, store, games)
