"""``Teacher``: starts hints and reviews in the AI's worker processes and answers when they are done.

The event loop only takes the position (or the game record) and hands it to
the pool; the answer goes through the hub's ``run_and_send``, so a hint is
recorded (and the game left unrated) in the same commit that precedes the
hint itself. A hint that comes back after its position changed is dropped.
A review is stored once made; later ``/review`` answers come from the store.
Without a running event loop (the synchronous ``Hub.process`` of tests and
fuzzers) the search runs inline.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from bazaarbot.ai import AiPool, ai_seed
from bazaarbot.ai.levels import Level
from bazaarbot.i18n import _, language
from bazaarbot.messages import Outgoing, Tell, User
from bazaarbot.plugin import GamePlugin
from bazaarbot.store import Store
from bazaarbot.store.teaching import TeachingRecords
from bazaarbot.store.writer import table_scope
from bazaarbot.table import Table
from bazaarbot.table.options import hints_on
from bazaarbot.text.digits import number
from bazaarbot.words.moves import quoted_move

from .budgets import REVIEW_SECONDS, hint_budget, review_budget
from .hint import hint
from .review import review, worst
from .text import hint_lines, review_lines

log = logging.getLogger(__name__)

#: mixed into a hint's seed so a hint never repeats the AI's own random stream
HINT_SALT = 0x48494E54

#: worker processes for reviews (apart from the AI players' pool)
REVIEW_WORKERS = 1
#: reviews under way (or waiting for the worker) at most; more are refused until one is done
MAX_REVIEWS = 4

#: finished games waiting for their background review at most; a game past it gets one on /review
MAX_BACKGROUND_REVIEWS = 16
#: how often, and how long apart (seconds), a background review looks for its game's record on disk
RECORD_TRIES = 40
RECORD_WAIT = 0.25
#: how far a worker process lowers its priority before a background review (os.nice)
BACKGROUND_NICENESS = 10

#: latencies kept for the figures (seconds from /hint to its answer)
LATENCIES_KEPT = 200


@dataclass(frozen=True)
class Reader:
    """Who waits for a review: where to tell them, in which language, and their seat in that game."""

    network: str
    nick: str
    key: str
    seat: int
    lang: str | None


def _no_review_after_game() -> float:
    return 0.0


@dataclass(eq=False)
class Teacher:
    """Hints during a game and reviews after it, computed off the event loop."""

    store: Store
    games: dict[str, GamePlugin]
    levels: Callable[[], dict[str, Level]]
    pool: Callable[[], AiPool]
    spawn: Callable[[Coroutine[Any, Any, None]], Any]
    run_and_send: Callable[[Callable[[], list[Outgoing]], str, str | None], Awaitable[None]]
    person_language: Callable[[str, str], str | None]
    #: reviews think in a pool of their own, so a long review never holds up an AI's move
    review_pool: Callable[[], AiPool] | None = None
    #: CPU seconds a finished game's review may take in the background (0: none)
    review_after_game: Callable[[], float] = _no_review_after_game
    _review_pool: AiPool | None = field(init=False, default=None)
    records: TeachingRecords = field(init=False)
    #: (game id, moves made, seat) of the hints being searched now
    hinting: set[tuple[int, int, int]] = field(init=False, default_factory=set)
    #: game id -> the people waiting for its review
    reviewing: dict[int, list[Reader]] = field(init=False, default_factory=dict)
    #: seconds from a /hint to its answer, the latest ones
    latencies: list[float] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.review_pool = self.review_pool or self._own_review_pool
        self.records = TeachingRecords(self.store.db.conn, self.store.writer.write)

    def _own_review_pool(self) -> AiPool:
        if self._review_pool is None:
            self._review_pool = AiPool(REVIEW_WORKERS, self.levels())
        return self._review_pool

    def shutdown(self) -> None:
        """Stop the reviews' worker (a review under way is lost; asking again starts it anew)."""
        if self._review_pool is not None:
            self._review_pool.shutdown()
            self._review_pool = None

    # --- hints -----------------------------------------------------------------------------
    def hint(self, table: Table, user: User) -> list[Outgoing]:
        """``/hint``: start the search for the speaker's decision; the answer follows privately."""
        nick = user.nick
        seat = table.game_seat_of(user.key)
        if not table.running or seat is None or table.game_id is None:
            return [table.tell(nick, _("You are not playing a game at this table."), key=user.key)]
        if not hints_on(table.options):
            return [
                table.tell(
                    nick,
                    _(
                        "Hints are off at this table; the host allows them with /new {game} hints=on "
                        "before /start."
                    ).format(game=table.game_name),
                    key=user.key,
                )
            ]
        if seat not in table.plugin.to_act(table.state):
            return [
                table.tell(nick, _("A hint is for your own decision; it is not your turn."), key=user.key)
            ]
        position = (table.game_id, table.moves_made, seat)
        if position in self.hinting:
            return [table.tell(nick, _("I am still thinking about your hint."), key=user.key)]
        state_json = table.plugin.to_json(table.state)
        seed = ai_seed(table.game_seed, table.moves_made, seat) ^ HINT_SALT
        budget = hint_budget(self.levels())
        lang = self.person_language(table.network, user.key) or table.channel_language()
        args = (table.plugin, state_json, seat, budget, seed, lang)
        started = time.monotonic()
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return self._hint_answer(table, position, hint(*args), started)
        self.hinting.add(position)
        self.spawn(self._hint_later(table, position, args, started))
        return []

    async def _hint_later(
        self,
        table: Table,
        position: tuple[int, int, int],
        args: tuple[Any, ...],
        started: float,
    ) -> None:
        try:
            moves = await self.pool().run(hint, *args, key=("teach", id(table)))
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("a hint at %s failed", table.channel)
            return
        finally:
            self.hinting.discard(position)
        await self.run_and_send(
            lambda: self._hint_answer(table, position, moves, started), table.network, None
        )

    def _hint_answer(
        self,
        table: Table,
        position: tuple[int, int, int],
        moves: list[dict[str, Any]],
        started: float,
    ) -> list[Outgoing]:
        """The hint for ``position``, recorded first; nothing if the game has moved on meanwhile."""
        game_id, moves_made, seat = position
        if not table.running or (table.game_id, table.moves_made) != (game_id, moves_made):
            return []
        owner = table.players[seat]
        if owner.ai is not None:
            return []
        self.records.hint_given(table_scope(table.ensure_saved()), game_id, moves_made, seat)
        took = time.monotonic() - started
        self.latencies = [*self.latencies[-(LATENCIES_KEPT - 1) :], took]
        with language(self.person_language(table.network, owner.key) or table.channel_language()):
            quoted = [
                {**move, "command": quoted_move(table.plugin, table.state, seat, move["command"])}
                for move in moves
            ]
            text = "\n".join(hint_lines(quoted, took))
            return [table.tell(owner.nick, text, key=owner.key)]

    # --- reviews -----------------------------------------------------------------------------
    def last_game(self, network: str, key: str) -> int | None:
        """The id of the latest finished game ``key`` played on ``network``."""
        row = self.store.db.conn.execute(
            "SELECT g.id FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE g.network=? AND r.user_key=? AND g.status='finished' "
            "ORDER BY COALESCE(g.ended, 0) DESC, g.id DESC LIMIT 1",
            [network, key],
        ).fetchone()
        return int(row[0]) if row else None

    def review(self, network: str, user: User, args: tuple[str, ...]) -> list[Outgoing]:
        """``/review [game-id]``: the speaker's worst decisions of a finished game, privately."""
        lang = self.person_language(network, user.key)

        def tell(text: str) -> list[Outgoing]:
            return [Tell(network, user.nick, text, key=user.key)]

        if args:
            game_id: int | None = number(args[0].lstrip("#"))
            if game_id is None:
                return tell(_("/review takes the number of a game (/history lists yours), or nothing."))
        else:
            game_id = self.last_game(network, user.key)
            if game_id is None:
                return tell(_("You have no finished game to review yet."))
        assert game_id is not None
        record = self.store.game_record(game_id)
        if record is None or record["network"] != network:
            return tell(_("There is no game {id}.").format(id=game_id))
        if record["status"] != "finished":
            return tell(
                _("Game {id} is not finished; only a finished game can be reviewed.").format(id=game_id)
            )
        keys = [str(p.get("key", "")) for p in record["players"]]
        if user.key not in keys:
            return tell(_("You did not play in game {id}; a review is for its players.").format(id=game_id))
        if record["game"] not in self.games:
            return tell(_("The game {game} is no longer installed.").format(game=record["game"]))
        reader = Reader(network, user.nick, user.key, keys.index(user.key), lang)
        stored = self.records.review(game_id)
        if stored is not None:
            return self._review_answer(stored, [reader])
        if game_id not in self.reviewing and len(self.reviewing) >= MAX_REVIEWS:
            return tell(_("Too many reviews are under way; try again in a few minutes."))
        if game_id in self.reviewing:
            if all(r.key != reader.key for r in self.reviewing[game_id]):
                self.reviewing[game_id].append(reader)
            return tell(
                _("The review of game {id} is under way; it comes here when it is done.").format(id=game_id)
            )
        budget = review_budget(self.levels())
        plugin = self.games[record["game"]]
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            made = review(plugin, record, budget, REVIEW_SECONDS)
            self.records.save_review(game_id, made, budget.iterations)
            return self._review_answer(made, [reader])
        self.reviewing[game_id] = [reader]
        self.spawn(self._review_later(game_id, plugin, record, budget))
        return tell(
            _(
                "Reviewing game {id}: the search looks at every decision; "
                "the review comes here when it is done."
            ).format(id=game_id)
        )

    def game_finished(self, table: Table, game_id: int) -> list[str]:
        """A game ended: its review is worked out in the background, for its replay's graph."""
        seconds = self.review_after_game()
        if seconds <= 0 or len(self.reviewing) >= MAX_BACKGROUND_REVIEWS:
            return []
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return []  # no event loop (a synchronous run): nothing in the background
        self.reviewing.setdefault(game_id, [])
        self.spawn(self._review_after_game(game_id, seconds))
        return []

    async def _review_after_game(self, game_id: int, seconds: float) -> None:
        """Once the game's end is on disk, its review within ``seconds`` of CPU, stored (nobody waits)."""
        store = self.store
        for _try in range(RECORD_TRIES):  # read where the event loop does not wait for the store
            record = await store.read(lambda: store.game_record(game_id))
            if record is not None and record["status"] == "finished":
                break
            await asyncio.sleep(RECORD_WAIT)
        else:
            self.reviewing.pop(game_id, None)
            return
        reviewed = await store.read(lambda: self.records.review(game_id))
        if record["game"] not in self.games or reviewed is not None:
            self.reviewing.pop(game_id, None)
            return
        budget = review_budget(self.levels())
        await self._review_later(game_id, self.games[record["game"]], record, budget, seconds, review_quietly)

    async def _review_later(
        self,
        game_id: int,
        plugin: GamePlugin,
        record: dict[str, Any],
        budget: Any,
        seconds: float = REVIEW_SECONDS,
        work: Callable[..., dict[str, Any]] | None = None,
    ) -> None:
        search = work or review  # (a default in the class body would name the method ``review``)
        try:
            made = await self.review_pool().run(
                search, plugin, record, budget, seconds, key=("review", game_id)
            )
        except asyncio.CancelledError:
            self.reviewing.pop(game_id, None)
            return
        except Exception:
            log.exception("the review of game %s failed", game_id)
            readers = self.reviewing.pop(game_id, [])
            await self.run_and_send(
                lambda: [
                    Tell(
                        r.network,
                        r.nick,
                        _("Sorry, the review of game {id} failed.").format(id=game_id),
                        key=r.key,
                    )
                    for r in readers
                ],
                "",
                None,
            )
            return

        def keep() -> list[Outgoing]:
            self.records.save_review(game_id, made, budget.iterations)
            return []

        # kept first, in a unit of its own: on a full disk the review is not kept (the store logs
        # one line), and its readers still get it, from a unit that writes nothing
        await self.run_and_send(keep, "", None)
        await self.run_and_send(lambda: self._review_answer(made, self.reviewing.pop(game_id, [])), "", None)

    def _review_answer(self, made: dict[str, Any], readers: list[Reader]) -> list[Outgoing]:
        out: list[Outgoing] = []
        plugin = self.games.get(made["game"])
        for reader in readers:
            with language(reader.lang):
                title = plugin.title if plugin is not None else made["game"]
                lines = review_lines(made, reader.seat, worst(made, reader.seat), title)
                out.append(Tell(reader.network, reader.nick, "\n".join(lines), listing=True, key=reader.key))
        return out

    def stored_review(self, game_id: int) -> dict[str, Any] | None:
        return self.records.review(game_id)


def review_quietly(plugin: GamePlugin, record: dict[str, Any], budget: Any, seconds: float) -> dict[str, Any]:
    """``review`` at a low priority of its worker process: a review nobody waits for takes idle CPU only.

    In the bot's own process (a thread pool) the priority stays: it would lower the whole bot's.
    """
    if multiprocessing.parent_process() is not None and hasattr(os, "nice"):
        global _lowered
        if not _lowered:
            os.nice(BACKGROUND_NICENESS)
            _lowered = True
    return review(plugin, record, budget, seconds)


#: whether this worker process lowered its priority already (os.nice adds up)
_lowered = False
