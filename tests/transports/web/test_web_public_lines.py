"""A room's public lines in each tab's language: rendered once per language, shared by its tabs.

At an English room, two German readers and an English one: the bot's line reaches the German tabs
in German and the English tab in English, and it is rendered for German once, not once per tab. A
German reader who joins later reads the room's recent lines in German too. What a person typed is
nobody's to translate: it reaches every tab as typed.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from support.webfixtures import player, serve

from bazaarbot.registry import discover

ROOM = "#bazaar"


async def test_a_public_line_reaches_each_tab_in_its_language_rendered_once_per_language(
    tmp_path: Path,
) -> None:
    async with serve(tmp_path / "p.sqlite", games=discover(), default_game="jaipur") as served:
        rendered: Counter[str] = Counter()
        render = served.hub.public_line

        def counted(text: str, lang: str) -> str:
            rendered[lang] += 1
            return render(text, lang)

        served.hub.public_line = counted  # type: ignore[method-assign]
        alice, _ = await player(served, "alice", room=None)
        bob, _ = await player(served, "bob", room=None)
        carol, _ = await player(served, "carol")
        for reader in (alice, bob):
            await reader.say(None, "/lang de")
            await reader.expect("tell", lambda f: "Deutsch" in f["text"])
            await reader.join(ROOM)
        rendered.clear()
        await carol.say(ROOM, "/join")
        english = await carol.expect("bot", lambda f: "carol joins" in f["text"])
        assert "seat 1" in english["text"]
        for reader in (alice, bob):
            german = await reader.expect("bot", lambda f: "carol" in f["text"])
            assert "Platz 1" in german["text"] and "seat" not in german["text"], german
        assert rendered == Counter({"de": 1}), rendered
        # what a person says is theirs: every tab reads it as typed, nothing rendered
        rendered.clear()
        await carol.say(ROOM, "take 2 spice, I would")
        for reader in (alice, bob):
            chat = await reader.expect("chat", lambda f: f["nick"] == "carol")
            assert chat["text"] == "take 2 spice, I would"
        assert not rendered
        # a German reader who comes later reads the room's recent lines in German
        dave, _ = await player(served, "dave", room=None)
        await dave.say(None, "/lang de")
        await dave.expect("tell", lambda f: "Deutsch" in f["text"])
        joined = await dave.join(ROOM, history=True)
        said = [line["text"] for line in joined["history"] if line["t"] == "bot"]
        assert any("carol" in text and "Platz 1" in text for text in said), said
