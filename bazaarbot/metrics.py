"""The bot's figures for a monitoring system, in the Prometheus text format (``GET /metrics``).

One ``Metrics`` per hub, on a registry of its own (not the library's global
one), so several bots in one process (the tests) never share counters. The
parts of the bot report events here (a command handled, a batch committed, a
search done, a line sent); what is a state rather than an event (live tables,
seated people, open websockets, queue lengths) is read when scraped, from
functions the parts register with ``gauge``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

#: an AI pool (``ai.pool.AiPool``; not imported, so the metrics stand below the AI)
P = TypeVar("P")

#: what ``GET /metrics`` answers with
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: seconds from a line's arrival to its answer being handed to the transport
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: units in one group commit
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
#: seconds one group commit takes (fsync included)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

#: ``[web] metrics``: who may read ``/metrics``
METRICS_ACCESS = ("loopback", "off", "all")


class Metrics:
    """Counters, histograms and gauges of one bot."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.commands = Counter(
            "bazaarbot_commands",
            "Lines handled as commands or moves",
            ["network", "game", "kind"],
            registry=r,
        )
        self.latency = Histogram(
            "bazaarbot_command_seconds",
            "Seconds from a line's arrival to its answers being handed to the transport",
            ["network"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.refusals = Counter("bazaarbot_refusals", "Lines refused, by reason", ["reason"], registry=r)
        self.batch_size = Histogram(
            "bazaarbot_commit_batch_units",
            "Units (lines) in one group commit",
            buckets=BATCH_BUCKETS,
            registry=r,
        )
        self.commit_seconds = Histogram(
            "bazaarbot_commit_seconds", "Seconds one group commit takes", buckets=COMMIT_BUCKETS, registry=r
        )
        self.ai_searches = Counter("bazaarbot_ai_searches", "AI searches finished", ["purpose"], registry=r)
        self.ai_cpu = Counter(
            "bazaarbot_ai_cpu_seconds", "CPU seconds the AI workers spent searching", ["purpose"], registry=r
        )
        self.takeover = Gauge(
            "bazaarbot_takeover_seconds",
            "This process's takeover of its networks: seconds from the previous owner's last renewal "
            "until it served (until=serving) and until its first answered line (until=first_answer)",
            ["until"],
            registry=r,
        )
        #: the labelled counters and histograms a line reports to, found once per label values
        self._handled: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        #: told once, when the next line has been answered (a takeover's first answer)
        self._first_answer: list[Callable[[], None]] = []
        self._gauges: dict[str, Gauge] = {}
        self._counted = _ReadCounters()
        r.register(self._counted)

    # --- events ------------------------------------------------------------------------
    def handled(self, network: str, game: str | None, kind: str, seconds: float | None = None) -> None:
        """A line was handled as ``kind`` (``command`` or ``move``) at a table of ``game``."""
        labels = (network, game or "-", kind)
        children = self._handled.get(labels)
        if children is None:  # a child per label values lives as long as its metric: found once
            children = self._handled[labels] = (self.commands.labels(*labels), self.latency.labels(network))
        counter, latency = children
        counter.inc()
        if seconds is not None:
            latency.observe(seconds)
        if self._first_answer:
            told, self._first_answer = self._first_answer, []
            for callback in told:
                callback()

    def after_next_answer(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once, when the next line has been answered."""
        self._first_answer.append(callback)

    def took_over(self, until: str, seconds: float) -> None:
        """A takeover's time: until this process served (``serving``) or first answered (``first_answer``)."""
        self.takeover.labels(until).set(seconds)

    def refused(self, reason: str) -> None:
        self.refusals.labels(reason).inc()

    def committed(self, units: int, seconds: float) -> None:
        self.batch_size.observe(units)
        self.commit_seconds.observe(seconds)

    def searched(self, cpu_seconds: float, purpose: str = "move") -> None:
        self.ai_searches.labels(purpose).inc()
        self.ai_cpu.labels(purpose).inc(max(0.0, cpu_seconds))

    # --- states ------------------------------------------------------------------------
    def gauge(
        self, name: str, documentation: str, read: Callable[[], float], labels: dict[str, str] | None = None
    ) -> None:
        """A figure read when scraped; ``labels`` tell apart several sources of one figure (networks)."""
        labels = labels or {}
        gauge = self._gauges.get(name)
        if gauge is None:
            gauge = Gauge(name, documentation, sorted(labels), registry=self.registry)
            self._gauges[name] = gauge
        child = gauge.labels(**labels) if labels else gauge

        def safe() -> float:
            try:
                return float(read())
            except Exception:  # a figure must never break a scrape
                log.exception("metrics: reading %s failed", name)
                return float("nan")

        child.set_function(safe)

    def counted(
        self, name: str, documentation: str, read: Callable[[], float], labels: dict[str, str] | None = None
    ) -> None:
        """A counter a part keeps itself (lines sent), read when scraped; exposed as ``name_total``."""
        self._counted.add(name, documentation, read, labels or {})

    def render(self) -> bytes:
        """The text a Prometheus server scrapes."""
        return generate_latest(self.registry)


class _ReadCounters(Collector):
    """Counters whose values live in the parts that count them, read at each scrape."""

    def __init__(self) -> None:
        self.sources: dict[str, tuple[str, list[tuple[dict[str, str], Callable[[], float]]]]] = {}

    def add(self, name: str, documentation: str, read: Callable[[], float], labels: dict[str, str]) -> None:
        sources = self.sources.setdefault(name, (documentation, []))[1]
        sources[:] = [(known, old) for known, old in sources if known != labels]  # a restarted part
        sources.append((labels, read))

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        for name, (documentation, sources) in self.sources.items():
            names = sorted(sources[0][0]) if sources else []
            family = CounterMetricFamily(name, documentation, labels=names)
            for labels, read in sources:
                try:
                    family.add_metric([labels[n] for n in names], float(read()))
                except Exception:  # a figure must never break a scrape
                    log.exception("metrics: reading %s failed", name)
            yield family


def allowed(access: str, client_is_loopback: bool, forwarded: bool) -> bool:
    """Whether a client may read ``/metrics`` under ``[web] metrics``.

    ``loopback`` answers only a client on this machine that came straight to the
    bot, not one a trusted proxy forwarded (the proxy itself is local).
    """
    if access == "all":
        return True
    if access == "loopback":
        return client_is_loopback and not forwarded
    return False


def watch_tables(metrics: Metrics, tables: Callable[[], Iterable[Any]]) -> None:
    """Live tables (a game running) and the people seated at them, read from the hub's tables."""

    def live() -> int:
        return sum(1 for table in tables() if table.running)

    def seated() -> int:
        return sum(
            1
            for table in tables()
            if table.running
            for seat in table.players
            if not seat.is_bot and seat.has_person
        )

    metrics.gauge("bazaarbot_live_tables", "Tables with a game running", live)
    metrics.gauge("bazaarbot_seated_people", "People playing their own seat at a running game", seated)


def watch_pool(metrics: Metrics, pool: P) -> P:
    """An AI pool whose searches are counted and timed, and whose queue length is read when scraped."""
    pool.observe = lambda cpu, purpose: metrics.searched(cpu, purpose)
    metrics.gauge("bazaarbot_ai_queue", "AI searches waiting for a worker or running", lambda: pool.queued)
    return pool
