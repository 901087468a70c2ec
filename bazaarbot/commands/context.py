"""What a command handler is given: who spoke, where, the table, and the services of the hub."""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bazaarbot.config import BotSettings
from bazaarbot.delivery import Transport
from bazaarbot.i18n import localized_text
from bazaarbot.messages import Outgoing, Say, Tell, User
from bazaarbot.plugin import GamePlugin
from bazaarbot.ratings import Ratings
from bazaarbot.store import Store
from bazaarbot.table import Actor, Table
from bazaarbot.teach.teacher import Teacher


class CommandHost(Protocol):
    """The parts of the hub that command handlers use (the hub implements it)."""

    games: dict[str, GamePlugin]
    settings: BotSettings
    store: Store
    ratings: Ratings
    teacher: Teacher
    #: (network, identity, name) -> a person's stored preference
    prefs: dict[tuple[str, str, str], str]

    def default_game(self) -> str:
        """The game a new table plays."""

    def table_at(self, network: str, channel: str) -> Table | None:
        """The channel's table if it exists (a look creates nothing)."""

    def table(self, network: str, channel: str) -> Table:
        """The channel's table, made when it is first needed."""

    def person_language(self, network: str, key: str) -> str | None:
        """The language a person chose with /lang, None when they hear the channel's."""

    def seated_tables(self, network: str, key: str) -> list[Table]:
        """The tables where the identity ``key`` sits."""

    def tables_of_person(self, network: str, key: str) -> list[Table]:
        """Every table where ``key`` sits, in a lobby or holding a seat of a running game."""

    def seated_key(self, network: str, nick: str) -> str | None:
        """The identity of the player seated under ``nick`` at one of the network's tables, else None."""

    def set_pref(self, network: str, key: str, name: str, value: str) -> None:
        """Store one person's preference."""

    def transport(self, network: str) -> Transport | None:
        """The transport of a network."""

    def opening_call(self, network: str, channel: str, opener: User, game: str) -> list[Outgoing]:
        """The line calling the ``/notify`` list present in ``channel`` to the table ``opener`` opened."""

    def seat_limit_refusal(self, network: str, user: User, table: Table) -> Outgoing | None:
        """A refusal when sitting down at ``table`` would put ``user`` at too many tables, else None."""

    def claim_seat(
        self, network: str, user: User, args: tuple[str, ...], public: bool = False
    ) -> list[Outgoing]:
        """``/claim CODE``: move the seat the one-time code was made for to ``user``."""


@dataclass
class Context:
    """One command as said: the speaker, the place, its words, and the table it acts on."""

    host: CommandHost
    network: str
    #: the channel it was said in, or None for a private line
    channel: str | None
    actor: Actor
    #: the words after the command's name (a leading ``#channel`` of a private line removed)
    args: tuple[str, ...]
    #: the table the command acts on (None for commands declared with ``table=False``)
    table: Table | None

    @property
    def user(self) -> User:
        return self.actor.user

    @property
    def nick(self) -> str:
        return self.actor.user.nick

    def reply(self, text: str) -> Outgoing:
        """An answer where the command was said: the channel, or privately."""
        if self.channel is None:
            return Tell(self.network, self.nick, text)
        return Say(self.network, self.channel, text)

    def show(self, text: str, board: bool = False) -> Outgoing:
        """Something the speaker asked to see (the board, a list): where it was asked.

        In a channel it is bulk output of the speaker's: a paced transport sends the
        channel's moves before it, bounds it per speaker, and draws a board again when
        the table changed while it waited.
        """
        players = self.table.seat_names() if self.table is not None else ()
        if self.channel is None:
            return Tell(self.network, self.nick, text, players=players)
        colors = self.table.colors if self.table is not None else False  # a board as its moves are shown
        return Say(
            self.network,
            self.channel,
            text,
            listing=True,
            board=board,
            asked_by=self.user,
            colors=colors,
            players=players,
        )

    def tell(self, text: str, listing: bool = False) -> Tell:
        """A private answer to the speaker, in their language."""
        lang = self.host.person_language(self.network, self.user.key)
        return Tell(self.network, self.nick, localized_text(text, lang), listing=listing)

    def after_commit(self, answer: Callable[[], list[Outgoing]]) -> list[Outgoing]:
        """An answer read from the records: worked out once the line's writes are on disk, where the
        event loop does not wait for the store (``Store.read``), in the line's language.

        ``answer`` must not touch the tables in memory (read what it needs of them first).
        Outside a line it is answered at once.
        """
        unit = self.host.store.writer.open
        if unit is None:
            return answer()
        context = contextvars.copy_context()
        unit.reads.append(lambda: context.run(answer))
        return []

    def the_table(self) -> Table:
        """The table of a command declared with ``table=True`` (always set for those)."""
        assert self.table is not None
        return self.table
