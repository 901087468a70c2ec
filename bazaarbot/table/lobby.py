"""The lobby: choosing the game, sitting down, getting up, the host, the one leave path, reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bazaarbot.i18n import _, ngettext
from bazaarbot.messages import Outgoing
from bazaarbot.table.ai_names import level_word
from bazaarbot.table.clock import Clock
from bazaarbot.table.options import TABLE_OPTIONS, option_said, option_typed
from bazaarbot.table.seats import Actor, Seat
from bazaarbot.text.digits import number as ascii_number
from bazaarbot.words.counts import players_label

#: seconds within which every person in a game must say /reset for it to happen
RESET_AGREEMENT = 120.0


class Lobby(Clock):
    """Seats, host, game and options; every way a person leaves the table goes through ``remove``."""

    def _pass_host(self) -> list[Outgoing]:
        """The host left: the first person still seated hosts (an AI never does)."""
        if self.seat_of(self.host) is not None:
            return []
        people = [s for s in self.seats if not s.is_bot]
        self.host = people[0].key if people else ""
        if people:
            return [self.say(_("{nick} is now the host.").format(nick=people[0].nick))]
        return []

    def new(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        nick = actor.user.nick
        if not args:
            return [
                self.tell(nick, _("Which game? /new <game>, for example /new jaipur. /games lists them."))
            ]
        name = args[0].lower()
        if name not in self.games:
            known = ", ".join(sorted(self.games))
            return [
                self.tell(
                    nick,
                    _("There is no game called {name}. Try one of: {known}.").format(name=name, known=known),
                )
            ]
        if self.running:
            return [
                self.tell(
                    nick,
                    _("A game of {game} is running here; it must end (or /reset) first.").format(
                        game=self.plugin.title
                    ),
                )
            ]
        if self.seats and actor.user.key != self.host and not actor.is_admin:
            return [
                self.tell(
                    nick,
                    _("Only the host ({host}) can change the game at this table.").format(
                        host=self.host_nick()
                    ),
                )
            ]
        plugin = self.games[name]
        too_many = self._too_many_for(plugin.max_players, joining=self.seat_of(actor.user.key) is None)
        if too_many:
            return [
                self.tell(
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
                        n=len(self.seats) + (self.seat_of(actor.user.key) is None),
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
                    self.tell(
                        nick,
                        _("Unknown option {arg!r}. {game} options: {listed}.").format(
                            arg=arg, game=plugin.title, listed=listed
                        ),
                    )
                ]
            try:
                options[option.name] = option.convert(raw)
            except ValueError as error:
                return [self.tell(nick, str(error))]
        self.game_name = name
        self.options = options
        out = [
            self.say(
                _("This table now plays {game} ({players}).").format(
                    game=plugin.title, players=players_label(plugin)
                )
                + "".join(" " + option_said(known_options[k], v) for k, v in options.items())
            )
        ]
        if self.seat_of(actor.user.key) is None:
            out += self.join(actor, ())
        else:
            self.save_lobby()
        return out

    def _too_many_for(self, most: int, joining: bool) -> list[Seat]:
        """The seats that would have to go for a game of at most ``most`` players (AIs named first)."""
        excess = len(self.seats) + joining - most
        if excess <= 0:
            return []
        beyond = sorted(self.seats, key=lambda seat: (not seat.is_bot, -seat.number))
        return sorted(beyond[:excess], key=lambda seat: seat.number)

    def join(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        user = actor.user
        if self.running:
            return self._join_running(actor, args)
        if self.seat_of(user.key) is not None:
            return [self.tell(user.nick, _("You already sit at this table; /start when everybody is here."))]
        plugin = self.plugin
        taken = {s.number for s in self.seats}
        if args:
            number = ascii_number(args[0])
            if number is None:
                return [
                    self.tell(
                        user.nick,
                        _("/join takes a seat number from 1 to {hi}, or nothing.").format(
                            hi=plugin.max_players
                        ),
                    )
                ]
            if not 1 <= number <= plugin.max_players:
                return [
                    self.tell(
                        user.nick,
                        _("{game} has seats 1 to {hi}.").format(game=plugin.title, hi=plugin.max_players),
                    )
                ]
            if number in taken:
                return [
                    self.tell(
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
                return self.table_full(user.nick)
            number = free[0]
        self.seats.append(Seat(number, user.key, user.nick))
        self.seats.sort(key=lambda s: s.number)
        if not self.host or self.seat_of(self.host) is None:
            self.host = user.key
        self.save_lobby()
        names = ", ".join(f"{s.number} {s.nick}" for s in self.seats)
        # a private line at once: the player knows where hands will arrive, and a network that
        # refuses private messages (caller-ID, registered-only) shows it now, not at the deal
        welcome_text = _(
            "You sit in seat {n} at {channel} ({game}). What only you may see "
            "(your hand, refused moves) comes here; /hand re-sends it."
        ).format(n=number, channel=self.channel, game=plugin.title)
        if user.mask and not user.account:
            welcome_text += " " + self._code_line(user.key)
        welcome = self.tell(user.nick, welcome_text, key=user.key)
        return [
            self.say(
                _("{nick} joins {game} in seat {n}. Seated: {names}. Host: {host}.").format(
                    nick=user.nick, game=plugin.title, n=number, names=names, host=self.host_nick()
                )
            ),
            welcome,
        ]

    def _join_running(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        """During a game: the former player takes their seat back, or someone sits in for an AI."""
        user = actor.user
        index = self.game_seat_of(user.key)
        if index is not None:
            if self.players[index].ai is not None:
                return self.take_back(index, actor)
            return [self.tell(user.nick, _("You are already playing here."))]
        open_seats = [s for s in self.players if s.ai is not None and not s.is_bot]
        wanted = ascii_number(args[0]) if args else None
        if wanted is not None:
            seat = next((s for s in open_seats if s.number == wanted), None)
            if seat is not None:
                return self.take_back(self.players.index(seat), actor)
        if open_seats:
            listed = ", ".join(f"{s.number} ({s.nick})" for s in open_seats)
            return [
                self.tell(
                    user.nick,
                    _(
                        "A game of {game} is running. An AI plays for someone who left: sit in with "
                        "/join <seat> (seats {seats})."
                    ).format(game=self.plugin.title, seats=listed),
                )
            ]
        return [
            self.tell(
                user.nick,
                _("A game of {game} is running here; wait for it to end.").format(game=self.plugin.title),
            )
        ]

    def leave(self, actor: Actor) -> list[Outgoing]:
        key = actor.user.key
        if self.seat_of(key) is None and (not self.running or self.game_seat_of(key) is None):
            return [self.tell(actor.user.nick, _("You do not sit at this table."))]
        return self.remove(key, lambda who: _("{nick} left the table.").format(nick=who))

    def kick(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        nick = actor.user.nick
        if not args:
            return [self.tell(nick, _("Whom? /kick <nick>"))]
        if actor.user.key != self.host and not actor.is_admin:
            return [
                self.tell(
                    nick, _("Only the host ({host}) or an admin can kick.").format(host=self.host_nick())
                )
            ]
        target = next((s for s in self.seats if s.nick.lower() == args[0].lower()), None)
        if target is None:
            return [self.tell(nick, _("{target} does not sit at this table.").format(target=args[0]))]
        if target.is_bot and self.running and self.game_seat_of(target.key) is not None:
            return [
                self.tell(
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
        seat = self.seat_of(key)
        index = self.game_seat_of(key) if self.running else None
        if seat is None and index is None:
            return []
        nick = seat.nick if seat is not None else self.players[index].nick  # type: ignore[index]
        out = [self.say(reason(nick))]
        if seat is not None:
            self.seats.remove(seat)
        if index is None:  # a seat the person keeps in the game (an AI stands in) keeps its code
            self.codes.forget(self.network, self.channel, key)
        if not self.running and self.seats and all(s.is_bot for s in self.seats):
            # the last person left the lobby: the AIs they seated leave with them
            ais = ", ".join(s.nick for s in self.seats)
            self.seats.clear()
            out.append(self.say(_("Nobody is left to play with {ais}, so they leave too.").format(ais=ais)))
        if index is not None and self.players[index].has_person:
            out += self._seat_left(index)
        out += self._pass_host()
        self.save_lobby()
        return out + self.check_presence()

    def disconnected(self, key: str, reason: Callable[[str], str]) -> list[Outgoing]:
        """A part or quit after its grace: the leave path, except in correspondence play.

        With a clock of an hour or more the player keeps their seat (and nobody
        plays it for them) while they are offline; they are told on return.
        """
        index = self.game_seat_of(key) if self.running else None
        if index is not None and self.players[index].has_person and self.is_correspondence():
            self.set_offline(key, True)
            return self.check_presence()
        return self.remove(key, reason)

    def _seat_left(self, index: int) -> list[Outgoing]:
        """A person left game seat ``index``: skipped (``leavers=skip``) or played by an AI."""
        seat = self.players[index]
        last = not [i for i in self.present_people() if i != index]
        if self.options.get("leavers") == "skip" and not last:  # the last one's seat waits for them
            skipped = self.skip_seat(index)
            if skipped is not None:
                return skipped
        level = self.takeover_level()
        self.hand_to_ai(index, level)
        out: list[Outgoing] = [
            self.say(
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
        if self.running and not actor.is_admin:
            index = self.game_seat_of(key)
            if index is None or not self.players[index].has_person:
                return [
                    self.tell(actor.user.nick, _("Only the players or an admin can reset a running game."))
                ]
            return self._reset_request(actor, clear)
        if not self.running and not actor.is_admin and key != self.host:
            return [
                self.tell(
                    actor.user.nick,
                    _("Only {who} can reset this table.").format(
                        who=_("the host ({host}) or an admin").format(host=self.host_nick())
                    ),
                )
            ]
        return self._reset_now(_("reset by {nick}").format(nick=actor.user.nick), clear)

    def _reset_request(self, actor: Actor, clear: bool) -> list[Outgoing]:
        now = self.wall_clock()
        self.reset_requests = {k: t for k, t in self.reset_requests.items() if now - t <= RESET_AGREEMENT}
        self.reset_requests[actor.user.key] = now
        people = [s for s in self.players if s.has_person]
        missing = [s.nick for s in people if s.key not in self.reset_requests]
        if not missing:
            names = ", ".join(s.nick for s in people)
            return self._reset_now(_("reset by agreement of {names}").format(names=names), clear)
        return [
            self.say(
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
        if self.running:
            out += self._end_game("abandoned", why)
        if clear:
            self.seats.clear()
            self.codes.forget(self.network, self.channel)
            self.host = ""
        self.save_lobby()
        if clear or not self.seats:
            line = _("The table is reset: empty lobby for {game}. /join to sit down.").format(
                game=self.plugin.title
            )
        else:
            names = ", ".join(f"{s.number} {s.label}" for s in self.seats)
            line = _("The table is reset; everybody stays seated ({names}). /start deals a new game.").format(
                names=names
            )
        out.append(self.say(line))
        return out

    def person_spoke(self, key: str, actor: Actor) -> list[Outgoing]:
        """Anything said at the table by a player marked away brings them back to their seat."""
        index = self.game_seat_of(key) if self.running else None
        if index is None:
            return []
        if not self.players[index].away:
            return self.person_returned(actor)
        return self.take_back(index, actor)

    def back(self, actor: Actor) -> list[Outgoing]:
        """``/back``: a player the AI stood in for plays their seat again."""
        index = self.game_seat_of(actor.user.key) if self.running else None
        if index is None or self.players[index].ai is None:
            return [
                self.tell(actor.user.nick, _("You are playing your seat already (or sit at no game here)."))
            ]
        return self.take_back(index, actor)

    def rename(self, old_key: str, new_key: str, nick: str) -> None:
        """A nick change: the seat (and the game seat) follow the player."""
        if old_key != new_key:
            self.codes.move(self.network, self.channel, old_key, new_key)
        for seat in self.seats:
            if seat.key == old_key:
                seat.key, seat.nick = new_key, nick
        if self.host == old_key:
            self.host = new_key
        for index, seat in enumerate(self.players):
            if seat.key == old_key or seat.key == new_key:
                seat.key, seat.nick = new_key, nick
                if self.state is not None and hasattr(self.state, "players"):
                    self.state.players[index] = nick
                if self.game_id is not None:
                    self.store.rename_player(self.game_id, index, nick, new_key)
        self.save_lobby()

    # --- a seat's owner at a new address ------------------------------------------------------
    def _sat_in_for(self, owner: str) -> int | None:
        """The game seat somebody sits in for ``owner``, who played it before."""
        return next((i for i, s in enumerate(self.players) if s.owner == owner and s.key != owner), None)

    def _unseat_sitter(self, index: int, owner_nick: str) -> list[Outgoing]:
        """The seat's owner takes it back from whoever sat in: they are told, and keep no seat here."""
        sitter = self.players[index]
        note = _("{nick} took seat {n} back with its code; you no longer play it.").format(
            nick=owner_nick, n=sitter.number
        )
        return [self.tell(sitter.nick, note, key=sitter.key)] if sitter.ai is None else []

    def _code_line(self, key: str) -> str:
        code = self.codes.issue(self.network, self.channel, key)
        return _(
            "If you come back from another address, tell me /claim {code} to take this seat back."
        ).format(code=code)

    def replace_code(self, key: str) -> list[Outgoing]:
        """The seat code of ``key`` was said in public: a new one, told to the seat's person privately."""
        seat = self.seat_of(key)
        index = self.game_seat_of(key) if self.running else None
        nick = seat.nick if seat is not None else self.players[index].nick if index is not None else None
        if nick is None:
            return []
        note = _("Your seat code for {channel} was said in a channel, so it no longer works.").format(
            channel=self.channel
        )
        return [self.tell(nick, note + " " + self._code_line(key), key=key)]

    def claim_seat(self, actor: Actor, code: str) -> tuple[list[Outgoing], str | None]:
        """Move the seat a one-time code was made for to the actor; (messages, the seat's old identity)."""
        user = actor.user
        owner = self.codes.owner(self.network, code)
        held = owner is not None and (
            self.seat_of(owner[1]) is not None
            or self.game_seat_of(owner[1]) is not None
            or self._sat_in_for(owner[1]) is not None
        )
        if owner is None or owner[0] != self.channel.lower() or not held:
            return [self.tell(user.nick, _("That code is not valid here (each code works once)."))], None
        old_key = owner[1]
        if old_key == user.key:
            return [self.tell(user.nick, _("That seat is yours already."))], None
        if self.seat_of(user.key) is not None or self.game_seat_of(user.key) is not None:
            return [
                self.tell(
                    user.nick,
                    _("You already sit at {channel}; /leave that seat first.").format(channel=self.channel),
                )
            ], None
        out: list[Outgoing] = []
        sat_in = self._sat_in_for(old_key)
        if sat_in is not None and self.game_seat_of(old_key) is None:
            out += self._unseat_sitter(sat_in, user.nick)
            old_key = self.players[sat_in].key
        seat = self.seat_of(old_key)
        index = self.game_seat_of(old_key)
        number = seat.number if seat is not None else self.players[index].number  # type: ignore[index]
        self.codes.forget(self.network, self.channel, owner[1])
        self.rename(old_key, user.key, user.nick)
        if index is not None:
            self.players[index].owner = None
        out.append(self.say(_("{nick} takes seat {n} back.").format(nick=user.nick, n=number)))
        note = _("Seat {n} at {channel} is yours again.").format(n=number, channel=self.channel)
        if user.mask and not user.account:
            note += " " + self._code_line(user.key)
        out.append(self.tell(user.nick, note, key=user.key))
        if index is not None and self.players[index].ai is not None:
            return out + self.take_back(index, actor), old_key  # the AI stood in: it steps aside
        if index is not None:
            view = self.view_of(index)
            if view:
                out.append(self.tell(user.nick, view, key=user.key))
        return out, old_key
