"""The lobby: choosing the game, sitting down, getting up, the host, the one leave path, reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bazaarbot.i18n import _
from bazaarbot.table.base import TableBase
from bazaarbot.table.seats import Actor, Seat
from bazaarbot.transports.base import Outgoing
from bazaarbot.wording import players_label


class Lobby(TableBase):
    """Seats, host, game and options; every way a person leaves the table goes through ``remove``."""

    def _pass_host(self) -> list[Outgoing]:
        if self.seat_of(self.host) is not None:
            return []
        self.host = self.seats[0].key if self.seats else ""
        if self.seats:
            return [self.say(_("{nick} is now the host.").format(nick=self.seats[0].nick))]
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
        options: dict[str, Any] = {}
        known_options = {o.name: o for o in plugin.options}
        for arg in args[1:]:
            key, eq, raw = arg.partition("=")
            option = known_options.get(key.lower())
            if not eq or option is None:
                listed = ", ".join(f"{o.name}={o.default}" for o in plugin.options) or _("none")
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
                _("This table now plays {game} ({players}){opts}.").format(
                    game=plugin.title,
                    players=players_label(plugin),
                    opts=(" " + ", ".join(f"{k}={v}" for k, v in options.items())) if options else "",
                )
            )
        ]
        if self.seat_of(actor.user.key) is None:
            out += self.join(actor, ())
        else:
            self.save_lobby()
        return out

    def join(self, actor: Actor, args: tuple[str, ...]) -> list[Outgoing]:
        user = actor.user
        if self.running:
            if self.game_seat_of(user.key) is not None:
                return [self.tell(user.nick, _("You are already playing here."))]
            return [
                self.tell(
                    user.nick,
                    _("A game of {game} is running here; wait for it to end.").format(game=self.plugin.title),
                )
            ]
        if self.seat_of(user.key) is not None:
            return [self.tell(user.nick, _("You already sit at this table; /start when everybody is here."))]
        plugin = self.plugin
        taken = {s.number for s in self.seats}
        if args:
            try:
                number = int(args[0])
            except ValueError:
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
                return [
                    self.tell(
                        user.nick,
                        _("The table is full ({hi} players for {game}).").format(
                            hi=plugin.max_players, game=plugin.title
                        ),
                    )
                ]
            number = free[0]
        self.seats.append(Seat(number, user.key, user.nick))
        self.seats.sort(key=lambda s: s.number)
        if not self.host or self.seat_of(self.host) is None:
            self.host = user.key
        self.save_lobby()
        names = ", ".join(f"{s.number} {s.nick}" for s in self.seats)
        # a private line at once: the player knows where hands will arrive, and a network that
        # refuses private messages (caller-ID, registered-only) shows it now, not at the deal
        welcome = self.tell(
            user.nick,
            _(
                "You sit in seat {n} at {channel} ({game}). What only you may see "
                "(your hand, refused moves) comes here; /hand re-sends it."
            ).format(n=number, channel=self.channel, game=plugin.title),
        )
        return [
            self.say(
                _("{nick} joins {game} in seat {n}. Seated: {names}. Host: {host}.").format(
                    nick=user.nick, game=plugin.title, n=number, names=names, host=self.host_nick()
                )
            ),
            welcome,
        ]

    def leave(self, actor: Actor) -> list[Outgoing]:
        if self.seat_of(actor.user.key) is None:
            return [self.tell(actor.user.nick, _("You do not sit at this table."))]
        return self.remove(actor.user.key, lambda who: _("{nick} left the table.").format(nick=who))

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
        return self.remove(
            target.key, lambda who: _("{nick} was removed from the table by {by}.").format(nick=who, by=nick)
        )

    def remove(self, key: str, reason: Callable[[str], str]) -> list[Outgoing]:
        """The one leave path (leave, kick, disconnect), correct whoever's turn it is."""
        seat = self.seat_of(key)
        if seat is None:
            return []
        out = [self.say(reason(seat.nick))]
        if self.running:
            out += self._end_game("abandoned", _("{nick} left").format(nick=seat.nick))
        self.seats.remove(seat)
        out += self._pass_host()
        self.save_lobby()
        return out

    def reset(self, actor: Actor) -> list[Outgoing]:
        allowed = actor.is_admin or (not self.running and actor.user.key == self.host)
        if not allowed:
            who = (
                _("an admin")
                if self.running
                else _("the host ({host}) or an admin").format(host=self.host_nick())
            )
            return [self.tell(actor.user.nick, _("Only {who} can reset this table.").format(who=who))]
        out: list[Outgoing] = []
        if self.running:
            out += self._end_game("abandoned", _("reset by {nick}").format(nick=actor.user.nick))
        self.seats.clear()
        self.host = ""
        self.save_lobby()
        out.append(
            self.say(
                _("The table is reset: empty lobby for {game}. /join to sit down.").format(
                    game=self.plugin.title
                )
            )
        )
        return out

    def rename(self, old_key: str, new_key: str, nick: str) -> None:
        """A nick change: the seat (and the game seat) follow the player."""
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
