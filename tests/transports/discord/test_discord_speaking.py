"""Past its lease, a Discord process writes nothing to Discord: no message, board edit or interaction answer.

The transport's writers are driven directly, with a recorder in the place of
Discord's REST calls (what would reach Discord is what the recorder notes);
the same calls with a proof that holds show that the recorder sees every write.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bazaarbot.config import DiscordBot
from bazaarbot.messages import Tell
from bazaarbot.speaking import speak_only_while
from bazaarbot.transports.discord import picker
from bazaarbot.transports.discord.outbox import Piece
from bazaarbot.transports.discord.state import BoardMessage
from bazaarbot.transports.discord.transport import DiscordTransport

ROOM_CHANNEL = 4242
PERSON = 77


@dataclass
class DiscordWrites:
    """Every write the transport made, in order, as (what, to whom)."""

    made: list[str] = field(default_factory=list)

    def note(self, what: str) -> Any:
        async def write(*args: Any, **kwargs: Any) -> object:
            self.made.append(what)
            return SimpleNamespace(id=len(self.made))

        return write


def _interaction(writes: DiscordWrites) -> Any:
    """An interaction as the transport's writers use it: its response, follow-ups and original answer."""
    return SimpleNamespace(
        user=SimpleNamespace(id=PERSON),
        guild_id=1,
        channel_id=ROOM_CHANNEL,
        created_at=datetime.datetime.now(datetime.UTC),
        data={"custom_id": picker.seat_buttons(ROOM_CHANNEL, "hand", "moves")[0].custom_id},
        message=None,
        response=SimpleNamespace(send_message=writes.note("answer"), defer=writes.note("defer")),
        followup=SimpleNamespace(send=writes.note("follow-up")),
        edit_original_response=writes.note("edit answer"),
        delete_original_response=writes.note("delete answer"),
    )


def _client(writes: DiscordWrites) -> Any:
    """A client whose channels note the messages sent, edited and deleted in them."""

    class Channel(discord.PartialMessageable):
        async def send(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            return await writes.note(f"message to {self.id}")()

        def get_partial_message(self, message_id: int) -> Any:
            return SimpleNamespace(edit=writes.note("edit board"), delete=writes.note("delete board"))

    def channel(channel_id: int, **kwargs: Any) -> Any:
        return Channel(state=None, id=channel_id)  # type: ignore[arg-type]

    return SimpleNamespace(get_partial_messageable=channel, get_user=lambda user_id: None)


def _transport(writes: DiscordWrites) -> DiscordTransport:
    transport = DiscordTransport(DiscordBot(name="discord", token="unused"), register_commands=False)
    transport.client = _client(writes)
    transport.dm_channels[PERSON] = 9000
    transport.hub = SimpleNamespace(  # type: ignore[assignment]
        public_board=lambda network, room: "the board as it is now",
        game_id=lambda network, room: 1,
        page_language=lambda network, room, key: None,
    )
    transport.boards[ROOM_CHANNEL] = BoardMessage(ROOM_CHANNEL, 1, "the board as it was", 555)
    return transport


async def _every_writer(transport: DiscordTransport, writes: DiscordWrites) -> None:
    """Each kind of write the transport makes: messages, DMs, the board, every interaction answer."""
    tell = Tell("discord", f"<@{PERSON}>", "your hand: 3 spice", key=f"{PERSON}")
    await transport._deliver(("room", ROOM_CHANNEL), [Piece("alice takes 2 spice")])
    await transport._deliver(("dm", PERSON), [Piece("your turn")])
    await transport._deliver(("room", ROOM_CHANNEL), [Piece("", kind="board")])
    transport.boards.pop(ROOM_CHANNEL)
    await transport._board(ROOM_CHANNEL, Piece("", kind="board"))  # a new board message
    await transport._answer_elsewhere(_interaction(writes), None)
    await transport._pressed(_interaction(writes), None, "discord")  # type: ignore[arg-type]
    await transport._reply(_interaction(writes), [tell, tell], "#4242", header="x" * 1990)
    await transport._reply(_interaction(writes), [], "#4242")


@pytest.fixture
def proof() -> Iterator[list[bool]]:
    holds = [True]
    speak_only_while(lambda: holds[0])
    yield holds
    speak_only_while(None)


async def test_a_discord_process_past_its_lease_sends_edits_and_answers_nothing(proof: list[bool]) -> None:
    writes = DiscordWrites()
    proof[0] = False
    transport = _transport(writes)
    await _every_writer(transport, writes)
    assert writes.made == []
    assert sum(transport.sent_by_kind.values()) == 0


async def test_a_discord_process_holding_its_lease_makes_every_one_of_those_writes(proof: list[bool]) -> None:
    writes = DiscordWrites()
    transport = _transport(writes)
    await _every_writer(transport, writes)
    assert writes.made == [
        f"message to {ROOM_CHANNEL}",
        "message to 9000",
        "edit board",
        f"message to {ROOM_CHANNEL}",
        "answer",
        "defer",
        "edit answer",
        "follow-up",
        "delete answer",
    ]
