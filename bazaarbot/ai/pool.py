"""``AiPool``: AI decisions in worker processes, so the event loop never waits for a search.

The state travels as the plugin's ``to_json``; the answer is the command
text. A think can be cancelled (by its future or by the key it was started
with, e.g. a table); an answer that arrives after that is dropped.

Pondering (thinking ahead while a person thinks) runs in a worker of its own
at a lower scheduling priority, so it takes only CPU the real thinks leave
over and never holds one up.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from bazaarbot.plugin import GamePlugin

from .choose import choose
from .levels import DEFAULT_LEVELS, Level
from .ponder import PONDER_MOVES, ponder

#: how much nicer than the bot a pondering worker runs (the scheduler's niceness)
PONDER_NICENESS = 10


def timed(work: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """Run ``work`` in a worker and say how much CPU it took there (for the metrics)."""
    started = time.process_time()
    result = work(*args)
    return result, time.process_time() - started


#: how often a worker looks whether the bot that started it is still there (seconds)
ORPHAN_CHECK = 0.5


def stop_with_the_bot(bot: int) -> None:
    """A worker's start: it ends as soon as its bot is gone (a kill -9 leaves no search running on)."""

    def watch() -> None:
        while os.getppid() == bot:
            time.sleep(ORPHAN_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="bazaarbot-orphan-watch", daemon=True).start()


def lower_priority(bot: int) -> None:
    """A pondering worker's start: yield the CPU to everything else of the bot's, and end with it."""
    os.nice(PONDER_NICENESS)
    stop_with_the_bot(bot)


def _spawned(workers: int, watch_the_bot: Callable[[int], None]) -> Executor:
    """Worker processes that each run ``watch_the_bot(this bot's pid)`` first.

    Spawned, not forked: a forked copy of a running event loop (threads,
    sockets) is not safe.
    """
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=watch_the_bot, initargs=(os.getpid(),)
    )


def default_workers() -> int:
    """One less than the cores (the event loop keeps one), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


class AiPool:
    """A process pool that thinks for AI seats; create it once, ``shutdown`` it at the end."""

    def __init__(
        self,
        workers: int | None = None,
        levels: dict[str, Level] | None = None,
        executor: Executor | None = None,
        ponder_executor: Executor | None = None,
        ponder: bool = True,
    ) -> None:
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.levels = dict(levels) if levels is not None else dict(DEFAULT_LEVELS)
        self._executor = executor
        self._ponder_executor = ponder_executor
        #: whether the hub ponders: asked to, with the pool's own workers or a pondering executor given
        self.pondering = ponder and (executor is None or ponder_executor is not None)
        self._pending: dict[Any, set[asyncio.Future[Any]]] = {}
        self._closed = False
        #: told (CPU seconds, purpose) after every search that finished (the metrics)
        self.observe: Callable[[float, str], None] | None = None

    def _pool(self) -> Executor:
        if self._closed:
            raise RuntimeError("the AI pool is shut down")
        if self._executor is None:
            self._executor = _spawned(self.workers, stop_with_the_bot)
        return self._executor

    def _ponder_pool(self) -> Executor:
        if self._closed:
            raise RuntimeError("the AI pool is shut down")
        if self._ponder_executor is None:
            self._ponder_executor = _spawned(1, lower_priority)
        return self._ponder_executor

    def submit(
        self,
        game: str | GamePlugin,
        state_json: dict[str, Any],
        seat: int,
        level: str,
        seed: int,
        key: Any = None,
        work: Callable[..., Any] = choose,
    ) -> asyncio.Future[Any]:
        """Start a think now; the future gives the command (``work``'s answer: ``choose_turn`` gives an
        ``Answer`` with the seat's follow-ups in the turn), or is cancelled and never delivers."""
        if level not in self.levels and level not in ("random", "greedy"):
            raise KeyError(f"no AI level {level!r}; known: {', '.join(self.levels)}")
        args = (game, state_json, seat, level, seed, self.levels)
        return self._start("move", key, work, *args)

    def ponder(
        self,
        game: str | GamePlugin,
        state_json: dict[str, Any],
        person: int,
        ai_levels: dict[int, str],
        game_seed: int,
        moves_made: int,
        key: Any = None,
    ) -> list[asyncio.Future[dict[str, str]]]:
        """The AI seats' answers to a person's likeliest moves (``ponder.ponder``), on its own worker:
        one task per move, likeliest first, so cancelling drops those not started yet."""
        args = (game, state_json, person, ai_levels, game_seed, moves_made, self.levels)
        return [
            self._start("ponder", key, ponder, *args, rank, executor=self._ponder_pool())
            for rank in range(PONDER_MOVES)
        ]

    def run(self, work: Callable[..., Any], *args: Any, key: Any = None) -> asyncio.Future[Any]:
        """Run any picklable search function (a hint, a review) in a worker; cancellable by ``key``."""
        return self._start("teach", key, work, *args)

    def _start(
        self, purpose: str, key: Any, work: Callable[..., Any], *args: Any, executor: Executor | None = None
    ) -> asyncio.Future[Any]:
        """``work`` in a worker, timed there; the future gives its result (cancelling it cancels the work)."""
        loop = asyncio.get_running_loop()
        inner = loop.run_in_executor(executor or self._pool(), timed, work, *args)
        outer: asyncio.Future[Any] = loop.create_future()

        def finished(done: asyncio.Future[tuple[Any, float]]) -> None:
            if done.cancelled():
                if not outer.done():
                    outer.cancel()
                return
            error = done.exception()
            if outer.done():
                return
            if error is not None:
                outer.set_exception(error)
                return
            result, cpu = done.result()
            if self.observe is not None:
                self.observe(cpu, purpose)
            outer.set_result(result)

        inner.add_done_callback(finished)
        outer.add_done_callback(lambda o: inner.cancel() if o.cancelled() else None)
        self._track(key, outer)
        return outer

    @property
    def queued(self) -> int:
        """Searches waiting for a worker or running now."""
        return sum(len(waiting) for waiting in self._pending.values())

    def _track(self, key: Any, future: asyncio.Future[Any]) -> None:
        waiting = self._pending.setdefault(key, set())
        waiting.add(future)

        def forget(done: asyncio.Future[Any]) -> None:
            waiting.discard(done)
            if not waiting and self._pending.get(key) is waiting:
                del self._pending[key]

        future.add_done_callback(forget)

    #: ``await pool.think(...)``: the command the AI plays (the future ``submit`` gives); raises
    #: ``asyncio.CancelledError`` if the think was cancelled
    think = submit

    def thinking(self, key: Any = None) -> bool:
        """Whether a think started with ``key`` is still pending."""
        return bool(self._pending.get(key))

    def cancel(self, key: Any = None) -> int:
        """Cancel every pending think started with ``key``; returns how many were cancelled."""
        futures = list(self._pending.pop(key, ()))
        for future in futures:
            future.cancel()
        return len(futures)

    def shutdown(self) -> None:
        """Cancel everything pending and stop the workers (without waiting for a running search)."""
        self._closed = True
        for key in list(self._pending):
            self.cancel(key)
        for executor in (self._executor, self._ponder_executor):
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._ponder_executor = None
