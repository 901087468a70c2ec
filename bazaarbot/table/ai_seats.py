"""AI seats: ``/addbot``, an AI taking over a person's seat, the person coming back, sitting in.

The table decides *who* plays a seat; the AI's thinking happens elsewhere
(``bazaarbot.hub.autoplay`` asks a worker process). When an answer comes back
the table checks it still answers the decision it was asked for, so a move
that arrives after a reset, the game's end or a seat taken back is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing, Say
from bazaarbot.table.ai_names import ai_nick
from bazaarbot.table.aiturn import OpenAiTurn, one_line, split_lines
from bazaarbot.table.core import TableCore
from bazaarbot.table.game import RunningGame
from bazaarbot.table.presence import Presence
from bazaarbot.table.seats import Actor, Seat, ai_author, ai_key

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


class AiSeats:
    """Seats played by an AI, and the hand-overs between people and AIs."""

    def __init__(self, core: TableCore, game: RunningGame, presence: Presence) -> None:
        self.core = core
        self.game = game
        self.presence = presence
        #: the AI turn being played (``aiturn.OpenAiTurn``): its lines are said together when it ends
        self.ai_turn: OpenAiTurn | None = None

    def addbot(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        """``/addbot [level]``: an AI sits down in the lobby."""
        nick = actor.user.nick
        level = args[0].lower() if args else DEFAULT_TAKEOVER_LEVEL
        if level not in AI_LEVELS:
            return [self.core.tell(nick, _("AI levels: {levels}.").format(levels=", ".join(AI_LEVELS)))]
        if self.game.running:
            return [
                self.core.tell(
                    nick,
                    _("A game of {game} is running here; add an AI before /start.").format(
                        game=self.core.plugin.title
                    ),
                )
            ]
        if self.core.seats and self.core.seat_of(actor.user.key) is None and not actor.is_admin:
            return [self.core.tell(nick, _("Only a seated player can add an AI; /join first."))]
        plugin = self.core.plugin
        taken = {s.number for s in self.core.seats}
        free = [n for n in range(1, plugin.max_players + 1) if n not in taken]
        if not free:
            return self.core.table_full(nick)
        number = free[0]
        seat = Seat(number, ai_key(level, number), self._ai_nick(level), ai=level)
        self.core.seats.append(seat)
        self.core.seats.sort(key=lambda s: s.number)
        if not self.core.host or self.core.seat_of(self.core.host) is None:
            self.core.host = actor.user.key
        self.core.save_lobby()
        names = ", ".join(f"{s.number} {s.label}" for s in self.core.seats)
        return [
            self.core.say(
                _("{ai} (an AI player) joins {game} in seat {n}. Seated: {names}.").format(
                    ai=seat.nick, game=plugin.title, n=number, names=names
                )
            )
        ]

    def _ai_nick(self, level: str) -> str:
        base = str(ai_nick(level))
        names = {s.nick.lower() for s in self.core.seats}
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
        if (
            not self.game.running
            or self.game.game_id is None
            or self.presence.idle_since is not None
            or self.people_left() == 0
        ):
            return []
        return [
            Decision(
                self.game.game_id,
                self.game.moves_made,
                index,
                self.core.players[index].ai or DEFAULT_TAKEOVER_LEVEL,
            )
            for index in self.core.plugin.to_act(self.game.state)
            if self.core.players[index].ai is not None
        ]

    def still_awaited(self, decision: Decision) -> bool:
        """Whether ``decision`` is still the question (nothing moved, the seat still the AI's)."""
        return (
            self.game.running
            and self.game.game_id == decision.game_id
            and self.game.moves_made == decision.moves_made
            and self.core.players[decision.seat].ai is not None
            and decision.seat in self.core.plugin.to_act(self.game.state)
        )

    def play_for(self, decision: Decision, command: str, announce: str | None = None) -> list[Outgoing]:
        """Play an AI's answer, if it still answers the decision; else nothing (a stale think)."""
        fresh = self.decides_for_person(decision) if decision.timeout else self.still_awaited(decision)
        if not fresh:
            return []
        seat = self.core.players[decision.seat]
        out = [self.core.say(announce, ai_turn=True)] if announce else []
        # the lines held so far are taken first (a move that ends the game clears the table); another
        # seat's turn still held is said apart, before
        earlier: list[Outgoing] = []
        held: list[Say] = []
        if self.ai_turn_seat() == decision.seat:
            held, self.ai_turn = list(self.ai_turn.lines), None
        else:
            earlier = self.end_ai_turn()
        out += self.game.play(decision.seat, ai_author(decision.level), command, seat.nick, ai_turn=True)
        return earlier + self._gather_ai_turn(decision.seat, held, out)

    def _gather_ai_turn(self, index: int, held: list[Say], out: list[Outgoing]) -> list[Outgoing]:
        """Hold the channel lines of an AI turn that goes on; the turn's end says them as one line."""
        said, rest = split_lines(out)
        goes_on = (
            self.game.running
            and self.core.players[index].ai is not None
            and index in self.core.plugin.to_act(self.game.state)
            and self.presence.idle_since is None
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
            self.game.running
            and self.game.game_id == decision.game_id
            and self.game.moves_made == decision.moves_made
            and decision.seat in self.core.plugin.to_act(self.game.state)
        )

    # --- hand-overs -------------------------------------------------------------------------
    def hand_to_ai(self, index: int, level: str) -> None:
        """An AI plays game seat ``index`` from now on; hand, tokens and score stay as they are."""
        seat = self.core.players[index]
        seat.ai = level
        self.game.rename_in_game(index, seat.label)
        self.game.save_players()
        self.core.notify()

    def take_back(self, index: int, actor: Actor) -> list[Outgoing]:
        """A person plays seat ``index`` again: its former player, or somebody sitting in."""
        held = self.end_ai_turn()
        seat = self.core.players[index]
        user = actor.user
        sitter = seat.key != user.key and seat.owner != user.key
        old_nick = seat.nick
        if sitter and seat.owner is None:
            seat.owner = seat.key  # the absent player's /claim code still takes the seat back
        elif not sitter:
            seat.owner = None
        seat.key, seat.nick, seat.ai, seat.away = user.key, user.nick, None, False
        self.presence.set_offline(user.key, False)
        self.game.rename_in_game(index, user.nick)
        if self.core.seat_of(user.key) is None:
            self.core.seats.append(Seat(seat.number, user.key, user.nick))
            self.core.seats.sort(key=lambda s: s.number)
        if not self.core.host or self.core.seat_of(self.core.host) is None:
            self.core.host = user.key
        self.core.save_lobby()
        self.game.save_players()
        self.core.notify()
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
        out: list[Outgoing] = [*held, self.core.say(line)]
        view = self.game.view_of(index)
        if view:
            out.append(self.core.tell(user.nick, view, key=user.key))
        return out + self.presence.check_presence()

    def people_left(self) -> int:
        """How many game seats a person still plays."""
        return sum(1 for s in self.core.players if s.has_person)
