"""What happens at a table without anybody typing: AI seats' decisions, the turn clock, paused games.

The tables say *what* is awaited (``Table.ai_decisions``, ``Table.clock_tick``);
this module gets the answers. An AI's search runs in the worker processes
of ``bazaarbot.ai.AiPool``, so the event loop and every other table go on
while it thinks. An answer is played only if the table still awaits that
very decision; otherwise it is dropped. An AI's turn follows the previous move
by at least ``move_delay`` seconds so that people can follow the game; the
further decisions of the same turn follow at once (the table says the turn as
one line when it ends), so the pace is one pause per AI turn, not per decision.

Answers known early are kept per table (``PreparedAnswers``): an AI seat's
next decision in the same turn, read from the tree of its last search, and,
while a person thinks, the AI's answers to the person's likeliest moves
(pondering, in a low-priority worker, cancelled as soon as the position
moves on). A decision whose exact position has one is answered without a search.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bazaarbot.ai import AiPool, ai_seed
from bazaarbot.ai.prepared import PreparedAnswers, position_key
from bazaarbot.ai.turn import choose_turn
from bazaarbot.hub.tick_schedule import TickSchedule
from bazaarbot.i18n import language
from bazaarbot.messages import Outgoing
from bazaarbot.table import Table
from bazaarbot.table.ai_seats import Decision

log = logging.getLogger(__name__)

#: how often the turn clock is looked at (seconds)
TICK_SECONDS = 1.0


class Autoplay:
    """Thinks for AI seats, runs turn clocks, pauses games nobody is present at, abandons forgotten ones."""

    def __init__(
        self,
        send: Callable[[list[Outgoing]], Awaitable[None]],
        spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]],
        pool_factory: Callable[[], AiPool],
        move_delay: float = 1.0,
        abandon_after: float = 7 * 86400.0,
        wall_clock: Callable[[], float] = time.time,
        run: Callable[[Callable[[], list[Outgoing]]], Awaitable[None]] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.send = send
        #: plays a decided move and sends its answers once its writes are committed (the hub's group commit)
        self.run = run
        self.spawn = spawn
        self._pool_factory = pool_factory
        self._pool: AiPool | None = None
        self.move_delay = move_delay
        #: a game paused (no player present) this long is abandoned
        self.abandon_after = abandon_after
        self.wall_clock = wall_clock
        #: the clock and the pause of the pace between AI turns (tests inject their own)
        self.monotonic = monotonic
        self.sleep = sleep
        #: decisions being thought about now, so one is never asked twice
        self.thinking: set[Decision] = set()
        #: tables whose state changed since they were last looked at
        self.dirty: set[Table] = set()
        #: table -> when its last move was played (for the delay between moves)
        self.last_move: dict[Table, float] = {}
        #: networks the bot is disconnected from: their clocks stand still
        self.down: set[str] = set()
        #: answers worked out before they were asked for, per table
        self.prepared: dict[Table, PreparedAnswers] = {}
        #: table -> the position (game, moves made) its pondering thinks ahead from
        self.pondering: dict[Table, tuple[int | None, int]] = {}
        #: decisions answered from a prepared answer, and those searched (the pondering's hit rate)
        self.answered_early = 0
        self.searched = 0
        #: the tables the tick looks at: a table sleeps while nothing can be due, until it changes
        self.schedule = TickSchedule()

    @property
    def pool(self) -> AiPool:
        if self._pool is None:
            self._pool = self._pool_factory()
        return self._pool

    def changed(self, table: Table) -> None:
        """A table's game moved (a move, a start, a hand-over); look at it at the next ``flush``."""
        self.schedule.wake(table)
        self.dirty.add(table)
        self.last_move[table] = self.monotonic()

    def flush(self) -> None:
        """Start thinking for every changed table whose game awaits an AI's decision."""
        tables, self.dirty = self.dirty, set()
        for table in tables:
            self.consider(table)

    def consider(self, table: Table) -> None:
        if not table.running:
            self.cancel(table)
            return
        decisions = table.ai_decisions()
        self._stop_pondering(table, keep=(table.game_id, table.moves_made))
        for decision in decisions:
            self._start(table, decision)
        if not decisions:
            self._ponder(table)

    def _start(self, table: Table, decision: Decision) -> None:
        if decision in self.thinking:
            return
        self.thinking.add(decision)
        # the position is taken now: by the time the task runs the table may have moved on
        state_json = table.plugin.to_json(table.state)
        seed = ai_seed(table.game_seed, decision.moves_made, decision.seat)
        key = position_key(state_json, decision.seat, decision.level)
        prepared = self.prepared.get(table)
        command = prepared.take(key) if prepared is not None else None
        self.spawn(self._think(table, decision, state_json, seed, command))

    async def _think(
        self, table: Table, decision: Decision, state_json: dict[str, Any], seed: int, command: str | None
    ) -> None:
        try:
            started = self.monotonic()
            if command is not None:
                self.answered_early += 1
            else:
                self.searched += 1
                future = self.pool.submit(
                    table.plugin, state_json, decision.seat, decision.level, seed, id(table), choose_turn
                )
                try:
                    answer = await future
                except asyncio.CancelledError:
                    return
                command = answer.command
                if answer.follow_ups:
                    self.prepared.setdefault(table, PreparedAnswers()).add(answer.follow_ups)
            # one pause per AI turn: a decision that goes on the turn under way follows at once
            if table.ai_turn_seat() != decision.seat:
                wait = self.move_delay - (self.monotonic() - max(started, self.last_move.get(table, 0.0)))
                if wait > 0:
                    await self.sleep(wait)

            def play() -> list[Outgoing]:
                with language(table.channel_language()):
                    if decision.timeout:
                        return table.play_timed_out(decision, command)
                    return table.play_for(decision, command)

            if self.run is not None:
                await self.run(play)
            else:
                out = play()
                if out:
                    await self.send(out)
        except Exception:
            log.exception("an AI decision at %s failed", table.channel)
        finally:
            self.thinking.discard(decision)
        self.flush()

    def cancel(self, table: Table) -> None:
        """Stop thinking for a table (its game ended or was reset)."""
        self._stop_pondering(table)
        self.prepared.pop(table, None)
        if self._pool is not None:
            self._pool.cancel(id(table))

    # --- pondering ---------------------------------------------------------------------------
    def _ponder(self, table: Table) -> None:
        """While a person decides, think out the AI seats' answers to their likeliest moves."""
        position = (table.game_id, table.moves_made)
        if self.pondering.get(table) == position or table.idle_since is not None:
            return
        ai_levels = {i: seat.ai for i, seat in enumerate(table.players) if seat.ai is not None}
        people = [i for i in table.plugin.to_act(table.state) if i not in ai_levels]
        if not ai_levels or not people or not self.pool.pondering:
            return
        pool = self.pool
        self.pondering[table] = position
        futures = pool.ponder(
            table.plugin,
            table.plugin.to_json(table.state),
            people[0],
            ai_levels,
            table.game_seed,
            table.moves_made,
            key=(id(table), "ponder"),
        )
        game_id = table.game_id

        def pondered(done: asyncio.Future[dict[str, str]]) -> None:
            if done.cancelled() or done.exception() is not None:
                return
            if table.running and table.game_id == game_id:
                self.prepared.setdefault(table, PreparedAnswers()).add(done.result())

        for future in futures:
            future.add_done_callback(pondered)

    def _stop_pondering(self, table: Table, keep: tuple[int | None, int] | None = None) -> None:
        """Cancel a table's pondering, unless it thinks ahead from the position ``keep``."""
        if table in self.pondering and self.pondering[table] != keep:
            del self.pondering[table]
            if self._pool is not None:
                self._pool.cancel((id(table), "ponder"))

    # --- the clock ---------------------------------------------------------------------------
    def tick(
        self, tables: list[Table], now: float | None = None, backlog: dict[str, float] | None = None
    ) -> list[Outgoing]:
        """Advance the running tables' clocks to ``now``: reminders to send; timed-out decisions start.
        A table whose tick gives nothing sleeps until its next time (``schedule``).

        ``tables``: the ones to look at (the hub's tick: ``schedule.due``); ``backlog`` is, per
        network, how long its transport's queued lines take to leave.
        """
        now = self.wall_clock() if now is None else now
        backlog = backlog or {}
        out: list[Outgoing] = []
        for table in tables:
            if not table.running:
                self.schedule.sleep(table, None)  # a game that starts is a change: it wakes the table
                continue
            with language(table.channel_language()):
                said: list[Outgoing] = []
                decisions: list[Decision] = []
                if table.network not in self.down:
                    said, decisions = table.clock_tick(now, backlog.get(table.network, 0.0))
                    for decision in decisions:
                        self._start(table, decision)
                said += self._pause_or_abandon(table, now)
            if not said and not decisions:  # nothing happened: nothing will before its next time
                self.schedule.sleep(table, table.next_tick(self.abandon_after))
            out += said
        return out

    def _pause_or_abandon(self, table: Table, now: float) -> list[Outgoing]:
        """A game no player is present at pauses; one paused for ``abandon_after`` is abandoned."""
        out = table.check_presence(now)
        ended = table.abandon_if_forgotten(now, self.abandon_after)
        if ended and not table.running:
            self.cancel(table)
        return out + ended

    def network_down(self, network: str, tables: list[Table], now: float | None = None) -> None:
        """The bot lost a network: its tables' clocks stop."""
        now = self.wall_clock() if now is None else now
        self.down.add(network)
        for table in tables:
            if table.network == network:
                table.pause_clock(now)
                self.schedule.wake(table)

    def network_up(self, network: str, tables: list[Table], now: float | None = None) -> None:
        now = self.wall_clock() if now is None else now
        self.down.discard(network)
        for table in tables:
            if table.network == network:
                table.resume_clock(now)
                self.schedule.wake(table)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
