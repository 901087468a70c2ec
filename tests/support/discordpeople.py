"""People on the Discord testbed as a test drives them: typing, reading what reached them, pressing.

Each person has the testbed's ``AsyncPerson`` (REST) and their own gateway, so a
test reads what Discord delivered to that person (messages in the guild, their
DMs, their ephemeral replies) as it arrives, and can show that something never
reached somebody else.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bazaarbot.config import BotSettings, DiscordBot, RateLimit
from bazaarbot.hub.hub import Hub
from bazaarbot.store import Store
from support.discordbed import testbed_missing, testbed_module
from support.waits import wait_until

if (_missing := testbed_missing()) is not None:  # the testbed is not part of this repository
    pytest.skip(_missing, allow_module_level=True)
_people = testbed_module("spacebar_people")
AsyncPerson = _people.AsyncPerson
HTTPError = _people.HTTPError
EPHEMERAL: int = _people.EPHEMERAL
#: a message event: created or edited
CREATED = "MESSAGE_CREATE"
EDITED = "MESSAGE_UPDATE"
DELETED = "MESSAGE_DELETE"
#: how a line shows a bare Discord ID: a long run of digits outside a mention
BARE_ID = re.compile(r"(?<![<@#&!\d])\d{15,21}(?!\d)")


def is_ephemeral(data: dict[str, Any]) -> bool:
    return bool(int(data.get("flags") or 0) & EPHEMERAL)


def shown_text(data: dict[str, Any]) -> str:
    """What a client shows of a message: its content and its embeds' text."""
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or ():
        parts.extend(str(embed.get(key) or "") for key in ("title", "description"))
    return "\n".join(parts)


class Person:
    """One testbed account, typing over REST and reading its own gateway."""

    def __init__(self, info: dict[str, Any], name: str, rest: AsyncPerson) -> None:
        self.info = info
        self.name = name
        self.rest = rest
        self.id = str(rest.id)
        self.gw: Any = None
        self._gw_cm: Any = None
        self.dm: str | None = None

    @classmethod
    async def of(cls, info: dict[str, Any], name: str) -> Person:
        person = cls(info, name, AsyncPerson.from_testbed(info, name))
        await person.open()
        return person

    @classmethod
    async def new(cls, info: dict[str, Any], name: str) -> Person:
        """A new account in the guild (its display name is ``name`` with a few letters)."""
        rest = await AsyncPerson.register(info, name)
        person = cls(info, name, rest)
        await person.open()
        return person

    async def open(self) -> None:
        self._gw_cm = self.rest.gateway()
        self.gw = await self._gw_cm.__aenter__()

    async def close(self) -> None:
        """Leave: the gateway and the REST session closed (a second call does nothing)."""
        gateway, self._gw_cm = self._gw_cm, None
        if gateway is not None:
            await gateway.__aexit__(None, None, None)
            await self.rest.close()

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    async def say(self, channel: str, text: str) -> dict[str, Any]:
        return await self.rest.send(channel, text)

    async def dm_channel(self) -> str:
        if self.dm is None:
            self.dm = str(await self.rest.dm_channel_id(self.info["bot_user_id"]))
        return self.dm

    async def say_dm(self, text: str) -> dict[str, Any]:
        return await self.rest.send(await self.dm_channel(), text)

    def mark(self) -> int:
        """A point in what reached this person: ``seen(..., since=mark)`` reads only what came after."""
        return len(self.gw.events)

    def seen(
        self,
        channel: str | None = None,
        since: int = 0,
        events: tuple[str, ...] = (CREATED,),
        from_bot: bool = True,
    ) -> list[dict[str, Any]]:
        """The messages that reached this person since ``since`` (in ``channel``), oldest first."""
        bot = str(self.info["bot_user_id"])
        found = []
        for name, data in self.gw.events[since:]:
            if name not in events or not isinstance(data, dict):
                continue
            if channel is not None and str(data.get("channel_id")) != str(channel):
                continue
            author = str((data.get("author") or {}).get("id", ""))
            if from_bot and author != bot:
                continue
            found.append(data)
        return found

    async def expect(
        self,
        pred: Callable[[dict[str, Any]], Any],
        channel: str | None = None,
        since: int = 0,
        events: tuple[str, ...] = (CREATED,),
        timeout: float = 20.0,
    ) -> dict[str, Any]:
        """The first message from the bot since ``since`` (in ``channel``) that ``pred`` accepts."""

        def found() -> dict[str, Any] | None:
            return next((data for data in self.seen(channel, since, events) if pred(data)), None)

        def missed() -> str:
            shown = [shown_text(d)[:200] for d in self.seen(channel, since, events)][-8:]
            return f"{self.name} to get the message; the last ones: {shown}"

        return await wait_until(found, timeout, missed, 0.05)

    async def ephemeral(
        self, pred: Callable[[str], Any], since: int = 0, timeout: float = 20.0
    ) -> dict[str, Any]:
        """An ephemeral answer to this person (sent, or a deferred reply edited) whose text ``pred`` takes."""
        return await self.expect(
            lambda d: is_ephemeral(d) and pred(shown_text(d)),
            since=since,
            events=(CREATED, EDITED),
            timeout=timeout,
        )

    async def slash(self, name: str, text: str | None = None, channel: str | None = None) -> None:
        """Run ``/name`` (with its text option) in ``channel`` (the guild's channel by default)."""
        option = "move" if name == "play" else "text"
        options = [{"type": 3, "name": option, "value": text}] if text is not None else []
        await self.rest.run_command(
            self.info["application_id"],
            channel or self.info["channel_id"],
            name,
            options=options,
            guild_id=self.info["guild_id"] if channel is None or channel != self.dm else None,
        )

    async def press(self, message: dict[str, Any], custom_id: str) -> None:
        guild = self.info["guild_id"] if message.get("guild_id") or not is_ephemeral(message) else None
        await self.rest.press_button(
            self.info["application_id"],
            str(message["channel_id"]),
            str(message["id"]),
            custom_id,
            guild_id=guild,
        )


def outside_blocks(content: str) -> list[str]:
    """The lines of a message outside its code blocks: a DM may carry a hand block beside an answer."""
    lines, inside = [], False
    for line in content.split("\n"):
        if line.startswith("```"):
            inside = not inside
        elif not inside and line:
            lines.append(line)
    return lines


def buttons(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A message's buttons, row after row."""
    return [item for row in data.get("components") or () for item in row.get("components") or ()]


def pressable(data: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """The message's button of ``kind`` (``hand``, ``moves``, ``verb``, ``play``), if any."""
    return next((b for b in buttons(data) if str(b.get("custom_id", "")).startswith(f"bb:{kind}:")), None)


def deleted(person: Person, room: str) -> set[str]:
    """The messages of ``room`` deleted since this person came (a board moved down is one)."""
    return {
        str(data.get("id"))
        for name, data in person.gw.events
        if name == DELETED and isinstance(data, dict) and str(data.get("channel_id")) == str(room)
    }


async def press_your_moves(person: Person, room: str) -> int:
    """Press "Your moves" on the newest message of the room that offers it; the mark before the press.

    A board asked for again moves down: the bot sends the new message, then deletes the old one, so a
    press may find its message gone; the person then presses the one that replaced it."""
    tried: set[str] = set()
    while True:
        offering = await wait_until(
            lambda: [
                d
                for d in person.seen(room, 0, (CREATED, EDITED))
                if pressable(d, "moves") and str(d["id"]) not in tried | deleted(person, room)
            ],
            20,
            f"a message in the room offering {person.name} their moves",
        )
        message = offering[-1]
        mark = person.mark()
        try:
            await person.press(message, str(pressable(message, "moves")["custom_id"]))  # type: ignore[index]
            return mark
        except HTTPError as error:
            if error.status != 404:
                raise
            tried.add(str(message["id"]))


async def play_by_buttons(person: Person, room: str, rng: random.Random) -> str:
    """Open "Your moves" on the newest message of the room that offers it, go through the verbs the
    picker groups the moves by, and press one of the moves; the pressed move's label."""
    mark = await press_your_moves(person, room)
    picker = await person.expect(
        lambda d: is_ephemeral(d) and bool(pressable(d, "play") or pressable(d, "verb")),
        since=mark,
        events=(CREATED, EDITED),
    )
    while not pressable(picker, "play"):  # grouped by verb: open one
        verbs = [b for b in buttons(picker) if str(b["custom_id"]).startswith("bb:verb:")]
        mark = person.mark()
        await person.press(picker, str(rng.choice(verbs)["custom_id"]))
        picker = await person.expect(
            lambda d, was=picker["id"]: is_ephemeral(d) and d["id"] == was and bool(pressable(d, "play")),
            since=mark,
            events=(EDITED,),
        )
    move = rng.choice([b for b in buttons(picker) if str(b["custom_id"]).startswith("bb:play:")])
    await person.press(picker, str(move["custom_id"]))
    return str(move["label"])


def room(info: dict[str, Any]) -> str:
    """A text channel of the guild no other test of the module plays in."""
    rooms: list[str] = info["rooms"]
    assert rooms, "the testbed has no unused room left: make more (support.discordbed.ROOMS)"
    return rooms.pop()


def make_hub(directory: Path, games: dict[str, Any], seed: int = 11, **kwargs: Any) -> Hub:
    settings = BotSettings(
        seed=seed,
        default_game=sorted(games)[0],
        rate_limit=RateLimit(commands=1000, per_seconds=1.0),  # scripted people type fast
    )
    return Hub(Store(directory / "bot.sqlite"), games=games, settings=settings, **kwargs)


def bot_settings(info: dict[str, Any], **overrides: Any) -> DiscordBot:
    return DiscordBot(
        name=overrides.pop("name", "discord"),
        token=info["bot_token"],
        api_url=info["api_base"],
        gateway_url=info["gateway_url"],
        **overrides,
    )


@contextlib.asynccontextmanager
async def present(*arriving: Awaitable[Person]) -> AsyncIterator[list[Person]]:
    """The people ``arriving`` (``Person.of`` or ``Person.new``), each closed when the block ends."""
    found: list[Person] = []
    waiting = list(arriving)
    try:
        while waiting:
            found.append(await waiting.pop(0))
        yield found
    finally:
        for never in waiting:  # one failed to arrive: the others are not left unawaited
            getattr(never, "close", lambda: None)()
        for person in found:
            await person.close()


@contextlib.asynccontextmanager
async def running_bot(
    directory: Path,
    info: dict[str, Any],
    games: dict[str, Any],
    *,
    settings: dict[str, Any] | None = None,
    commands: bool = True,
    **hub: Any,
) -> AsyncIterator[tuple[Hub, Any]]:
    """A hub and the Discord bot on the testbed, online (with its slash commands made, ``commands``);
    the bot stopped and the hub closed when the block ends."""
    from bazaarbot.transports.discord import DiscordTransport

    made = make_hub(directory, games, **hub)
    bot = DiscordTransport(bot_settings(info, **(settings or {})), register_commands=commands)
    await bot.start(made)
    try:
        await made.start()
        await wait_until(
            lambda: bot.online.is_set() and (bot.commands_registered or not commands),
            30,
            "the bot online, its commands made",
            interval=0.1,
        )
        yield made, bot
    finally:
        await bot.stop()
        await made.close()
