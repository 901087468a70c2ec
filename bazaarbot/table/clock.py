"""The turn clock: every decision a person owes has a deadline; at its end the AI plays it.

``TurnClock`` is pure (times are passed in), so tests drive it with a fake
clock. The table part keeps one clock per table, restarts it whenever the
awaited decision changes, reminds the player privately at half time and with
``LAST_CALL`` seconds left, hands a timed-out decision to the AI, and marks a
player away after ``AWAY_AFTER`` timeouts in a row. On a paced network every
channel line costs everybody a second, so the channel hears of the clock once
per timed-out decision: the line saying the AI played it. The deadline is
stored, so a restart resumes with the time that was left.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bazaarbot.config import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from bazaarbot.i18n import _, ngettext
from bazaarbot.messages import Outgoing
from bazaarbot.table.ai_seats import DEFAULT_TAKEOVER_LEVEL, AiSeats, Decision
from bazaarbot.table.core import TableCore
from bazaarbot.table.durations import parse_duration, say_duration
from bazaarbot.table.game import RunningGame
from bazaarbot.table.presence import CORRESPONDENCE_SECONDS, Presence
from bazaarbot.table.seats import Actor
from bazaarbot.words.moves import command_phrase

#: the second reminder comes this many seconds before the end
LAST_CALL = 30.0
#: timeouts in a row after which the AI plays the seat until its player is back
AWAY_AFTER = 3
#: a person is sent at most one private reminder (across all tables) within this many seconds
REMIND_GAP = 1800.0
#: after a restart that did not stop cleanly, a clock whose deadline passed gets at least this long
RESTART_GRACE = 30.0
#: the events of one decision's clock, in order
HALF, LAST, TIMEOUT = "half", "last", "timeout"

#: the grace a person who has not moved yet gets at their first timeout (marked in ``TurnClock.sent``)
GRACE = "grace"


@dataclass
class TurnClock:
    """The deadline of one awaited decision, and which reminders it has given."""

    seconds: int
    #: which decision it times: (game id, commands logged so far)
    decision: tuple[int, int] | None = None
    deadline: float | None = None
    #: time left while paused (the bot is disconnected from the network)
    paused_left: float | None = None
    sent: set[str] = field(default_factory=set)

    def follow(self, decision: tuple[int, int] | None, now: float, delay: float = 0.0) -> bool:
        """Time ``decision`` (None: nobody owes one); True when it is a new one and the clock restarted.

        ``delay`` is how long the prompt still waits in the transport's send queue: the player's
        time starts when they can read it.
        """
        if decision == self.decision:
            return False
        self.decision = decision
        self.sent = set()
        self.paused_left = None if self.paused_left is None or decision is None else float(self.seconds)
        self.deadline = None if decision is None else now + delay + self.seconds
        return True

    def left(self, now: float) -> float | None:
        if self.paused_left is not None:
            return self.paused_left
        return None if self.deadline is None else self.deadline - now

    def due(self, now: float) -> list[str]:
        """The events whose time has come and that were not given yet (marked as given)."""
        left = self.left(now)
        if left is None or self.paused_left is not None:
            return []
        events = []
        if left <= 0:
            events.append(TIMEOUT)
        elif left <= LAST_CALL and self.seconds > LAST_CALL:
            events.append(LAST)
        elif left <= self.seconds / 2 and self.seconds / 2 > LAST_CALL:
            events.append(HALF)
        fresh = [e for e in events if e not in self.sent]
        self.sent.update(fresh)
        if LAST in fresh:
            self.sent.add(HALF)
        return fresh

    def next_event(self) -> float | None:
        """When ``due`` next has an event to give (None: none, as it stands: paused or nothing timed)."""
        if self.deadline is None or self.paused_left is not None or TIMEOUT in self.sent:
            return None  # after the timeout only a new decision or a grace times anything again
        times = [self.deadline]
        if LAST not in self.sent and self.seconds > LAST_CALL:
            times.append(self.deadline - LAST_CALL)
        if HALF not in self.sent and self.seconds / 2 > LAST_CALL:
            times.append(self.deadline - self.seconds / 2)
        return min(times)

    def grant_grace(self, now: float) -> bool:
        """The decision's first timeout only reminds: a whole new period, once; False when given already."""
        if GRACE in self.sent:
            return False
        self.sent = {GRACE}
        self.deadline = now + self.seconds
        return True

    def pause(self, now: float) -> None:
        if self.paused_left is None and self.deadline is not None:
            self.paused_left = max(0.0, self.deadline - now)

    def resume(self, now: float) -> None:
        if self.paused_left is not None:
            self.deadline = now + self.paused_left
            self.paused_left = None

    def to_json(self) -> str:
        return json.dumps(
            {
                "seconds": self.seconds,
                "decision": list(self.decision) if self.decision else None,
                "deadline": self.deadline,
                "paused_left": self.paused_left,
                "sent": sorted(self.sent),
            }
        )

    @classmethod
    def from_json(cls, text: str, now: float) -> TurnClock:
        """A stored clock; a deadline that passed while the bot was down gets ``RESTART_GRACE``."""
        data = json.loads(text)
        clock = cls(
            int(data["seconds"]),
            tuple(data["decision"]) if data.get("decision") else None,  # type: ignore[arg-type]
            data.get("deadline"),
            data.get("paused_left"),
            set(data.get("sent", ())),
        )
        if clock.paused_left is not None:
            clock.resume(now)
        elif clock.deadline is not None and clock.deadline - now < RESTART_GRACE:
            clock.deadline = now + RESTART_GRACE
            clock.sent.discard(LAST)
        return clock


class Clock:
    """The table's turn clock and what happens when time runs out."""

    def __init__(self, core: TableCore, game: RunningGame, presence: Presence, ai: AiSeats) -> None:
        self.core = core
        self.game = game
        self.presence = presence
        self.ai = ai
        #: the turn clock of the awaited decision, made when first needed
        self.turn_clock: TurnClock | None = None
        #: game seat -> decisions in a row the clock ran out on
        self.timeouts: dict[int, int] = {}

    def stop(self) -> None:
        """The game ended: no decision is timed, and none is stored."""
        if self.turn_clock is not None:
            self.turn_clock = None
            self.core.save_setting("clock_state", "")

    def clock_seconds(self) -> int | None:
        """This table's seconds per decision (None: no clock)."""
        raw = self.core.settings.get("clock")
        if raw is None:
            return self.core.default_turn_seconds
        return int(raw) or None

    def set_clock(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        """``/clock`` says the setting (anyone); ``/clock 90s|5m|2h|1d|off`` sets it (host or admin)."""
        nick = actor.user.nick
        if not args:
            seconds = self.clock_seconds()
            state = say_duration(seconds) if seconds else _("off")
            return [
                self.core.tell(
                    nick,
                    _(
                        "The turn clock here is {state} per decision. The host sets it: "
                        "/clock 90s, 5m, 1d or off."
                    ).format(state=state),
                )
            ]
        if actor.user.key != self.core.host and not actor.is_admin:
            return [
                self.core.tell(
                    nick,
                    _("Only the host ({host}) or an admin can use /{name}.").format(
                        host=self.core.host_nick(), name="clock"
                    ),
                )
            ]
        word = args[0].lower()
        seconds = 0 if word in ("off", "0", "none") else parse_duration(word)
        if seconds is None or (seconds and not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS):
            return [
                self.core.tell(
                    nick,
                    _("Give the clock as 90s, 5m, 2h, 1d or off (from {n}s to {days} days).").format(
                        n=MIN_TURN_SECONDS, days=MAX_TURN_SECONDS // 86400
                    ),
                )
            ]
        self.core.save_setting("clock", str(seconds))
        self.turn_clock = None
        self.core.save_setting("clock_state", "")
        if seconds:
            line = _("Turn clock: {time} per decision (set by {nick}).").format(
                time=say_duration(seconds), nick=nick
            )
        else:
            line = _("The turn clock is off at this table (set by {nick}).").format(nick=nick)
        return [self.core.say(line)]

    def is_correspondence(self) -> bool:
        """A clock of an hour or more: a player who disconnects keeps their seat and is told on return."""
        seconds = self.clock_seconds()
        return bool(seconds) and seconds >= CORRESPONDENCE_SECONDS  # type: ignore[operator]

    def time_left(self, now: float) -> float | None:
        """Seconds left on the awaited decision's clock (all of it when not started yet); None: no clock."""
        seconds = self.clock_seconds()
        if not seconds or not self._awaited_people():
            return None
        clock = self.turn_clock
        stored = self.core.settings.get("clock_state")
        if clock is None and stored:
            clock = TurnClock.from_json(stored, now)
        if (
            clock is not None
            and clock.decision == (self.game.game_id, self.game.moves_made)
            and clock.seconds == seconds
        ):
            return clock.left(now)
        return float(seconds)

    def _awaited_people(self) -> list[int]:
        if not self.game.running:
            return []
        return [i for i in self.core.plugin.to_act(self.game.state) if self.core.players[i].has_person]

    def clock_tick(self, now: float, delay: float = 0.0) -> tuple[list[Outgoing], list[Decision]]:
        """Advance the clock to ``now``: reminders to send, and decisions the AI must play for a person.

        A decision first seen now gets ``delay`` extra seconds (its prompt is still queued).
        """
        seconds = self.clock_seconds()
        if self.presence.idle_since is not None:  # the game is paused: nobody is here, the clock stands still
            return [], []
        people = self._awaited_people()
        if not seconds or not people or self.game.game_id is None:
            if self.turn_clock is not None and self.turn_clock.decision is not None:
                self.turn_clock.follow(None, now)
                self._save_clock()
            return [], []
        if self.turn_clock is None:
            stored = self.core.settings.get("clock_state")
            self.turn_clock = TurnClock.from_json(stored, now) if stored else TurnClock(seconds)
            if self.turn_clock.seconds != seconds:
                self.turn_clock = TurnClock(seconds)
        clock = self.turn_clock
        if clock.follow((self.game.game_id, self.game.moves_made), now, delay):
            self._save_clock()
        events = clock.due(now)
        if not events:
            return [], []
        self._save_clock()
        out: list[Outgoing] = []
        decisions: list[Decision] = []
        for event in events:
            if event == TIMEOUT:
                fresh = [i for i in people if not self._has_moved(i)]
                if fresh and clock.grant_grace(now):
                    self._save_clock()
                    out += self._first_timeout(fresh, seconds)
                    continue
                level = self.takeover_level()
                decisions += [
                    Decision(self.game.game_id, self.game.moves_made, i, level, timeout=True) for i in people
                ]
                continue
            left = say_duration(clock.left(now) or 0)
            gap = min(REMIND_GAP, seconds / 4)
            for i in people:  # reminders are private: the channel hears of the clock only when time is up
                if not self.core.may_remind(self.core.players[i].key, gap):
                    continue
                if not self._has_moved(i) and GRACE not in clock.sent:  # what its timeout will really do
                    line = _(
                        "Your move at {channel}: {left} left; then I remind you once more, and at the "
                        "end of one more turn's time the AI plays it for you."
                    )
                else:
                    line = _("Your move at {channel}: {left} left, then the AI plays it for you.")
                out.append(
                    self.core.tell(
                        self.core.players[i].nick,
                        line.format(channel=self.core.channel, left=left),
                        key=self.core.players[i].key,  # a reminder for the player, not for a nick-taker
                        ping=True,
                        urgent=True,
                    )
                )
        return out, decisions

    def _has_moved(self, index: int) -> bool:
        """Whether game seat ``index`` made any step of this game yet (its person, or the AI at a timeout)."""
        return index in self.game.moved

    def _first_timeout(self, people: list[int], seconds: int) -> list[Outgoing]:
        """The first timeout of somebody who has not moved yet only reminds: the AI waits one more period."""
        out: list[Outgoing] = []  # a reminder, so private: the channel hears of the clock only at the end
        for i in people:
            if not self.core.may_remind(self.core.players[i].key, min(REMIND_GAP, seconds / 4)):
                continue
            out += self.core.tell_seat(
                i,
                _("Your move at {channel}: /moves lists what you can do; {time} left.").format(
                    channel=self.core.channel, time=say_duration(seconds)
                ),
                ping=True,
            )
        return out

    def _save_clock(self) -> None:
        if self.turn_clock is not None:
            self.core.save_setting("clock_state", self.turn_clock.to_json())

    def next_due(self) -> float | None:
        """When ``clock_tick`` next has something to give, as the table stands after a tick (None:
        nothing before the table changes: a move, a hand-over, a pause or its end, a new setting)."""
        if self.presence.idle_since is not None or self.turn_clock is None:
            return None
        return self.turn_clock.next_event()

    def pause_clock(self, now: float) -> None:
        if self.turn_clock is not None:
            self.turn_clock.pause(now)
            self._save_clock()

    def resume_clock(self, now: float) -> None:
        if (
            self.turn_clock is not None and self.presence.idle_since is None
        ):  # a paused game's clock stays still
            self.turn_clock.resume(now)
            self._save_clock()

    def takeover_level(self) -> str:
        return (
            self.core.settings.get("takeover") or self.core.default_takeover_level or DEFAULT_TAKEOVER_LEVEL
        )

    def play_timed_out(self, decision: Decision, command: str) -> list[Outgoing]:
        """The AI plays one timed-out decision for a person; three in a row and the seat is theirs no more."""
        if not self.ai.decides_for_person(decision) or self.presence.idle_since is not None:
            return []
        seat = self.core.players[decision.seat]
        # one public line of the clock's own: time is up (and, the third time, that the AI keeps the seat)
        notice = _('Time is up for {nick}: the AI plays "{command}" for them.').format(
            nick=seat.nick, command=command_phrase(self.core.plugin, self.game.state, decision.seat, command)
        )
        played = self.ai.play_for(decision, command)
        after: list[Outgoing] = []
        if self.game.running:
            count = self.timeouts.get(decision.seat, 0) + 1
            self.timeouts[decision.seat] = count
            if count >= AWAY_AFTER and seat.has_person:
                seat.away = True
                self.ai.hand_to_ai(decision.seat, decision.level)
                notice += " " + ngettext(
                    "{nick} has not answered {n} time in a row: the AI plays that seat until {nick} "
                    "says anything here (or /back).",
                    "{nick} has not answered {n} times in a row: the AI plays that seat until {nick} "
                    "says anything here (or /back).",
                    count,
                ).format(nick=seat.nick, n=count)
                after = self.presence.check_presence()
        return [self.core.say(notice, about=seat.nick), *played, *after]
