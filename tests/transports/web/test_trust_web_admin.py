"""Web admin tokens against the real server: a revoked right ends at once, a pasted token is never shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.webfixtures import player, serve

from bazaarbot.cli import main as cli_main

HINT = "That is an admin token: it was not shown. Type /admin TOKEN to use it."


def new_token(db: Path, name: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli_main(["admin-token", name, "--db", str(db)]) == 0
    return capsys.readouterr().out.strip()


async def started_game(served):
    alice, _ = await player(served, "alice")
    bob, _ = await player(served, "bob")
    for tab in (alice, bob):
        await tab.say("#bazaar", "/join")
        await tab.expect("tell", lambda f: "You sit" in f["text"])
    await alice.say("#bazaar", "/start")
    await alice.expect("bot", lambda f: "starts" in f["text"])
    return alice, bob


async def test_a_revoked_admin_token_stops_working_in_the_open_tab(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.sqlite"
    async with serve(db) as served:
        _alice, _bob = await started_game(served)
        ops, _ = await player(served, "ops")
        await ops.say("#bazaar", f"/admin {new_token(db, 'ops1', capsys)}")
        assert (await ops.expect("admin"))["name"] == "ops1"
        await ops.say("#bazaar", "/status")  # an admin while the token stands
        await ops.sync()
        new_token(db, "ops1", capsys)  # the operator makes a new one: the old one and its binding are gone
        await ops.say("#bazaar", "/reset")
        refusal = await ops.expect("tell", lambda f: "reset" in f["text"])
        assert refusal["text"] == "Only the players or an admin can reset a running game."
        assert served.hub.tables[("web", "#bazaar")].running


@pytest.mark.parametrize("line", ["{token}", "admin {token}", "my token is {token} ok?", "/me {token}"])
async def test_a_pasted_admin_token_is_never_broadcast(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    db = tmp_path / "w.sqlite"
    async with serve(db) as served:
        alice, _ = await player(served, "alice")
        watcher = await served.connect(source="127.0.0.5")
        await watcher.send(t="watch", room="#bazaar")
        await watcher.expect("watching")
        ops, _ = await player(served, "ops")
        token = new_token(db, "ops1", capsys)
        await ops.say("#bazaar", line.format(token=token))
        assert (await ops.expect("tell"))["text"] == HINT
        await ops.say(None, line.format(token=token))  # privately to the bot: the same
        assert (await ops.expect("tell"))["text"] == HINT
        await ops.say("#bazaar", "a line after it")
        for tab in (alice, watcher):
            await tab.expect("chat", lambda f: f["text"] == "a line after it")
            assert token not in json.dumps(tab.seen)
        assert token not in json.dumps(ops.seen)
        assert token not in json.dumps(served.transport.history.lines("#bazaar"))
        # still unused: it works when typed the right way
        await ops.say("#bazaar", f"/admin {token}")
        assert (await ops.expect("admin"))["name"] == "ops1"


async def test_a_line_that_only_looks_like_a_token_is_ordinary_chat(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite") as served:
        alice, _ = await player(served, "alice")
        bob, _ = await player(served, "bob")
        await alice.say("#bazaar", "adm-notarealtokenatallreally is how they look")
        seen = await bob.expect("chat", lambda f: f["nick"] == "alice")
        assert seen["text"].startswith("adm-notarealtoken")


def test_a_claim_found_unbound_is_an_admin_as_soon_as_it_redeems_and_not_after_a_new_token(
    tmp_path: Path,
) -> None:
    import sqlite3

    from bazaarbot.transports.web.admins import AdminTokens

    tokens = AdminTokens(sqlite3.connect(tmp_path / "a.sqlite", isolation_level=None))
    claim = "claim-of-one-browser"
    assert tokens.admin_of(claim) is None and tokens.admin_of(claim) is None  # looked up, then known
    tokens.redeem(tokens.issue("ops1"), claim)  # another tab of the same browser types /admin
    assert tokens.admin_of(claim) == "ops1"
    tokens.issue("ops1")  # the operator makes a new token: the binding is gone at the next line
    assert tokens.admin_of(claim) is None
