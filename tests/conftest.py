"""Suite-wide options and the fixtures several folders share.

Tests marked ``slow`` run in CI (CI=true) or with BAZAARBOT_SLOW=1 only. The
IRC fixtures (a real ngircd, the list of things closed after a test, the usual
cast of hub, bot and raw clients) serve tests/transports/irc, tests/table and
tests/people; their helpers live in support.ircserver. The ``browser`` fixture
hands each browser test the worker's one Chromium (support.browsers) and runs
that test on the worker's session-wide event loop.
"""

from __future__ import annotations

import functools
import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from support.browsers import WorkerChromium, require_chromium
from support.clifork import CliForks
from support.ircserver import NGIRCD, IrcServer, close_all, gather_cast, require_server
from support.pgcluster import Cluster, start_or_reason
from support.precompile import precompile

RUN_SLOW = os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get("BAZAARBOT_SLOW") == "1"
#: the checkout: its packages are compiled once per run (see ``pytest_configure``)
ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """Compile the sources and rewrite the test modules once, before the test workers start.

    Hundreds of processes load the sources (each console, ``run``, AI worker and
    test worker) and every worker imports every test module (support.precompile).
    """
    if hasattr(config, "workerinput"):
        return  # a test worker: the run that started it compiled them
    precompile(config, [ROOT / "bazaarbot", ROOT / "plugins"], ROOT / "tests")


#: the files whose tests take longest (whole games through a process, a browser or Synapse): they
#: are handed out first, so that none of them starts near the end while the other workers idle
LONGEST_FIRST = (
    "tests/transports/discord/",
    "tests/transports/matrix/test_matrix.py",
    "tests/transports/web/test_web_table.py",
    "tests/transports/web/test_web_layout.py",
    "tests/i18n/test_games_in_german_and_spanish.py",
    "tests/transports/console/",
    "tests/i18n/test_reader_language.py",
    "tests/store/test_failover.py",
    "tests/games/",
)


def _handed_out(item: pytest.Item) -> int:
    """An item's place in the order: the longest files first, then the rest as collected."""
    path = item.nodeid.split("::", 1)[0]
    for place, prefix in enumerate(LONGEST_FIRST):
        if path.startswith(prefix):
            return place
    return len(LONGEST_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_handed_out)  # stable: within a file, the order stays as written
    # the shared Chromium's connection belongs to the worker's session-wide event loop
    on_session_loop = pytest.mark.asyncio(loop_scope="session")
    skip = pytest.mark.skip(reason="slow: runs in CI, or locally with BAZAARBOT_SLOW=1")
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(on_session_loop, append=False)
        if not RUN_SLOW and item.get_closest_marker("slow"):
            item.add_marker(skip)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def worker_chromium() -> AsyncIterator[WorkerChromium]:
    """Playwright and one headless Chromium for this test worker (skips, or fails in CI, without them)."""
    require_chromium()
    chromium = WorkerChromium()
    yield chromium
    await chromium.stop()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(worker_chromium: WorkerChromium) -> AsyncIterator[Any]:
    """The worker's Chromium; every context the test opens (cookies, storage, pages) is closed after it."""
    yield await worker_chromium.browser()
    await worker_chromium.tidy()


@pytest.fixture(scope="session")
def bazaarbot_forks() -> Iterator[CliForks]:
    """Short ``bazaarbot`` commands, each a process forked from one that imported the package once
    (support.clifork); one such server for a test worker (the modules that use it share the
    xdist group ``bazaarbot-forks``, so one worker serves them all)."""
    forks = CliForks()
    try:
        yield forks
    finally:
        forks.close()


@pytest.fixture(scope="session")
def postgres_cluster():
    """The tests' own PostgreSQL cluster (skips the test with the reason when PostgreSQL is not installed)."""
    cluster, reason = start_or_reason()
    if cluster is None:
        pytest.skip(reason)
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, tmp_path) -> str:
    """Where a test's store lives: a sqlite file, then a fresh PostgreSQL database (same tests)."""
    if request.param == "sqlite":
        return str(tmp_path / "bot.sqlite")
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    return cluster.database()


@pytest.fixture
def ircserver(tmp_path: Path) -> Iterator[IrcServer]:
    """A fast server for functional tests: flood penalties off (MaxPenaltyTime = 0)."""
    require_server()
    server = IrcServer(tmp_path, penalties=False)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def ircserver_flood(tmp_path: Path) -> Iterator[IrcServer]:
    """A server with ngircd's default flood control, for the pacing tests."""
    require_server()
    if NGIRCD is None:
        pytest.skip("the flood test needs ngircd's default flood control (miniircd has none)")
    server = IrcServer(tmp_path, penalties=True)
    server.start()
    yield server
    server.stop()


@pytest_asyncio.fixture
async def closing() -> AsyncIterator[list[Any]]:
    """Whatever a test puts here (raw clients, bots, hubs) is closed at the end, last in first out."""
    made: list[Any] = []
    yield made
    await close_all(made)


@pytest.fixture
def irc_cast(tmp_path: Path, ircserver: IrcServer, closing: list[Any]) -> Callable[..., Any]:
    """``await irc_cast({"alice": ("#bazaar",)}, ...)``: hub, bot and raw clients on the fast server."""
    return functools.partial(gather_cast, tmp_path, ircserver, closing)
