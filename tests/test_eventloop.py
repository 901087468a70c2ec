"""The bot process's event loop: uvloop where installed, asyncio's own when the operator asks for it."""

from __future__ import annotations

import asyncio

import pytest

from bazaarbot import eventloop

uvloop = pytest.importorskip("uvloop")


async def _running_loop_type() -> type:
    return type(asyncio.get_running_loop())


def test_bazaarbot_run_uses_uvloop_where_it_is_installed(monkeypatch):
    monkeypatch.delenv(eventloop.LOOP_VARIABLE, raising=False)
    assert eventloop.loop_name() == "uvloop"
    assert issubclass(eventloop.run(_running_loop_type()), uvloop.Loop)


def test_the_operator_can_pick_asyncios_own_loop(monkeypatch):
    monkeypatch.setenv(eventloop.LOOP_VARIABLE, "asyncio")
    assert eventloop.loop_name() == "asyncio"
    assert not issubclass(eventloop.run(_running_loop_type()), uvloop.Loop)


def test_the_loop_returns_what_the_bot_returned(monkeypatch):
    monkeypatch.delenv(eventloop.LOOP_VARIABLE, raising=False)

    async def exit_status() -> int:
        running = asyncio.get_running_loop().create_future()
        running.get_loop().call_soon(running.set_result, 3)  # a turn of the loop, then the result
        return await running

    assert eventloop.run(exit_status()) == 3
