"""The core's vocabulary: who spoke, what they said, and what the bot answers.

Transports turn network traffic into ``Incoming`` and deliver ``Say`` / ``Tell``;
the hub, the tables, the commands and the AI speak only these types. They sit at
the bottom of the core, so nothing in the domain depends on its delivery layer.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeVar

#: the readers of a room's views, by identity key (None: a spectator)
Readers: TypeAlias = Iterable[str | None]
#: per reader, the parts of their view a transport wants drawn (None: all of them)
WantedParts: TypeAlias = Mapping[str | None, Collection[str]] | None
#: per reader: (their language, the public part, their own part), or None where there is no table
RoomViews: TypeAlias = dict[str | None, tuple[str | None, dict[str, Any], dict[str, Any] | None]] | None


@dataclass(frozen=True)
class User:
    """Somebody who spoke, as far as the transport can vouch for them.

    ``account`` is a services account (IRC SASL/account-tag) or a web session
    identity; when present it, not the nick, identifies the player. ``mask``
    is ``nick!user@host`` where the network has one. ``is_op`` is the
    transport vouching that the user is an operator of the channel the
    message came from; ``is_admin`` that the user proved an admin secret
    (a web admin token).
    """

    nick: str
    account: str | None = None
    mask: str | None = None
    is_op: bool = False
    is_admin: bool = False

    @property
    def key(self) -> str:
        """The strongest identity the transport has, which a seat is bound to.

        A services account when known; else the nick together with the
        ``user@host`` it came from (somebody else under the same nick is a
        stranger); a bare nick only where the transport vouches for it.
        """
        if self.account:
            return "a:" + self.account.lower()
        if self.mask:
            return "m:" + self.mask.lower()
        return "n:" + self.nick.lower()


@dataclass(frozen=True)
class Incoming:
    """One line a user sent: in ``channel``, or privately to the bot when channel is None."""

    network: str
    channel: str | None
    user: User
    text: str


@dataclass(frozen=True)
class Say:
    """A public line (or several, separated by newlines) for a channel."""

    network: str
    channel: str
    text: str
    #: the table asked for mIRC-style colour hints (``/colors channel on``); transports may ignore it
    colors: bool = False
    #: the names of the table's players in seat order: where colours are on, each name has its seat's
    #: colour, the same in boards and in moves (how a line is shown, not what it says: not compared)
    players: tuple[str, ...] = field(default=(), compare=False)
    #: bulk output somebody asked to see (``/board``, ``/top``): a paced transport sends the channel's
    #: game lines first, and may bound such output per asker and send the rest to them privately
    listing: bool = False
    #: the channel's current board (state, not history): a paced transport draws it again, or drops
    #: it, when the table changed while it waited, and sends a board once to an asker who repeats
    board: bool = False
    #: who asked for a listing (None: nobody in particular)
    asked_by: User | None = None
    #: the nicks the line is meant to alert (their turn, their game starts or ends): a transport whose
    #: clients only notify on a mention (Matrix) mentions them; others may leave it (IRC highlights names)
    mentions: tuple[str, ...] = ()
    #: the line tells of an AI's turn: a transport short of lines (IRC) may join the lines of one AI
    #: turn, and of AI turns that wait together, into one
    ai_turn: bool = False
    #: the sentences a line of one AI turn was joined from (``table/aiturn.py``): a transport that must
    #: shorten the line keeps the first (what the AI did) and the last (whose turn it is)
    parts: tuple[str, ...] = field(default=(), compare=False)
    #: the board in brief a game's start says: a transport that shows the whole board in a message of
    #: its own (Matrix) leaves it out, so a start shows one board
    brief: bool = False
    #: the nick of the seat this line is about (time is up for them): a page shows it to them in view
    about: str | None = None
    #: the line calls those it mentions to a table that just opened (they asked, ``/notify on``): a page
    #: notifies them as it does of their turn
    invites: bool = False


@dataclass(frozen=True)
class Tell:
    """A private line (or several) for one user only."""

    network: str
    nick: str
    text: str
    #: the user prefers NOTICE over PRIVMSG (IRC); other transports ignore it
    notice: bool = False
    #: a bulk listing the player asked for (``/moves all``, ``/help``): a transport may page it, pack
    #: it, or drop what is left of it when the player asks again; game messages are never dropped
    listing: bool = False
    #: the identity (``User.key``) the line is meant for: a transport whose nicks can change hands
    #: delivers it only while the nick is held by that identity (a seat's hand never reaches a stranger)
    key: str | None = None
    #: every line is one command the player can type (``/moves all``): a transport short of lines
    #: (IRC) may put several on one line, separated by `` | ``; the console and the web keep one a line
    commands: bool = False
    #: the channel whose game this line shows the reader's private view of (their hand again), if
    #: it is one: a transport that draws the hand itself need not render the view to tell
    hand_of: str | None = None
    #: the line wants the reader's attention (their turn, their clock running out): a transport whose
    #: clients stay quiet for a bot's notices (Matrix) sends it as a message that notifies
    ping: bool = False
    #: news of the reader's own seat they must not miss (the clock's reminder): a page shows it in view
    urgent: bool = False
    #: the reader asked for colours (``/colors on``); transports may ignore it
    colors: bool = False
    #: the names of the players of the table the line is about, in seat order (see ``Say.players``)
    players: tuple[str, ...] = field(default=(), compare=False)


Outgoing = Say | Tell


@dataclass(frozen=True)
class SeatedPerson:
    """Somebody who sits at a table of a transport's network, as a transport needs to know them."""

    key: str
    nick: str
    account: str | None = None


Message = TypeVar("Message", User, Incoming, Say, Tell)


def evolved(message: Message, **changes: Any) -> Message:
    """``dataclasses.replace`` for these types, which have no ``__post_init__``: a copy of the fields
    with ``changes``. Every line the bot reads or answers takes a few such copies, and ``replace``
    spends most of its time reflecting on the fields and setting them one by one on a frozen class."""
    fields = type(message).__dataclass_fields__  # type: ignore[attr-defined]
    if not changes.keys() <= fields.keys():
        raise TypeError(
            f"{type(message).__name__} has no field {sorted(changes.keys() - fields.keys())[0]!r}"
        )
    copy = object.__new__(type(message))
    copy.__dict__.update(message.__dict__)
    copy.__dict__.update(changes)
    return copy
