"""The Discord tests' testbed: one per test module, its tests on one xdist worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.discordbed import start_testbed


@pytest.fixture(scope="module")
def testbed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    yield from start_testbed(tmp_path_factory.mktemp("discord"))
