"""Suite-wide options: tests marked ``slow`` run in CI (CI=true) or with BAZAARBOT_SLOW=1 only."""

from __future__ import annotations

import os

import pytest

RUN_SLOW = os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get("BAZAARBOT_SLOW") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if RUN_SLOW:
        return
    skip = pytest.mark.skip(reason="slow: runs in CI, or locally with BAZAARBOT_SLOW=1")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
