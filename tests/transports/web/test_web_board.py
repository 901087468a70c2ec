"""The web chat renders a room's public board once per change of the table, not after every line said."""

from __future__ import annotations

from pathlib import Path

from support.countgame import GAME as COUNT
from support.webfixtures import Served, player, serve, two_seated


def _count_renders(served: Served) -> list[str]:
    """The rooms whose text board the hub renders from now on, one entry a render."""
    renders: list[str] = []
    hub = served.hub
    original = hub.public_board

    def counted(network: str, channel: str) -> str | None:
        renders.append(channel)
        return original(network, channel)

    hub.public_board = counted  # type: ignore[method-assign]
    return renders


async def test_the_board_is_rendered_once_per_change_not_per_line_said(tmp_path: Path) -> None:
    async with serve(tmp_path / "bot.sqlite") as served:
        alice, bob = await two_seated(served)
        await alice.say("#bazaar", "/start")
        await alice.expect("board", lambda f: f["text"] and "Total 0" in f["text"])
        renders = _count_renders(served)
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


async def test_a_drawn_games_text_board_is_rendered_only_for_tabs_that_show_it(tmp_path: Path) -> None:
    from plugins.jaipur import GAME as jaipur

    games = {"jaipur": jaipur, "count": COUNT}
    async with serve(tmp_path / "bot.sqlite", games=games, default_game="jaipur") as served:
        alice, bob = await two_seated(served)
        renders = _count_renders(served)
        hub = served.hub
        await alice.say("#bazaar", "/start")
        await alice.expect("view", lambda f: f["view"]["phase"] == "running")
        await alice.sync()
        await bob.sync()
        # the drawn table shows the game: nobody opened "board as text", so none was rendered or sent
        assert renders == []
        assert not [f for f in alice.seen + bob.seen if f["t"] == "board" and f.get("text")]
        await bob.send(t="board", room="#bazaar", on=True)  # bob opens it
        shown = await bob.expect("board", lambda f: f["text"])
        assert shown["text"] == jaipur.board(hub.tables[("web", "#bazaar")].state)
        table = hub.tables[("web", "#bazaar")]
        seat = jaipur.to_act(table.state)[0]
        mover = (alice, bob)[seat]
        await mover.say("#bazaar", jaipur.legal_commands(table.state, seat)[0])
        await bob.expect("board", lambda f: f["text"] and f["text"] != shown["text"])
        await alice.sync()
        assert not [f for f in alice.seen if f["t"] == "board" and f.get("text")]  # alice still does not
        await bob.send(t="board", room="#bazaar", on=False)  # and closes it again
        await bob.sync()
        renders.clear()
        seat = jaipur.to_act(table.state)[0]
        await (alice, bob)[seat].say("#bazaar", jaipur.legal_commands(table.state, seat)[0])
        await alice.expect("view", lambda f: f["view"]["moves"] == table.moves_made)
        await bob.sync()
        assert renders == []


async def test_asking_for_the_text_board_of_a_room_not_joined_is_refused(tmp_path: Path) -> None:
    async with serve(tmp_path / "bot.sqlite") as served:
        alice, _ = await player(served, "alice")
        await alice.send(t="board", room="#elsewhere", on=True)
        refused = await alice.expect("error")
        assert "Join the room first" in refused["text"]
