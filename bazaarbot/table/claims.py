"""A seat follows its person: a nick change, and a seat's owner back from another address with its code.

A seat bound to a host gets a one-time code at ``/join`` (``store/seatcodes.py``); ``/claim CODE``
moves the seat, in the lobby and in the running game, to whoever tells it.
"""

from __future__ import annotations

from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing
from bazaarbot.table.ai_seats import AiSeats
from bazaarbot.table.core import TableCore
from bazaarbot.table.game import RunningGame
from bazaarbot.table.seats import Actor


class SeatClaims:
    """Who a seat belongs to when its person's identity changes."""

    def __init__(self, core: TableCore, game: RunningGame, ai: AiSeats) -> None:
        self.core = core
        self.game = game
        self.ai = ai

    def rename(self, old_key: str, new_key: str, nick: str) -> None:
        """A nick change: the seat (and the game seat) follow the player."""
        if old_key != new_key:
            self.core.codes.move(self.core.network, self.core.channel, old_key, new_key)
        for seat in self.core.seats:
            if seat.key == old_key:
                seat.key, seat.nick = new_key, nick
        if self.core.host == old_key:
            self.core.host = new_key
        for index, seat in enumerate(self.core.players):
            if seat.key == old_key or seat.key == new_key:
                seat.key, seat.nick = new_key, nick
                if self.game.state is not None and hasattr(self.game.state, "players"):
                    self.game.state.players[index] = nick
                if self.game.game_id is not None:
                    self.core.store.rename_player(self.game.game_id, index, nick, new_key)
        self.core.save_lobby()

    def _sat_in_for(self, owner: str) -> int | None:
        """The game seat somebody sits in for ``owner``, who played it before."""
        return next((i for i, s in enumerate(self.core.players) if s.owner == owner and s.key != owner), None)

    def _unseat_sitter(self, index: int, owner_nick: str) -> list[Outgoing]:
        """The seat's owner takes it back from whoever sat in: they are told, and keep no seat here."""
        sitter = self.core.players[index]
        note = _("{nick} took seat {n} back with its code; you no longer play it.").format(
            nick=owner_nick, n=sitter.number
        )
        return [self.core.tell(sitter.nick, note, key=sitter.key)] if sitter.ai is None else []

    def code_line(self, key: str) -> str:
        code = self.core.codes.issue(self.core.network, self.core.channel, key)
        return _(
            "If you come back from another address, tell me /claim {code} to take this seat back."
        ).format(code=code)

    def replace_code(self, key: str) -> list[Outgoing]:
        """The seat code of ``key`` was said in public: a new one, told to the seat's person privately."""
        seat = self.core.seat_of(key)
        index = self.core.game_seat_of(key) if self.game.running else None
        nick = seat.nick if seat is not None else self.core.players[index].nick if index is not None else None
        if nick is None:
            return []
        note = _("Your seat code for {channel} was said in a channel, so it no longer works.").format(
            channel=self.core.channel
        )
        return [self.core.tell(nick, note + " " + self.code_line(key), key=key)]

    def claim_seat(self, actor: Actor, code: str) -> tuple[list[Outgoing], str | None]:
        """Move the seat a one-time code was made for to the actor; (messages, the seat's old identity)."""
        user = actor.user
        owner = self.core.codes.owner(self.core.network, code)
        held = owner is not None and (
            self.core.seat_of(owner[1]) is not None
            or self.core.game_seat_of(owner[1]) is not None
            or self._sat_in_for(owner[1]) is not None
        )
        if owner is None or owner[0] != self.core.channel.lower() or not held:
            return [self.core.tell(user.nick, _("That code is not valid here (each code works once)."))], None
        old_key = owner[1]
        if old_key == user.key:
            return [self.core.tell(user.nick, _("That seat is yours already."))], None
        if self.core.seat_of(user.key) is not None or self.core.game_seat_of(user.key) is not None:
            return [
                self.core.tell(
                    user.nick,
                    _("You already sit at {channel}; /leave that seat first.").format(
                        channel=self.core.channel
                    ),
                )
            ], None
        out: list[Outgoing] = []
        sat_in = self._sat_in_for(old_key)
        if sat_in is not None and self.core.game_seat_of(old_key) is None:
            out += self._unseat_sitter(sat_in, user.nick)
            old_key = self.core.players[sat_in].key
        seat = self.core.seat_of(old_key)
        index = self.core.game_seat_of(old_key)
        number = seat.number if seat is not None else self.core.players[index].number  # type: ignore[index]
        self.core.codes.forget(self.core.network, self.core.channel, owner[1])
        self.rename(old_key, user.key, user.nick)
        if index is not None:
            self.core.players[index].owner = None
        out.append(self.core.say(_("{nick} takes seat {n} back.").format(nick=user.nick, n=number)))
        note = _("Seat {n} at {channel} is yours again.").format(n=number, channel=self.core.channel)
        if user.mask and not user.account:
            note += " " + self.code_line(user.key)
        out.append(self.core.tell(user.nick, note, key=user.key))
        if index is not None and self.core.players[index].ai is not None:
            return out + self.ai.take_back(index, actor), old_key  # the AI stood in: it steps aside
        if index is not None:
            view = self.game.view_of(index)
            if view:
                out.append(self.core.tell(user.nick, view, key=user.key))
        return out, old_key
