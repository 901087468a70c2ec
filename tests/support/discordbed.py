"""The Discord-compatible server of the tests: the shared testbed (Spacebar) on its own PostgreSQL.

One testbed per test worker (the Discord modules share two xdist groups): a cluster the
test starts itself (``pgcluster``), the testbed built once into
``~/.cache/discord-testbed`` and started on free loopback ports. People act
through the testbed's ``spacebar_people`` (REST, and their own gateway for
ephemeral replies). Skipped, saying why, only when a part is not installed.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from support.paths import REPO_ROOT
from support.pgcluster import Cluster, server_bin
from support.waits import wait_until

#: the testbed's folder: beside the repository, or where ``DISCORD_TESTBED`` says
TESTBED_DIR = Path(os.environ.get("DISCORD_TESTBED") or REPO_ROOT.parent / "shared" / "discord-testbed")
#: where it is built, once per machine
CACHE_DIR = Path(os.environ.get("DISCORD_TESTBED_CACHE") or Path.home() / ".cache" / "discord-testbed")


def testbed_module(name: str) -> Any:
    """One of the testbed's own Python modules (``spacebar_people``), from its folder."""
    if str(TESTBED_DIR) not in sys.path:
        sys.path.insert(0, str(TESTBED_DIR))
    return importlib.import_module(name)


def testbed_missing() -> str | None:
    """Why the Discord tests cannot run here, or None."""
    if importlib.util.find_spec("discord") is None:
        return "discord.py is not installed (pip install -e '.[test]')"
    if not (TESTBED_DIR / "testbed").exists():
        return f"the Discord testbed is not at {TESTBED_DIR}"
    if shutil.which("npm") is None and not (CACHE_DIR / "node").exists():
        return "npm is not installed (apt-get install npm): the testbed's build needs it"
    if server_bin() is None:
        return "PostgreSQL is not installed: the testbed keeps its data there"
    return None


def _testbed(*args: str, timeout: float) -> str:
    done = subprocess.run(
        [str(TESTBED_DIR / "testbed"), *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"testbed {args[0]} failed: {done.stderr[-2000:]}")
    return done.stdout


#: text channels made in the guild before any bot connects (``info["rooms"]``): a test takes its own
ROOMS = 24


def _make_rooms(info: dict[str, Any], count: int) -> list[str]:
    """New text channels in the guild, made by its owner (alice) while no bot is connected: the bot
    learns them from the guild it is sent at connecting, as it would on Discord."""
    owner = testbed_module("spacebar_people").Person.from_testbed(info, "alice")
    return [
        str(
            owner.request(
                "POST",
                f"/guilds/{info['guild_id']}/channels",
                {"name": f"table-{index}", "type": 0, "position": index + 1},
            )["id"]
        )
        for index in range(count)
    ]


def start_testbed(tmp: Path) -> Iterator[dict[str, Any]]:
    """A running testbed's facts (URLs, the bot's token, the guild, channel, people, ``rooms``: text
    channels for the tests); stopped after."""
    missing = testbed_missing()
    if missing:
        pytest.skip(missing)
    cluster = Cluster()
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute("CREATE ROLE spacebar LOGIN")
            conn.execute("CREATE DATABASE spacebar OWNER spacebar")
        _testbed("build", str(CACHE_DIR), timeout=900)
        run_dir = tmp / "testbed"
        run_dir.mkdir()
        url = f"postgres://spacebar@127.0.0.1:{cluster.port}/spacebar"
        info = json.loads(_testbed("start", str(CACHE_DIR), str(run_dir), url, timeout=300))
        info["rooms"] = _make_rooms(info, ROOMS)
        try:
            yield info
        finally:
            subprocess.run([str(TESTBED_DIR / "testbed"), "stop", str(run_dir)], timeout=60, check=False)
    finally:
        cluster.stop()


def restart_gateway(info: dict[str, Any]) -> dict[str, Any]:
    """Restart only the testbed's gateway (the same port): every gateway client is cut off."""
    return json.loads(_testbed("restart-gateway", info["run_dir"], timeout=180))


def bot_config(info: dict[str, Any], *, name: str = "discord", extra: str = "") -> str:
    """A ``[[discord.bots]]`` entry for the testbed's bot."""
    return (
        "[[discord.bots]]\n"
        f'name = "{name}"\n'
        f'token = "{info["bot_token"]}"\n'
        f'api_url = "{info["api_base"]}"\n'
        f'gateway_url = "{info["gateway_url"]}"\n'
        f"{extra}"
    )


#: the suite's one wait (``support.waits``), under the name the Discord tests use; its conditions
#: often ask the testbed, so they are read ten times a second
until = functools.partial(wait_until, interval=0.1)
