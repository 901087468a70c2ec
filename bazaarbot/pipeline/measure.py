"""Beside the stages: what each line turned out to be (a command or a move, at which game) and its time.

The reading stage says what a line is while it runs synchronously; the hub's
``handle`` then awaits the commit and the delivery. ``Measure.line`` ties the
two together for the metrics: the kind is taken right after the line's work,
before another line can run, and the time runs until its answers are handed on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from bazaarbot.metrics import Metrics

T = TypeVar("T")


class LineSeen:
    """One line being handled: the kind its reading gave, taken once its synchronous work is done.

    A context manager (``with measure.line(network) as seen``) written as a class: every line
    enters one, and this is the cheap way in and out.
    """

    __slots__ = ("measure", "network", "kind", "started")

    def __init__(self, measure: Measure, network: str) -> None:
        self.measure = measure
        self.network = network
        self.kind: tuple[str, str | None] | None = None
        self.started = 0.0

    def __enter__(self) -> LineSeen:
        self.started = time.perf_counter()
        return self

    def __exit__(self, error_type: object, *_rest: object) -> None:
        if error_type is None and self.kind is not None:  # chatter is neither counted nor timed
            kind, game = self.kind
            self.measure.metrics.handled(self.network, game, kind, time.perf_counter() - self.started)

    def after(self, answers: T) -> T:
        """Pass the line's answers through, keeping what the reading said it was."""
        reading, self.measure.reading = self.measure.reading, None
        if reading is not None:
            kind, game = reading
            self.kind = (kind, game() or None)
        return answers


class Measure:
    """Counts commands and moves by network and game, with their time to the answer."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        #: (command or move, how to find its game) of the line being read right now
        self.reading: tuple[str, Callable[[], str | None]] | None = None

    def read_as(self, kind: str, game: Callable[[], str | None]) -> None:
        self.reading = (kind, game)

    def line(self, network: str) -> LineSeen:
        """A line of ``network`` from now until its answers are handed on (``with ... as seen``)."""
        return LineSeen(self, network)
