"""The rating tables in the store: read and write standings and each game's changes.

``ratings`` holds one standing per (network, game, identity); ``rating_changes``
one row per seat of every finished game the ratings have taken in (``rated``
0 for a seat left out), so a finished game missing there is noticed. Both are
derived from ``games``, ``results`` and ``moves`` and can be rebuilt from them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from bazaarbot.ratings.identity import AI_NETWORK, is_ai
from bazaarbot.ratings.model import Rating
from bazaarbot.store.teaching import HINTED_GAMES


@dataclass(frozen=True)
class Standing:
    """One identity's rating in one game, with what it was built from."""

    network: str
    game: str
    identity: str
    nick: str
    mu: float
    sigma: float
    games: int
    wins: int
    last_game: int
    last_played: float

    @property
    def rating(self) -> Rating:
        return Rating(self.mu, self.sigma)


@dataclass(frozen=True)
class Change:
    """What one game did to one seat's rating (``before == after`` when the seat was not rated)."""

    game_id: int
    seat: int
    network: str
    identity: str
    rated: bool
    before: Rating
    after: Rating


@dataclass(frozen=True)
class PastGame:
    """One game somebody played, for ``/history``."""

    id: int
    game: str
    status: str
    ended: float
    #: (nick, score, winner) by seat
    players: list[tuple[str, float, bool]]


_STANDING = "network, game, identity, nick, mu, sigma, games, wins, last_game, last_played"


def _standing(row: tuple) -> Standing:
    return Standing(*row)


class RatingRecords:
    """Queries on the rating tables of one sqlite connection (writes run inside the caller's transaction)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    # --- standings ---------------------------------------------------------------------
    def standing(self, network: str, game: str, identity: str) -> Standing | None:
        row = self.conn.execute(
            f"SELECT {_STANDING} FROM ratings WHERE network=? AND game=? AND identity=?",
            [network, game, identity],
        ).fetchone()
        return _standing(row) if row else None

    def standings_of(self, network: str, identity: str) -> list[Standing]:
        """Every game's standing of one identity, the most played first."""
        return [
            _standing(row)
            for row in self.conn.execute(
                f"SELECT {_STANDING} FROM ratings WHERE network=? AND identity=? ORDER BY games DESC, game",
                [network, identity],
            )
        ]

    def rated(self, network: str, game: str, min_games: int) -> list[Standing]:
        """Everybody rated in ``game`` on ``network`` (and the AI levels) with at least ``min_games``."""
        rows = self.conn.execute(
            f"SELECT {_STANDING} FROM ratings WHERE network IN (?, ?) AND game=? AND games>=?",
            [network, AI_NETWORK, game, min_games],
        )
        return [_standing(row) for row in rows]

    def identities_called(self, network: str, nick: str) -> list[Standing]:
        """Standings whose last known nick is ``nick`` (case-insensitive), accounts first, latest first."""
        rows = self.conn.execute(
            f"SELECT {_STANDING} FROM ratings WHERE network=? AND lower(nick)=lower(?) "
            "ORDER BY (identity LIKE 'a:%') DESC, last_played DESC",
            [network, nick],
        )
        return [_standing(row) for row in rows]

    def key_seated_as(self, network: str, nick: str) -> str | None:
        """The user key of the last game seat taken under ``nick`` here (an account's first), else None.

        A game a person left is stored under their key but not rated for them,
        so the standings alone do not know who played under that nick.
        """
        row = self.conn.execute(
            "SELECT json_extract(seat.value, '$.key') AS key FROM games g, json_each(g.players) seat "
            "WHERE g.network=? AND lower(json_extract(seat.value, '$.nick'))=lower(?) "
            "AND g.status IN ('finished', 'abandoned') "
            "ORDER BY (key LIKE 'a:%') DESC, g.id DESC LIMIT 1",
            [network, nick],
        ).fetchone()
        return str(row[0]) if row and row[0] else None

    def put(self, standing: Standing) -> None:
        self.conn.execute(
            f"INSERT OR REPLACE INTO ratings({_STANDING}) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                standing.network,
                standing.game,
                standing.identity,
                standing.nick,
                standing.mu,
                standing.sigma,
                standing.games,
                standing.wins,
                standing.last_game,
                standing.last_played,
            ],
        )

    def add_changes(self, changes: Iterable[Change]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO rating_changes(game_id, seat, network, identity, rated, mu_before, "
            "sigma_before, mu_after, sigma_after) VALUES (?,?,?,?,?,?,?,?,?)",
            [
                (
                    c.game_id,
                    c.seat,
                    c.network,
                    c.identity,
                    int(c.rated),
                    c.before.mu,
                    c.before.sigma,
                    c.after.mu,
                    c.after.sigma,
                )
                for c in changes
            ],
        )

    def changes(self, game_id: int) -> list[Change]:
        rows = self.conn.execute(
            "SELECT game_id, seat, network, identity, rated, mu_before, sigma_before, mu_after, sigma_after "
            "FROM rating_changes WHERE game_id=? ORDER BY seat",
            [game_id],
        )
        return [
            Change(r[0], r[1], r[2], r[3], bool(r[4]), Rating(r[5], r[6]), Rating(r[7], r[8])) for r in rows
        ]

    def clear(self) -> None:
        self.conn.execute("DELETE FROM ratings")
        self.conn.execute("DELETE FROM rating_changes")

    # --- what has been taken in -------------------------------------------------------------
    def last_rated(self) -> tuple[float, int] | None:
        """(ended, id) of the latest game the ratings have taken in."""
        latest = self.conn.execute(
            "SELECT g.ended, g.id FROM games g JOIN (SELECT DISTINCT game_id FROM rating_changes) c "
            "ON c.game_id=g.id ORDER BY g.ended DESC, g.id DESC LIMIT 1"
        ).fetchone()
        return (float(latest[0] or 0.0), int(latest[1])) if latest else None

    def missing_games(self) -> int:
        """Finished games with results that the ratings have not taken in."""
        row = self.conn.execute(
            "SELECT COUNT(*) FROM games WHERE status='finished' "
            "AND id IN (SELECT game_id FROM results) "
            "AND id NOT IN (SELECT game_id FROM rating_changes) "
            f"AND id NOT IN ({HINTED_GAMES})"
        ).fetchone()
        return int(row[0])

    # --- history -----------------------------------------------------------------------------
    def past_games(self, network: str, identity: str, limit: int) -> list[PastGame]:
        """The last ``limit`` games (finished or abandoned) an identity sat in, the latest first."""
        if is_ai(identity):
            where, params = "r.user_key LIKE ? ESCAPE '\\'", [_like_prefix(identity + ":")]
        else:
            where, params = "r.user_key=? AND g.network=?", [identity, network]
        ids = [
            row[0]
            for row in self.conn.execute(
                f"SELECT DISTINCT g.id, g.ended FROM results r JOIN games g ON g.id=r.game_id WHERE {where} "
                "AND g.status IN ('finished', 'abandoned') ORDER BY g.ended DESC, g.id DESC LIMIT ?",
                [*params, limit],
            )
        ]
        return self._past(ids)

    def recent_games(self, network: str, limit: int) -> list[PastGame]:
        """The network's last ``limit`` finished games, the latest first (the ones a replay shows)."""
        ids = [
            row[0]
            for row in self.conn.execute(
                "SELECT id FROM games WHERE network=? AND status='finished' "
                "AND id IN (SELECT game_id FROM results) ORDER BY ended DESC, id DESC LIMIT ?",
                [network, limit],
            )
        ]
        return self._past(ids)

    def _past(self, ids: list[int]) -> list[PastGame]:
        games = []
        for game_id in ids:
            head = self.conn.execute(
                "SELECT plugin, status, ended FROM games WHERE id=?", [game_id]
            ).fetchone()
            seats = [
                (str(r[0]), float(r[1] or 0.0), bool(r[2]))
                for r in self.conn.execute(
                    "SELECT nick, score, winner FROM results WHERE game_id=? ORDER BY seat", [game_id]
                )
            ]
            games.append(PastGame(game_id, head[0], head[1], float(head[2] or 0.0), seats))
        return games


def _like_prefix(text: str) -> str:
    """``text`` as a LIKE pattern that matches it literally at the start."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"
