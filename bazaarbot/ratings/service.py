"""Rating finished games, one at a time as they end or all again from the store (``ratings rebuild``).

Ratings are derived data: the truth is ``games``, ``results`` and ``moves``.
Games are taken in by the order they ended (then by id); a game that ends
out of that order, or a finished game the ratings never saw (the bot stopped
between writing a result and rating it), makes the ratings rebuild, so the
incremental ratings always equal a rebuild.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bazaarbot.plugin import GamePlugin, Result
from bazaarbot.ratings import model
from bazaarbot.ratings.identity import identity_of, is_ai, network_of, played_by_owner
from bazaarbot.ratings.model import Rating
from bazaarbot.ratings.records import Change, PastGame, RatingRecords, Standing
from bazaarbot.ratings.text import changes_line, who
from bazaarbot.store import Store
from bazaarbot.store.teaching import HINTED_GAMES

log = logging.getLogger(__name__)

#: the kinds of key whose record follows a rename (an AI's key never changes)
RENAMED_KINDS = ("a:", "m:", "n:")

#: the transaction lock every rating update of a PostgreSQL store takes (two int4 keys)
RATINGS_LOCK = (0x6BA2, 2)

#: the network ``record_result`` files games under when the caller names none (``bazaarbot bench ai``)
BENCH_NETWORK = "bench"


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game as the ratings need it."""

    seat: int
    user_key: str
    nick: str
    rank: int
    winner: bool
    #: the author of every move the seat made (the move log's ``author``)
    authors: tuple[str, ...]


@dataclass(frozen=True)
class FinishedGame:
    id: int
    network: str
    game: str
    ended: float
    seats: tuple[SeatResult, ...]


Lookup = Callable[[str, str, str], Standing | None]


def rate_game(game: FinishedGame, lookup: Lookup) -> tuple[list[Change], list[Standing]]:
    """What one game does to the ratings: a change per seat, and the new standings.

    A seat is rated when it played to the end (it has a rank: a seat that ended
    under an AI or was skipped has none) and its owner made enough of its decisions; a game needs
    two different rated identities. An identity at several seats (two AI seats
    of one level) gets the mean of the updates openskill gives its seats.
    """
    identities = [identity_of(s.user_key) for s in game.seats]
    rated = [
        s.rank > 0 and played_by_owner(ident, s.authors)
        for ident, s in zip(identities, game.seats, strict=True)
    ]
    if len({ident for ident, ok in zip(identities, rated, strict=True) if ok}) < 2:
        rated = [False] * len(game.seats)
    current: dict[str, Standing | None] = {
        ident: lookup(network_of(ident, game.network), game.game, ident) for ident in set(identities)
    }

    def prior(ident: str) -> Rating:
        standing = current[ident]
        return standing.rating if standing is not None else model.initial()

    playing = [i for i, ok in enumerate(rated) if ok]
    outcome: dict[str, list[Rating]] = {}
    if playing:
        after = model.rate([prior(identities[i]) for i in playing], [game.seats[i].rank for i in playing])
        for i, rating in zip(playing, after, strict=True):
            outcome.setdefault(identities[i], []).append(rating)
    new: dict[str, Rating] = {}
    for ident, ratings in outcome.items():
        if len(ratings) == 1:
            new[ident] = ratings[0]
        else:
            new[ident] = Rating(
                statistics.fmean(r.mu for r in ratings), statistics.fmean(r.sigma for r in ratings)
            )
    changes = []
    for i, seat in enumerate(game.seats):
        ident = identities[i]
        before = prior(ident)
        changes.append(
            Change(
                game.id,
                seat.seat,
                network_of(ident, game.network),
                ident,
                rated[i],
                before,
                new[ident] if rated[i] else before,
            )
        )
    standings = []
    for ident, rating in new.items():
        seats = [s for s, who, ok in zip(game.seats, identities, rated, strict=True) if who == ident and ok]
        old = current[ident]
        standings.append(
            Standing(
                network_of(ident, game.network),
                game.game,
                ident,
                seats[0].nick,
                rating.mu,
                rating.sigma,
                (old.games if old else 0) + 1,
                (old.wins if old else 0) + int(any(s.winner for s in seats)),
                game.id,
                game.ended,
            )
        )
    return changes, standings


def _authors(conn: sqlite3.Connection, where: str, params: list[object]) -> dict[tuple[int, int], list[str]]:
    found: dict[tuple[int, int], list[str]] = {}
    for game_id, seat, author, count in conn.execute(
        f"SELECT game_id, seat, author, COUNT(*) FROM moves WHERE {where} GROUP BY game_id, seat, author "
        "ORDER BY game_id, seat, author",
        params,
    ):
        found.setdefault((game_id, seat), []).extend([author] * count)
    return found


def _finished_games(conn: sqlite3.Connection, game_id: int | None = None) -> list[FinishedGame]:
    """Finished games with their results and move authors, in the order they ended (then by id)."""
    if game_id is None:
        where, params = f"g.status='finished' AND g.id NOT IN ({HINTED_GAMES})", []
        authors = _authors(conn, "game_id IN (SELECT id FROM games WHERE status='finished')", [])
    else:
        where, params = f"g.status='finished' AND g.id=? AND g.id NOT IN ({HINTED_GAMES})", [game_id]
        authors = _authors(conn, "game_id=?", [game_id])
    seats: dict[int, list[SeatResult]] = {}
    heads: list[tuple[int, str, str, float]] = []
    for row in conn.execute(
        "SELECT g.id, g.network, g.plugin, COALESCE(g.ended, 0), "
        "r.seat, r.user_key, r.nick, r.rank, r.winner "
        f"FROM games g JOIN results r ON r.game_id=g.id WHERE {where} "
        "ORDER BY COALESCE(g.ended, 0), g.id, r.seat",
        params,
    ):
        gid, network, plugin, ended, seat, key, nick, rank, winner = row
        if gid not in seats:
            seats[gid] = []
            heads.append((gid, network, plugin, float(ended)))
        seats[gid].append(
            SeatResult(seat, key, nick, int(rank), bool(winner), tuple(authors.get((gid, seat), ())))
        )
    return [FinishedGame(gid, net, plugin, ended, tuple(seats[gid])) for gid, net, plugin, ended in heads]


class Ratings:
    """The ratings of one store: take in finished games, rebuild, and answer who stands where."""

    def __init__(self, store: Store, min_games: int = 3, titles: dict[str, str] | None = None) -> None:
        self.store = store
        self.conn = store.db.conn
        self.records = RatingRecords(self.conn)
        #: games a player needs before ``/top`` lists them
        self.min_games = min_games
        #: game name -> the title players read
        self.titles = dict(titles or {})
        #: (ended, id) of the latest game taken in, read from the store once
        self._last: tuple[float, int] | None = None
        self._last_read = False
        #: every finished game before the latest one taken in is known to be rated
        self._complete = False

    def after_game(self, game_id: int) -> list[str]:
        """Rate a game that just ended and give the channel's line about it (none when nobody was rated).

        The result is already on disk; a failure here only leaves the ratings
        behind, and the next start (or ``ratings rebuild``) catches them up.
        """
        try:
            changes = self.take_in(game_id)
            nicks = {
                int(seat): str(nick)
                for seat, nick in self.conn.execute(
                    "SELECT seat, nick FROM results WHERE game_id=?", [game_id]
                )
            }
            row = self.conn.execute("SELECT plugin FROM games WHERE id=?", [game_id]).fetchone()
        except Exception:
            log.exception("game %s could not be rated", game_id)
            return []
        title = self.titles.get(row[0], row[0]) if row else ""
        line = changes_line(title, changes, nicks)
        return [line] if line else []

    # --- taking games in -------------------------------------------------------------------
    def take_in(self, game_id: int) -> list[Change]:
        """Rate one game that just finished (once; again it only reads what it did)."""
        done = self.records.changes(game_id)
        if done:
            return done
        games = _finished_games(self.conn, game_id)
        if not games:
            return []
        game = games[0]
        if not self._complete:
            self._complete = True
            if self.records.missing_games() > 1:  # an earlier game was never rated
                self.rebuild()
                return self.records.changes(game_id)
        if not self._last_read:
            self._last, self._last_read = self.records.last_rated(), True
        if self._last is not None and (game.ended, game.id) < self._last:
            self.rebuild()
            return self.records.changes(game_id)
        try:
            with self._exclusive():
                changes = self.records.changes(game_id)
                if changes:  # taken in meanwhile
                    return changes
                changes, standings = rate_game(game, self.records.standing)
                for standing in standings:
                    self.records.put(standing)
                self.records.add_changes(changes)
        except Exception:
            self._complete = False  # the next game checks for this one and rebuilds
            raise
        self._last, self._last_read = (game.ended, game.id), True
        return changes

    def rebuild(self) -> int:
        """Every rating again from the results in the store, in one transaction; returns games taken in."""
        with self._exclusive():
            games = _finished_games(self.conn)
            current: dict[tuple[str, str, str], Standing] = {}
            changes: list[Change] = []
            for game in games:
                game_changes, standings = rate_game(game, lambda n, g, i: current.get((n, g, i)))
                changes += game_changes
                for standing in standings:
                    current[(standing.network, standing.game, standing.identity)] = standing
            self.records.clear()
            for standing in current.values():
                self.records.put(standing)
            self.records.add_changes(changes)
        self._last = (games[-1].ended, games[-1].id) if games else None
        self._last_read = True
        self._complete = True
        return len(games)

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[None]:
        """A transaction no other rating update runs beside, even one of another process.

        An AI level's rating is shared by every network, so two processes may
        rate games against it at once: each reads the standing and writes it
        back inside this transaction, one after the other, never over the
        other's update. sqlite takes its write lock at ``BEGIN IMMEDIATE``;
        a PostgreSQL session also takes the ratings' transaction lock.
        """
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            lock = getattr(self.conn, "lock_transaction", None)
            if lock is not None:
                lock(RATINGS_LOCK)
            yield

    def catch_up(self) -> bool:
        """At start-up: rebuild when a finished game was never rated (the bot stopped in between)."""
        self._complete = True
        if self.records.missing_games() == 0:
            return False
        self.rebuild()
        return True

    def renamed(self, network: str, old_key: str, new_key: str) -> bool:
        """A key change on rename: the record follows, unless the new key has a record of its own.

        A nick change of somebody without an account (``m:nick!user@host`` or a
        bare ``n:nick``) or a web nick claim moved by its browser (``a:`` to
        ``a:``; an IRC account never changes on a nick change) takes its
        results along, but only to a key with no results on the network, and
        never from one kind of key to another (logging in to an account does not
        hand it a nick's record), so nobody takes over another's.
        """
        if old_key == new_key or old_key[:2] != new_key[:2] or old_key[:2] not in RENAMED_KINDS:
            return False
        games_of = "game_id IN (SELECT id FROM games WHERE network=?)"
        had = self.conn.execute(
            f"SELECT 1 FROM results WHERE user_key=? AND {games_of} LIMIT 1", [old_key, network]
        ).fetchone()
        if had is None:
            return False
        taken = self.conn.execute(
            f"SELECT 1 FROM results WHERE user_key=? AND {games_of} LIMIT 1", [new_key, network]
        ).fetchone()
        if taken is not None:
            return False
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute(
                f"UPDATE results SET user_key=? WHERE user_key=? AND {games_of}", [new_key, old_key, network]
            )
            self.conn.execute(
                "UPDATE ratings SET identity=? WHERE network=? AND identity=?", [new_key, network, old_key]
            )
            self.conn.execute(
                "UPDATE rating_changes SET identity=? WHERE network=? AND identity=?",
                [new_key, network, old_key],
            )
        return True

    # --- questions ----------------------------------------------------------------------------
    def standing(self, network: str, game: str, identity: str) -> Standing | None:
        return self.records.standing(network_of(identity, network), game, identity)

    def standings_of(self, network: str, identity: str) -> list[Standing]:
        return self.records.standings_of(network_of(identity, network), identity)

    def top(self, network: str, game: str, limit: int = 5) -> list[Standing]:
        """The best ``limit`` by conservative rating with at least ``min_games`` rated games."""
        ranked = sorted(
            self.records.rated(network, game, self.min_games),
            key=lambda s: (-s.rating.conservative, -s.games, s.identity),
        )
        return ranked[:limit]

    def view(self, network: str, game: str, seats: list[tuple[str, str]]) -> dict[str, object]:
        """Plain data for a page: the game's best, and each seated (key, nick)'s rating in it."""

        def entry(name: str, standing: Standing | None) -> dict[str, object]:
            rating = standing.rating if standing is not None else model.initial()
            return {
                "name": name,
                "rating": round(rating.conservative, 2),
                "mu": round(rating.mu, 2),
                "sigma": round(rating.sigma, 2),
                "games": standing.games if standing is not None else 0,
            }

        return {
            "game": game,
            "title": self.titles.get(game, game),
            "min_games": self.min_games,
            "top": [entry(who(s), s) for s in self.top(network, game)],
            "players": [entry(nick, self.standing(network, game, identity_of(key))) for key, nick in seats],
        }

    def identity_called(self, network: str, nick: str) -> str | None:
        """The rated identity last seen under ``nick`` (an account's before a bare nick's), else
        whoever last sat in a game under it (a game they left is not rated for them), else None."""
        if is_ai(nick):
            return identity_of(nick.lower())
        found = self.records.identities_called(network, nick)
        return found[0].identity if found else self.records.key_seated_as(network, nick)

    def history(self, network: str, identity: str, limit: int = 5) -> list[PastGame]:
        return self.records.past_games(network, identity, limit)


def record_result(
    store: Store,
    game: GamePlugin | str,
    keys_by_seat: list[str],
    result: Result,
    nicks: list[str] | None = None,
    network: str = BENCH_NETWORK,
    seed: int = 0,
) -> list[Change]:
    """File a game played outside the chat (the AI benchmark) with its result, and rate it.

    The game is stored like any other (so ``ratings rebuild`` replays it) with
    no move log; AI seats are keyed ``ai:<level>:<seat number>``.
    """
    name = game if isinstance(game, str) else game.name
    version = "" if isinstance(game, str) else game.rules_version
    nicks = nicks or [identity_of(k) for k in keys_by_seat]
    players = [{"key": k, "nick": n} for k, n in zip(keys_by_seat, nicks, strict=True)]
    game_id = store.start_game(0, network, "", name, version, seed, {}, players)
    rank_of = {i: rank for rank, group in enumerate(result.ranking, start=1) for i in group}
    rows = [
        {
            "seat": i,
            "user_key": key,
            "nick": nicks[i],
            "score": float(result.scores.get(i, 0)),
            "rank": rank_of.get(i, 0),
            "winner": int(i in result.winners),
        }
        for i, key in enumerate(keys_by_seat)
    ]
    data = {
        "scores": {str(k): v for k, v in result.scores.items()},
        "ranking": result.ranking,
        "winners": result.winners,
        "detail": result.detail,
    }
    store.finish_game(game_id, "finished", data, rows)
    return Ratings(store).take_in(game_id)
