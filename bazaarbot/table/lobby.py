"""The lobby: choosing the game, sitting down, getting up, the host, the one leave path, reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bazaarbot.i18n import _, ngettext
from bazaarbot.messages import Outgoing
from bazaarbot.table.ai_names import level_word
from bazaarbot.table.ai_seats import AiSeats
from bazaarbot.table.claims import SeatClaims
from bazaarbot.table.clock import Clock
from bazaarbot.table.core import TableCore
from bazaarbot.table.game import RunningGame
from bazaarbot.table.options import TABLE_OPTIONS, option_said, option_typed
from bazaarbot.table.presence import Presence
from bazaarbot.table.seats import Actor, Seat
from bazaarbot.text.digits import number as ascii_number
from bazaarbot.words.counts import players_label

#: seconds within which every person in a game must say /reset for it to happen
RESET_AGREEMENT = 120.0


class Lobby:
    """Seats, host, game and options; every way a person leaves the table goes through ``remove``."""

    def __init__(
        self,
        core: TableCore,
        game: RunningGame,
        presence: Presence,
        ai: AiSeats,
        clock: Clock,
        claims: SeatClaims,
    ) -> None:
        self.core = core
        self.game = game
        self.presence = presence
        self.ai = ai
        self.clock = clock
        self.claims = claims
        #: seated person's key -> when they asked to /reset (an agreement of everybody seated)
        self.reset_requests: dict[str, float] = {}

    def _pass_host(self) -> list[Outgoing]:
        """The host left: the first person still seated hosts (an AI never does)."""
        if self.core.seat_of(self.core.host) is not None:
            return []
        people = [s for s in self.core.seats if not s.is_bot]
        self.core.host = people[0].key if people else ""
        if people:
            return [self.core.say(_("{nick} is now the host.").format(nick=people[0].nick))]
        return []

    def new(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        nick = actor.user.nick
        if not args:
            return [
                self.core.tell(
                    nick, _("Which game? /new <game>, for example /new jaipur. /games lists them.")
                )
            ]
        name = args[0].lower()
        if name not in self.core.games:
            known = ", ".join(sorted(self.core.games))
            return [
                self.core.tell(
                    nick,
                    _("There is no game called {name}. Try one of: {known}.").format(name=name, known=known),
                )
            ]
        if self.game.running:
            return [
                self.core.tell(
                    nick,
                    _("A game of {game} is running here; it must end (or /reset) first.").format(
                        game=self.core.plugin.title
                    ),
                )
            ]
        if self.core.seats and actor.user.key != self.core.host and not actor.is_admin:
            return [
                self.core.tell(
                    nick,
                    _("Only the host ({host}) can change the game at this table.").format(
                        host=self.core.host_nick()
                    ),
                )
            ]
        plugin = self.core.games[name]
        too_many = self._too_many_for(plugin.max_players, joining=self.core.seat_of(actor.user.key) is None)
        if too_many:
            return [
                self.core.tell(
                    nick,
                    ngettext(
                        "{game} takes at most {hi} player and {n} would sit here: "
                        "{who} must leave first (/leave, or /kick by the host).",
                        "{game} takes at most {hi} players and {n} would sit here: "
                        "{who} must leave first (/leave, or /kick by the host).",
                        plugin.max_players,
                    ).format(
                        game=plugin.title,
                        hi=plugin.max_players,
                        n=len(self.core.seats) + (self.core.seat_of(actor.user.key) is None),
                        who=", ".join(seat.nick for seat in too_many),
                    ),
                )
            ]
        options: dict[str, Any] = {}
        known_options = {o.name: o for o in (*plugin.options, *TABLE_OPTIONS)}
        for arg in args[1:]:
            key, eq, raw = arg.partition("=")
            option = known_options.get(key.lower())
            if not eq or option is None:
                listed = ", ".join(option_typed(o, o.default) for o in (*plugin.options, *TABLE_OPTIONS))
                return [
                    self.core.tell(
                        nick,
                        _("Unknown option {arg!r}. {game} options: {listed}.").format(
                            arg=arg, game=plugin.title, listed=listed
                        ),
                    )
                ]
            try:
                options[option.name] = option.convert(raw)
            except ValueError as error:
                return [self.core.tell(nick, str(error))]
        self.core.game_name = name
        self.core.options = options
        out = [
            self.core.say(
                _("This table now plays {game} ({players}).").format(
                    game=plugin.title, players=players_label(plugin)
                )
                + "".join(" " + option_said(known_options[k], v) for k, v in options.items())
            )
        ]
        if self.core.seat_of(actor.user.key) is None:
            out += self.join(actor, ())
        else:
            self.core.save_lobby()
        return out

    def _too_many_for(self, most: int, joining: bool) -> list[Seat]:
        """The seats that would have to go for a game of at most ``most`` players (AIs named first)."""
        excess = len(self.core.seats) + joining - most
        if excess <= 0:
            return []
        beyond = sorted(self.core.seats, key=lambda seat: (not seat.is_bot, -seat.number))
        return sorted(beyond[:excess], key=lambda seat: seat.number)

    def join(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        user = actor.user
        if self.game.running:
            return self._join_running(actor, args)
        if self.core.seat_of(user.key) is not None:
            return [
                self.core.tell(user.nick, _("You already sit at this table; /start when everybody is here."))
            ]
        plugin = self.core.plugin
        taken = {s.number for s in self.core.seats}
        if args:
            number = ascii_number(args[0])
            if number is None:
                return [
                    self.core.tell(
                        user.nick,
                        _("/join takes a seat number from 1 to {hi}, or nothing.").format(
                            hi=plugin.max_players
                        ),
                    )
                ]
            if not 1 <= number <= plugin.max_players:
                return [
                    self.core.tell(
                        user.nick,
                        _("{game} has seats 1 to {hi}.").format(game=plugin.title, hi=plugin.max_players),
                    )
                ]
            if number in taken:
                return [
                    self.core.tell(
                        user.nick,
                        _("Seat {n} is taken; free seats: {free}.").format(
                            n=number,
                            free=", ".join(str(n) for n in range(1, plugin.max_players + 1) if n not in taken)
                            or _("none"),
                        ),
                    )
                ]
        else:
            free = [n for n in range(1, plugin.max_players + 1) if n not in taken]
            if not free:
                return self.core.table_full(user.nick)
            number = free[0]
        self.core.seats.append(Seat(number, user.key, user.nick))
        self.core.seats.sort(key=lambda s: s.number)
        if not self.core.host or self.core.seat_of(self.core.host) is None:
            self.core.host = user.key
        self.core.save_lobby()
        names = ", ".join(f"{s.number} {s.nick}" for s in self.core.seats)
        # a private line at once: the player knows where hands will arrive, and a network that
        # refuses private messages (caller-ID, registered-only) shows it now, not at the deal
        welcome_text = _(
            "You sit in seat {n} at {channel} ({game}). What only you may see "
            "(your hand, refused moves) comes here; /hand re-sends it."
        ).format(n=number, channel=self.core.channel, game=plugin.title)
        if user.mask and not user.account:
            welcome_text += " " + self.claims.code_line(user.key)
        welcome = self.core.tell(user.nick, welcome_text, key=user.key)
        return [
            self.core.say(
                _("{nick} joins {game} in seat {n}. Seated: {names}. Host: {host}.").format(
                    nick=user.nick, game=plugin.title, n=number, names=names, host=self.core.host_nick()
                )
            ),
            welcome,
        ]

    def _join_running(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        """During a game: the former player takes their seat back, or someone sits in for an AI."""
        user = actor.user
        index = self.core.game_seat_of(user.key)
        if index is not None:
            if self.core.players[index].ai is not None:
                return self.ai.take_back(index, actor)
            return [self.core.tell(user.nick, _("You are already playing here."))]
        open_seats = [s for s in self.core.players if s.ai is not None and not s.is_bot]
        wanted = ascii_number(args[0]) if args else None
        if wanted is not None:
            seat = next((s for s in open_seats if s.number == wanted), None)
            if seat is not None:
                return self.ai.take_back(self.core.players.index(seat), actor)
        if open_seats:
            listed = ", ".join(f"{s.number} ({s.nick})" for s in open_seats)
            return [
                self.core.tell(
                    user.nick,
                    _(
                        "A game of {game} is running. An AI plays for someone who left: sit in with "
                        "/join <seat> (seats {seats})."
                    ).format(game=self.core.plugin.title, seats=listed),
                )
            ]
        return [
            self.core.tell(
                user.nick,
                _("A game of {game} is running here; wait for it to end.").format(
                    game=self.core.plugin.title
                ),
            )
        ]

    def leave(self, actor: Actor) -> list[Outgoing]:
        key = actor.user.key
        if self.core.seat_of(key) is None and (not self.game.running or self.core.game_seat_of(key) is None):
            return [self.core.tell(actor.user.nick, _("You do not sit at this table."))]
        return self.remove(key, lambda who: _("{nick} left the table.").format(nick=who))

    def kick(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        nick = actor.user.nick
        if not args:
            return [self.core.tell(nick, _("Whom? /kick <nick>"))]
        if actor.user.key != self.core.host and not actor.is_admin:
            return [
                self.core.tell(
                    nick, _("Only the host ({host}) or an admin can kick.").format(host=self.core.host_nick())
                )
            ]
        target = next((s for s in self.core.seats if s.nick.lower() == args[0].lower()), None)
        if target is None:
            return [self.core.tell(nick, _("{target} does not sit at this table.").format(target=args[0]))]
        if target.is_bot and self.game.running and self.core.game_seat_of(target.key) is not None:
            return [
                self.core.tell(
                    nick,
                    _("{target} plays in the running game; it leaves when the game ends (or /reset).").format(
                        target=target.nick
                    ),
                )
            ]
        return self.remove(
            target.key, lambda who: _("{nick} was removed from the table by {by}.").format(nick=who, by=nick)
        )

    def remove(self, key: str, reason: Callable[[str], str]) -> list[Outgoing]:
        """The one leave path (leave, kick, disconnect, away), correct whoever's turn it is.

        In a running game the person's seat is handed to an AI (or, where the
        game's ``leavers=skip`` option says so, taken out of the game); the
        seat keeps its hand, tokens and score, and its player can take it back.
        """
        seat = self.core.seat_of(key)
        index = self.core.game_seat_of(key) if self.game.running else None
        if seat is None and index is None:
            return []
        nick = seat.nick if seat is not None else self.core.players[index].nick  # type: ignore[index]
        out = [self.core.say(reason(nick))]
        if seat is not None:
            self.core.seats.remove(seat)
        if index is None:  # a seat the person keeps in the game (an AI stands in) keeps its code
            self.core.codes.forget(self.core.network, self.core.channel, key)
        if not self.game.running and self.core.seats and all(s.is_bot for s in self.core.seats):
            # the last person left the lobby: the AIs they seated leave with them
            ais = ", ".join(s.nick for s in self.core.seats)
            self.core.seats.clear()
            out.append(
                self.core.say(_("Nobody is left to play with {ais}, so they leave too.").format(ais=ais))
            )
        if index is not None and self.core.players[index].has_person:
            out += self._seat_left(index)
        out += self._pass_host()
        self.core.save_lobby()
        return out + self.presence.check_presence()

    def disconnected(self, key: str, reason: Callable[[str], str]) -> list[Outgoing]:
        """A part or quit after its grace: the leave path, except in correspondence play.

        With a clock of an hour or more the player keeps their seat (and nobody
        plays it for them) while they are offline; they are told on return.
        """
        index = self.core.game_seat_of(key) if self.game.running else None
        if index is not None and self.core.players[index].has_person and self.clock.is_correspondence():
            self.presence.set_offline(key, True)
            return self.presence.check_presence()
        return self.remove(key, reason)

    def _seat_left(self, index: int) -> list[Outgoing]:
        """A person left game seat ``index``: skipped (``leavers=skip``) or played by an AI."""
        seat = self.core.players[index]
        last = not [i for i in self.presence.present_people() if i != index]
        if self.core.options.get("leavers") == "skip" and not last:  # the last one's seat waits for them
            skipped = self.game.skip_seat(index)
            if skipped is not None:
                return skipped
        level = self.clock.takeover_level()
        self.ai.hand_to_ai(index, level)
        out: list[Outgoing] = [
            self.core.say(
                _(
                    "An AI ({level}) now plays seat {n} for {nick}, with the same hand and score. "
                    "{nick} can take it back with /join here; anyone not seated can sit in with /join {n}."
                ).format(level=level_word(level), n=seat.number, nick=seat.nick)
            )
        ]
        return out

    def reset(self, actor: Actor, args: tuple[str, ...] = ()) -> list[Outgoing]:
        """``/reset [clear]``: end the game (seats stay; ``clear`` empties them too).

        Before the start the host may reset alone and an admin always; during a
        game the people seated may by agreement: it happens when every other
        person in the game has also said ``/reset`` within ``RESET_AGREEMENT``.
        """
        clear = bool(args) and args[0].lower() == "clear"
        key = actor.user.key
        if self.game.running and not actor.is_admin:
            index = self.core.game_seat_of(key)
            if index is None or not self.core.players[index].has_person:
                return [
                    self.core.tell(
                        actor.user.nick, _("Only the players or an admin can reset a running game.")
                    )
                ]
            return self._reset_request(actor, clear)
        if not self.game.running and not actor.is_admin and key != self.core.host:
            return [
                self.core.tell(
                    actor.user.nick,
                    _("Only {who} can reset this table.").format(
                        who=_("the host ({host}) or an admin").format(host=self.core.host_nick())
                    ),
                )
            ]
        return self._reset_now(_("reset by {nick}").format(nick=actor.user.nick), clear)

    def _reset_request(self, actor: Actor, clear: bool) -> list[Outgoing]:
        now = self.core.wall_clock()
        self.reset_requests = {k: t for k, t in self.reset_requests.items() if now - t <= RESET_AGREEMENT}
        self.reset_requests[actor.user.key] = now
        people = [s for s in self.core.players if s.has_person]
        missing = [s.nick for s in people if s.key not in self.reset_requests]
        if not missing:
            names = ", ".join(s.nick for s in people)
            return self._reset_now(_("reset by agreement of {names}").format(names=names), clear)
        return [
            self.core.say(
                ngettext(
                    "{nick} wants to reset the game. {names}: say /reset within {m} minute to agree.",
                    "{nick} wants to reset the game. {names}: say /reset within {m} minutes to agree.",
                    int(RESET_AGREEMENT // 60),
                ).format(nick=actor.user.nick, names=", ".join(missing), m=int(RESET_AGREEMENT // 60)),
                mentions=tuple(missing),  # asked to act: alerted where a network alerts only on a mention
            )
        ]

    def _reset_now(self, why: str, clear: bool) -> list[Outgoing]:
        out: list[Outgoing] = []
        self.reset_requests = {}
        if self.game.running:
            out += self.game.end_game("abandoned", why)
        if clear:
            self.core.seats.clear()
            self.core.codes.forget(self.core.network, self.core.channel)
            self.core.host = ""
        self.core.save_lobby()
        if clear or not self.core.seats:
            line = _("The table is reset: empty lobby for {game}. /join to sit down.").format(
                game=self.core.plugin.title
            )
        else:
            names = ", ".join(f"{s.number} {s.label}" for s in self.core.seats)
            line = _("The table is reset; everybody stays seated ({names}). /start deals a new game.").format(
                names=names
            )
        out.append(self.core.say(line))
        return out

    def person_spoke(self, key: str, actor: Actor) -> list[Outgoing]:
        """Anything said at the table by a player marked away brings them back to their seat."""
        index = self.core.game_seat_of(key) if self.game.running else None
        if index is None:
            return []
        if not self.core.players[index].away:
            return self.presence.person_returned(actor)
        return self.ai.take_back(index, actor)

    def back(self, actor: Actor) -> list[Outgoing]:
        """``/back``: a player the AI stood in for plays their seat again."""
        index = self.core.game_seat_of(actor.user.key) if self.game.running else None
        if index is None or self.core.players[index].ai is None:
            return [
                self.core.tell(
                    actor.user.nick, _("You are playing your seat already (or sit at no game here).")
                )
            ]
        return self.ai.take_back(index, actor)
