"""``bazaarbot run --host/--port/--db``: the options override the config; a used port says the fix."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from pathlib import Path

import aiohttp
from support.paths import REPO_ROOT

from bazaarbot.cli import build_parser

ROOT = REPO_ROOT


async def _run(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bazaarbot.cli",
        "run",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_port_in_use_gives_one_line_naming_the_port_and_the_option(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = await _run("--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "b.sqlite"))
        out, err = await asyncio.wait_for(process.communicate(), 30)
    text = err.decode()
    assert process.returncode == 1, text
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1, text
    assert f"Port {port}" in text and "--port" in text and "already in use" in text


async def test_host_port_and_db_options_override_the_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[bot]\ndb = "unused.sqlite"\n\n[web]\nhost = "0.0.0.0"\nport = 1\n')
    port = _free_port()
    db = tmp_path / "chosen.sqlite"
    process = await _run("-c", str(config), "--host", "127.0.0.1", "--port", str(port), "--db", str(db))
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        assert f"http://127.0.0.1:{port}/" in line.decode()
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/healthz") as reply,
        ):
            assert reply.status == 200 and (await reply.json())["status"] == "ok"
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        _out, err = await asyncio.wait_for(process.communicate(), 15)
    assert process.returncode == 0, err.decode()
    assert db.exists() and not (ROOT / "unused.sqlite").exists()


async def test_the_start_up_line_names_the_page_under_its_base_path(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[web]\nbase_path = "/bazaar"\n')
    port = _free_port()
    process = await _run(
        "-c", str(config), "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "b.sqlite")
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode().strip()
        assert line.endswith(f"open http://127.0.0.1:{port}/bazaar/"), line
        async with aiohttp.ClientSession() as session, session.get(line.rsplit(" ", 1)[1]) as reply:
            assert reply.status == 200, "the line's address is the page"
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.communicate(), 15)


def test_a_port_that_is_no_number_is_refused_by_the_parser(capsys) -> None:
    parser = build_parser()
    for bad in ("http", "70000", "-1"):
        try:
            parser.parse_args(["run", "--port", bad])
        except SystemExit as stop:
            assert stop.code == 2
        else:
            raise AssertionError(f"--port {bad} was accepted")
    assert "is not a port number" in capsys.readouterr().err
