"""The Discord tests' testbed: one per test worker, started when its first Discord test runs.

Starting one costs a PostgreSQL cluster and three Node processes, so the
modules share it: each test takes rooms of its own (``room``) and stops its
bot before the next starts. The modules fall into two xdist groups
(``discord-a``, ``discord-b``), which keeps the starts to two per run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.discordbed import start_testbed


@pytest.fixture(scope="session")
def testbed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    yield from start_testbed(tmp_path_factory.mktemp("discord"))
