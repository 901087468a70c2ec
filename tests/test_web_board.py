"""The web chat renders a room's public board once per change of the table, not after every line said."""

from __future__ import annotations

from pathlib import Path

from webfixtures import player, serve


async def test_the_board_is_rendered_once_per_change_not_per_line_said(tmp_path: Path) -> None:
    async with serve(tmp_path / "bot.sqlite") as served:
        alice, _ = await player(served, "alice")
        bob, _ = await player(served, "bob")
        await alice.say("#bazaar", "/join")
        await alice.expect("bot", lambda f: "alice joins" in f["text"])
        await bob.say("#bazaar", "/join")
        await bob.expect("bot", lambda f: "bob joins" in f["text"])
        await alice.say("#bazaar", "/start")
        await alice.expect("board", lambda f: f["text"] and "Total 0" in f["text"])
        renders: list[str] = []
        hub = served.hub
        original = hub.public_board

        def counted(network: str, channel: str) -> str | None:
            renders.append(channel)
            return original(network, channel)

        hub.public_board = counted  # type: ignore[method-assign]
        await alice.say("#bazaar", "add 2")  # two public lines: the move and whose turn it is
        await bob.expect("board", lambda f: "Total 2" in f["text"])
        await bob.expect("bot", lambda f: "bob to act" in f["text"])
        await alice.sync()
        assert renders == ["#bazaar"]
        renders.clear()
        await bob.say("#bazaar", "/status")  # said in the channel, changes nothing
        await bob.expect("bot", lambda f: "running" in f["text"])
        await bob.sync()
        assert renders == []
        assert not [f for f in bob.seen[-3:] if f["t"] == "board"]
