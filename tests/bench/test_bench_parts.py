"""The timed parts of a bot's event loop (``bench.parts``): thread CPU and calls per part, per command."""

from __future__ import annotations

import gc
import importlib
import json
import sys
import types
from collections.abc import Callable
from pathlib import Path

from bazaarbot.bench.parts import COLLECTIONS, LABELS, LOOP, PARTS, PartTimes, parts_lines, read_report, wrap


def _ticking_clock(step: int = 10) -> Callable[[], int]:
    """A clock that moves ``step`` each time it is read."""
    now = [0]

    def clock() -> int:
        now[0] += step
        return now[0]

    return clock


def test_every_timed_part_is_where_the_bot_looks_it_up() -> None:
    for label, where in PARTS:
        module_name, _, path = where.partition(":")
        owner: object = importlib.import_module(module_name)
        for name in path.split("."):
            owner = getattr(owner, name)
        assert callable(owner), label


def test_a_timed_part_counts_its_cpu_and_calls_and_answers_as_before() -> None:
    times = PartTimes(clock=_ticking_clock())
    doubled = times.timed("double", lambda x: 2 * x)
    times.begin()
    assert [doubled(1), doubled(2)] == [2, 4]
    report = times.report()
    assert report["parts"]["double"] == [20, 2]  # each call read the clock twice, 10 apart
    assert report[LOOP] > 0


def test_a_part_that_raises_is_counted_and_raises() -> None:
    times = PartTimes(clock=_ticking_clock())

    def refuse() -> None:
        raise ValueError("no")

    timed = times.timed("refuse", refuse)
    times.begin()
    try:
        timed()
    except ValueError as error:
        assert str(error) == "no"
    assert times.report()["parts"]["refuse"] == [10, 1]


def test_beginning_again_forgets_what_was_counted() -> None:
    times = PartTimes(clock=_ticking_clock())
    part = times.timed("part", lambda: None)
    part()
    times.begin()
    assert times.report()["parts"]["part"] == [0, 0]


def test_wrap_replaces_a_method_where_it_is_looked_up() -> None:
    module = types.ModuleType("timed_here")

    class Thing:
        def twice(self, x: int) -> int:
            return 2 * x

    module.Thing = Thing  # type: ignore[attr-defined]
    sys.modules["timed_here"] = module
    try:
        times = PartTimes(clock=_ticking_clock())
        wrap(times, (("twice", "timed_here:Thing.twice"),))
        times.begin()
        assert Thing().twice(3) == 6
        assert times.report()["parts"]["twice"][1] == 1
    finally:
        del sys.modules["timed_here"]


def test_a_report_reads_as_microseconds_and_calls_per_command(tmp_path: Path) -> None:
    first_label = PARTS[0][0]
    report = tmp_path / "parts.json"
    report.write_text(json.dumps({LOOP: 900_000, "parts": {first_label: [40_000, 20]}}))
    rows = read_report(report, commands=10)
    assert rows[0] == (LOOP, 90.0, 0.0)
    assert rows[1] == (first_label, 4.0, 2.0)
    assert [label for label, _us, _calls in rows] == [LOOP, *LABELS]
    assert all(us == 0 for _label, us, _calls in rows[2:])
    lines = parts_lines("this build", [rows, rows])
    assert lines[0].startswith("this build, paced: where the event loop's CPU went")
    assert lines[1].split()[-2:] == ["90.0,", "90.0"]
    assert lines[2].endswith("4.0 (2.00), 4.0 (2.00)")


def test_a_collection_is_counted_with_its_cpu_from_its_start_to_its_stop() -> None:
    times = PartTimes(clock=_ticking_clock())
    times.begin()
    times.collection("start", {"generation": 0})
    times.collection("stop", {"generation": 0, "collected": 0})
    times.collection("stop", {"generation": 0, "collected": 0})  # a stop without its start: nothing
    assert times.report()["parts"][COLLECTIONS] == [10, 1]
    assert LABELS[-1] == COLLECTIONS


def test_the_collector_tells_a_timed_bot_of_each_collection() -> None:
    times = PartTimes()
    automatic = gc.isenabled()
    gc.disable()  # only the collection asked for here runs meanwhile
    gc.callbacks.append(times.collection)
    try:
        times.begin()
        gc.collect(0)
    finally:
        gc.callbacks.remove(times.collection)
        if automatic:
            gc.enable()
    assert times.report()["parts"][COLLECTIONS][1] == 1
