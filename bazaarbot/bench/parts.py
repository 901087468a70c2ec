"""Where a bot's event loop spends its CPU, part by part: a bot process whose named parts are timed.

``python -m bazaarbot.bench.parts REPORT ARGS...`` runs ``bazaarbot ARGS`` with
each part of ``PARTS`` wrapped in a timer of its thread's CPU (not wall time:
a sampling profiler counts the time a process is off the core during a socket
write as that write's, and ``cProfile`` inflates code made of many small
calls). ``SIGUSR1`` starts a measurement; ``SIGUSR2`` writes it to ``REPORT``
as JSON: the event loop thread's CPU meanwhile, each part's CPU and calls, and
the garbage collector's (``gc.callbacks``: a collection falls on whatever code
allocates when it starts, so it is counted apart too). A part's time includes
the parts it calls (a view's public part is inside the views built) and any
collection that ran inside it. ``bench load --versus TREE --parts`` runs this
build's bot so and prints the table for its paced phases. The timers cost
about a microsecond per call, so a run with them says where the CPU goes, not
how this build compares with another.

Importing this module changes nothing. The bot runs as ``python -m
bazaarbot.cli`` runs it, so a worker process it spawns imports what it would.
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import os
import runpy
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: (label, where the part is looked up when it is called: ``module:name`` or ``module:Class.name``)
PARTS: tuple[tuple[str, str], ...] = (
    ("frames read (aiohttp)", "bazaarbot.transports.web.guard:GuardedProtocol.data_received"),
    ("a frame decoded", "bazaarbot.transports.web.server:decode_frame"),
    ("a line through the hub (read, gate, dispatch, localize, its unit)", "bazaarbot.hub.hub:Hub._in_unit"),
    ("  a line read", "bazaarbot.hub.hub:read"),
    ("  a move played", "bazaarbot.table.game:RunningGame.play"),
    ("  /moves answered", "bazaarbot.table.views:Views.moves"),
    ("the store's answer taken on the loop", "bazaarbot.store.writer:StoreWriter._written"),
    ("a room's public lines", "bazaarbot.transports.web.server:WebTransport._public"),
    ("private lines sorted (answer, hand)", "bazaarbot.transports.web.server:sort_tell"),
    ("views built and queued", "bazaarbot.transports.web.server:WebTransport._build_views"),
    ("  the view version", "bazaarbot.hub.views:TransportViews.view_version"),
    ("  a room's public part", "bazaarbot.hub.views:public_view"),
    ("  a reader's own part", "bazaarbot.hub.views:your_view"),
    ("  the tables frame", "bazaarbot.transports.web.server:WebTransport._send_tables"),
    ("messages written to the sockets", "bazaarbot.transports.web.outbox:Outbox.drain"),
)

#: the key of the event loop thread's CPU in a report
LOOP = "event loop thread"
#: the collector's own CPU (a young, middle or timed full collection; in whichever thread ran it)
COLLECTIONS = "garbage collections"
#: a report's rows after the loop's: each part, then the collections
LABELS: tuple[str, ...] = (*(label for label, _where in PARTS), COLLECTIONS)


@dataclass
class PartTimes:
    """Each part's thread CPU (ns) and calls since the measurement began, and the thread's own CPU."""

    clock: Callable[[], int] = time.thread_time_ns
    spent: dict[str, list[int]] = field(default_factory=dict)
    began: int | None = None
    _collecting: int | None = field(default=None, init=False)

    def timed(self, label: str, part: Callable[..., Any]) -> Callable[..., Any]:
        """``part`` counting its CPU and calls under ``label``."""
        tally = self.spent.setdefault(label, [0, 0])
        clock = self.clock

        @functools.wraps(part)
        def timed_part(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return part(*args, **kwargs)
            finally:
                tally[0] += clock() - started
                tally[1] += 1

        return timed_part

    def collection(self, phase: str, _info: dict[str, Any]) -> None:
        """A ``gc.callbacks`` entry: each collection's CPU and count under ``COLLECTIONS``.

        The collector runs one collection at a time, in the thread that triggered it, so the clock
        read at its start is read again in the same thread at its stop.
        """
        if phase == "start":
            self._collecting = self.clock()
        elif self._collecting is not None:
            tally = self.spent.setdefault(COLLECTIONS, [0, 0])
            tally[0] += self.clock() - self._collecting
            tally[1] += 1
            self._collecting = None

    def begin(self) -> None:
        for tally in self.spent.values():
            tally[0] = tally[1] = 0
        self.began = self.clock()

    def report(self) -> dict[str, Any]:
        """The thread's CPU since ``begin`` and each part's (ns, calls)."""
        loop = self.clock() - self.began if self.began is not None else 0
        return {LOOP: loop, "parts": {label: list(tally) for label, tally in self.spent.items()}}


def wrap(times: PartTimes, parts: tuple[tuple[str, str], ...] = PARTS) -> None:
    """Replace each part where it is looked up by its timed self."""
    for label, where in parts:
        module_name, _, path = where.partition(":")
        owner: Any = importlib.import_module(module_name)
        *outer, name = path.split(".")
        for attribute in outer:
            owner = getattr(owner, attribute)
        setattr(owner, name, times.timed(label, getattr(owner, name)))


def main(argv: list[str]) -> int:
    """``REPORT ARGS...``: ``bazaarbot ARGS`` with its parts timed, measured between the two signals."""
    report, *args = argv
    times = PartTimes()
    wrap(times)
    gc.callbacks.append(times.collection)
    signal.signal(signal.SIGUSR1, lambda *_: times.begin())

    def write(*_: Any) -> None:
        written = Path(report + ".part")
        written.write_text(json.dumps(times.report()))
        os.replace(written, report)  # whole or not at all: the bench reads it once it is there

    signal.signal(signal.SIGUSR2, write)
    # run as ``python -m bazaarbot.cli ARGS`` runs (a worker it spawns imports that module again)
    sys.argv = ["bazaarbot", *args]
    runpy.run_module("bazaarbot.cli", run_name="__main__", alter_sys=True)
    return 0


def read_report(path: Path, commands: int) -> list[tuple[str, float, float]]:
    """(label, µs per command, calls per command) of a report: the event loop thread first."""
    found = json.loads(path.read_text())
    per = max(1, commands)
    rows = [(LOOP, found[LOOP] / 1000 / per, 0.0)]
    for label in LABELS:
        ns, calls = found["parts"].get(label, (0, 0))
        rows.append((label, ns / 1000 / per, calls / per))
    return rows


def parts_lines(build: str, phases: list[list[tuple[str, float, float]]]) -> list[str]:
    """The table of ``read_report``'s rows, one column per paced phase: µs per command, and calls per
    command after each part's figure."""
    width = max(len(label) for label, _us, _calls in phases[0])
    lines = [f"{build}, paced: where the event loop's CPU went, µs per command (calls per command)"]
    for row, (label, _us, _calls) in enumerate(phases[0]):
        figures = ", ".join(
            f"{phase[row][1]:.1f}" + (f" ({phase[row][2]:.2f})" if label != LOOP else "") for phase in phases
        )
        lines.append(f"  {label:<{width}}  {figures}")
    return lines


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
