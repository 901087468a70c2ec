"""Suite-wide options: tests marked ``slow`` run in CI (CI=true) or with BAZAARBOT_SLOW=1 only."""

from __future__ import annotations

import os

import pytest
from support.pgcluster import Cluster, start_or_reason

RUN_SLOW = os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get("BAZAARBOT_SLOW") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if RUN_SLOW:
        return
    skip = pytest.mark.skip(reason="slow: runs in CI, or locally with BAZAARBOT_SLOW=1")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


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
