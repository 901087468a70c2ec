"""SIGTERM when the disk refuses writes: snapshots are tried first, every step runs, one line each.

The real ``bazaarbot run`` process serves the web chat on a free port; two
players start a game and make a move, and chat fills the room's history.
Then the database refuses snapshots and saved chat lines (as a full disk
does; triggers stand in for it) and the process gets SIGTERM.
"""

from __future__ import annotations

import asyncio
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp
from support.webfixtures import frames_in

REFUSE = (
    "CREATE TRIGGER full_{table} BEFORE INSERT ON {table} "
    "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
)


async def tab(session: aiohttp.ClientSession, port: int, nick: str) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(f"ws://127.0.0.1:{port}/ws")
    await ws.send_json({"t": "hello", "token": None})
    await ws.send_json({"t": "claim", "nick": nick})
    await ws.send_json({"t": "join", "room": "#bazaar", "history": False})
    return ws


async def frames_until(ws: aiohttp.ClientWebSocketResponse, match) -> dict:
    while True:
        for frame in frames_in((await ws.receive(timeout=20)).data):
            if match(frame):
                return frame


async def play_a_move(port: int) -> str:
    async with aiohttp.ClientSession() as session:
        alice, bob = await tab(session, port, "alice"), await tab(session, port, "bob")
        for ws in (alice, bob):
            await ws.send_json({"t": "say", "room": "#bazaar", "text": "/join"})
            await frames_until(ws, lambda f: f.get("t") == "tell" and "You sit" in f.get("text", ""))
        await alice.send_json({"t": "say", "room": "#bazaar", "text": "hello there, a chat line"})
        await alice.send_json({"t": "say", "room": "#bazaar", "text": "/start"})
        # whoever is to act makes a legal move
        await frames_until(alice, lambda f: f.get("t") == "bot" and "starts" in f.get("text", ""))
        for ws in (alice, bob):
            await ws.send_json({"t": "say", "room": "#bazaar", "text": "/moves all"})
        move = None
        for ws in (alice, bob):
            told = await frames_until(
                ws, lambda f: f.get("t") == "tell" and ("\n" in f["text"] or "(no moves)" in f["text"])
            )
            if "(no moves)" not in told["text"]:
                move = told["text"].splitlines()[0]
                await ws.send_json({"t": "say", "room": "#bazaar", "text": move})
                await frames_until(ws, lambda f: f.get("t") == "log" and f.get("entries"))
        assert move is not None
        await alice.close()
        await bob.close()
        return move


def test_sigterm_on_a_refusing_disk_tries_snapshots_first_and_logs_each_failure_once(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bazaarbot.cli", "run", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", line).group(1))  # type: ignore[union-attr]
        move = asyncio.run(play_a_move(port))
        with sqlite3.connect(db) as conn:
            for table in ("snapshots", "web_history"):
                conn.execute(REFUSE.format(table=table))
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    snapshot = [i for i, text in enumerate(lines) if "refused by the database" in text]
    history = [i for i, text in enumerate(lines) if "recent lines could not be saved" in text]
    assert len(snapshot) == 1 and len(history) == 1, err
    assert snapshot[0] < history[0], "the snapshots are tried before the chat history"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert [row[0] for row in conn.execute("SELECT text FROM moves")] == [move], "the move is kept"
