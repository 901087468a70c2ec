"""AI seats: ``/addbot``, an AI taking over a person's seat, the person coming back, sitting in.

The table decides *who* plays a seat; the AI's thinking happens elsewhere
(``bazaarbot.hub.autoplay`` asks a worker process). When an answer comes back
the table checks it still answers the decision it was asked for, so a move
that arrives after a reset, the game's end or a seat taken back is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing, Say
from bazaarbot.table.ai_names import ai_nick
from bazaarbot.table.aiturn import OpenAiTurn, one_line, split_lines
from bazaarbot.table.seats import Actor, Seat, ai_author, ai_key
from bazaarbot.table.views import Views

#: the AI levels a table may use (their budgets are in the ``[ai]`` config)
AI_LEVELS = ("easy", "medium", "hard")
#: the level that takes over a seat a person left, unless the table chose another
DEFAULT_TAKEOVER_LEVEL = "medium"


@dataclass(frozen=True)
class Decision:
    """One decision awaited from an AI: which table state it answers, which seat, which level."""

    game_id: int
    moves_made: int
    seat: int
    level: str
    #: the clock ran out on a person: the AI plays this one decision, the seat stays theirs
    timeout: bool = False


class AiSeats(Views):
    """Seats played by an AI, and the hand-overs between people and AIs."""

    def addbot(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        """``/addbot [level]``: an AI sits down in the lobby."""
        nick = actor.user.nick
        level = args[0].lower() if args else DEFAULT_TAKEOVER_LEVEL
        if level not in AI_LEVELS:
            return [self.tell(nick, _("AI levels: {levels}.").format(levels=", ".join(AI_LEVELS)))]
        if self.running:
            return [
                self.tell(
                    nick,
                    _("A game of {game} is running here; add an AI before /start.").format(
                        game=self.plugin.title
                    ),
                )
            ]
        if self.seats and self.seat_of(actor.user.key) is None and not actor.is_admin:
            return [self.tell(nick, _("Only a seated player can add an AI; /join first."))]
        plugin = self.plugin
        taken = {s.number for s in self.seats}
        free = [n for n in range(1, plugin.max_players + 1) if n not in taken]
        if not free:
            return self.table_full(nick)
        number = free[0]
        seat = Seat(number, ai_key(level, number), self._ai_nick(level), ai=level)
        self.seats.append(seat)
        self.seats.sort(key=lambda s: s.number)
        if not self.host or self.seat_of(self.host) is None:
            self.host = actor.user.key
        self.save_lobby()
        names = ", ".join(f"{s.number} {s.label}" for s in self.seats)
        return [
            self.say(
                _("{ai} (an AI player) joins {game} in seat {n}. Seated: {names}.").format(
                    ai=seat.nick, game=plugin.title, n=number, names=names
                )
            )
        ]

    def _ai_nick(self, level: str) -> str:
        base = str(ai_nick(level))
        names = {s.nick.lower() for s in self.seats}
        if base.lower() not in names:
            return base
        n = 2
        while f"{base}{n}".lower() in names:
            n += 1
        return f"{base}{n}"

    # --- decisions ------------------------------------------------------------------------
    def ai_decisions(self) -> list[Decision]:
        """The decisions awaited now from seats an AI plays (none when no game runs).

        While no player is present (the game is paused) the AIs wait: a
        player may come back, or somebody sit in.
        """
        if not self.running or self.game_id is None or self.idle_since is not None or self.people_left() == 0:
            return []
        return [
            Decision(self.game_id, self.moves_made, index, self.players[index].ai or DEFAULT_TAKEOVER_LEVEL)
            for index in self.plugin.to_act(self.state)
            if self.players[index].ai is not None
        ]

    def still_awaited(self, decision: Decision) -> bool:
        """Whether ``decision`` is still the question (nothing moved, the seat still the AI's)."""
        return (
            self.running
            and self.game_id == decision.game_id
            and self.moves_made == decision.moves_made
            and self.players[decision.seat].ai is not None
            and decision.seat in self.plugin.to_act(self.state)
        )

    def play_for(self, decision: Decision, command: str, announce: str | None = None) -> list[Outgoing]:
        """Play an AI's answer, if it still answers the decision; else nothing (a stale think)."""
        fresh = self.decides_for_person(decision) if decision.timeout else self.still_awaited(decision)
        if not fresh:
            return []
        seat = self.players[decision.seat]
        out = [replace(self.say(announce), ai_turn=True)] if announce else []
        # the lines held so far are taken first (a move that ends the game clears the table); another
        # seat's turn still held is said apart, before
        earlier: list[Outgoing] = []
        held: list[Say] = []
        if self.ai_turn_seat() == decision.seat:
            held, self.ai_turn = list(self.ai_turn.lines), None
        else:
            earlier = self.end_ai_turn()
        out += self.play(decision.seat, ai_author(decision.level), command, seat.nick, ai_turn=True)
        return earlier + self._gather_ai_turn(decision.seat, held, out)

    def _gather_ai_turn(self, index: int, held: list[Say], out: list[Outgoing]) -> list[Outgoing]:
        """Hold the channel lines of an AI turn that goes on; the turn's end says them as one line."""
        said, rest = split_lines(out)
        goes_on = (
            self.running
            and self.players[index].ai is not None
            and index in self.plugin.to_act(self.state)
            and self.idle_since is None
        )
        if goes_on:
            self.ai_turn = OpenAiTurn(index, [*held, *said])
            return rest
        self.ai_turn = None
        return one_line([*held, *said]) + rest

    def end_ai_turn(self) -> list[Outgoing]:
        """The lines of an AI turn cut short (a person took the seat, the game ended): said now."""
        turn, self.ai_turn = self.ai_turn, None
        return one_line(turn.lines) if turn is not None else []

    def ai_turn_seat(self) -> int | None:
        """The seat whose AI turn is under way (its next decision follows at once, unpaced), if any."""
        return self.ai_turn.seat if self.ai_turn is not None else None

    def decides_for_person(self, decision: Decision) -> bool:
        """A timed-out person's decision that the AI plays once (the seat stays theirs)."""
        return (
            self.running
            and self.game_id == decision.game_id
            and self.moves_made == decision.moves_made
            and decision.seat in self.plugin.to_act(self.state)
        )

    # --- hand-overs -------------------------------------------------------------------------
    def hand_to_ai(self, index: int, level: str) -> None:
        """An AI plays game seat ``index`` from now on; hand, tokens and score stay as they are."""
        seat = self.players[index]
        seat.ai = level
        self._rename_in_game(index, seat.label)
        self.save_players()
        self.notify()

    def take_back(self, index: int, actor: Actor) -> list[Outgoing]:
        """A person plays seat ``index`` again: its former player, or somebody sitting in."""
        held = self.end_ai_turn()
        seat = self.players[index]
        user = actor.user
        sitter = seat.key != user.key and seat.owner != user.key
        old_nick = seat.nick
        if sitter and seat.owner is None:
            seat.owner = seat.key  # the absent player's /claim code still takes the seat back
        elif not sitter:
            seat.owner = None
        seat.key, seat.nick, seat.ai, seat.away = user.key, user.nick, None, False
        self.set_offline(user.key, False)
        self._rename_in_game(index, user.nick)
        if self.seat_of(user.key) is None:
            self.seats.append(Seat(seat.number, user.key, user.nick))
            self.seats.sort(key=lambda s: s.number)
        if not self.host or self.seat_of(self.host) is None:
            self.host = user.key
        self.save_lobby()
        self.save_players()
        self.notify()
        if sitter and user.nick.lower() == old_nick.lower():
            # the same nick, another person: never let it read as the player coming back
            line = _("{nick} (another user) sits in for {former} in seat {n}; the AI steps aside.").format(
                nick=user.nick, former=old_nick, n=seat.number
            )
        elif sitter:
            line = _("{nick} sits in for {former} in seat {n}; the AI steps aside.").format(
                nick=user.nick, former=old_nick, n=seat.number
            )
        else:
            line = _("{nick} is back in seat {n}; the AI steps aside.").format(nick=user.nick, n=seat.number)
        out: list[Outgoing] = [*held, self.say(line)]
        view = self.view_of(index)
        if view:
            out.append(self.tell(user.nick, view, key=user.key))
        return out + self.check_presence()

    def _rename_in_game(self, index: int, name: str) -> None:
        if self.state is not None and hasattr(self.state, "players"):
            self.state.players[index] = name

    def save_players(self) -> None:
        """Store who holds each game seat now (person or AI), so a restart keeps it."""
        if self.game_id is not None:
            self.store.set_players(self.game_id, [s.record() for s in self.players])

    def people_left(self) -> int:
        """How many game seats a person still plays."""
        return sum(1 for s in self.players if s.has_person)
