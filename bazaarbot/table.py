"""One channel's table: the lobby, the running game, and the single leave path.

A table turns a command or a move into the messages to send. It asks the
plugin to parse and apply a move and writes the accepted command to the
store before it returns anything, so nothing is said about a move that is
not on disk.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bazaarbot.i18n import _
from bazaarbot.plugin import GamePlugin, MoveError, Result
from bazaarbot.seatcodes import SeatCodes
from bazaarbot.store import SeatRow, Store
from bazaarbot.transports.base import Outgoing, Say, Tell, User

log = logging.getLogger(__name__)


@dataclass
class Seat:
    """A place at the table: the identity it is bound to and the nick shown."""

    number: int
    key: str
    nick: str


@dataclass(frozen=True)
class Actor:
    """Who sent a line, and whether they hold admin rights for this table."""

    user: User
    is_admin: bool


class Table:
    """The lobby and game of one (network, channel)."""

    def __init__(
        self,
        store: Store,
        games: dict[str, GamePlugin],
        table_id: int | None,
        network: str,
        channel: str,
        game: str,
        options: dict[str, Any] | None = None,
        host: str = "",
        seats: list[Seat] | None = None,
        colors: bool = False,
        base_seed: int | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.id = table_id
        self.network = network
        self.channel = channel
        self.game_name = game
        self.options: dict[str, Any] = dict(options or {})
        self.host = host
        self.seats: list[Seat] = sorted(seats or [], key=lambda s: s.number)
        self.colors = colors
        self.base_seed = base_seed
        self.state: Any = None
        self.game_id: int | None = None
        self.moves_made = 0
        #: seat index in the running game -> Seat
        self.players: list[Seat] = []
        self.codes = SeatCodes(store.db.conn)

    # --- small helpers ------------------------------------------------------------
    @property
    def plugin(self) -> GamePlugin:
        return self.games[self.game_name]

    @property
    def running(self) -> bool:
        return self.state is not None

    def say(self, text: str) -> Say:
        return Say(self.network, self.channel, text, colors=self.colors)

    def tell(self, nick: str, text: str, key: str | None = None) -> Tell:
        """A private line; with ``key`` only for that identity (never for whoever took the nick)."""
        return Tell(self.network, nick, text, key=key)

    def seat_of(self, key: str) -> Seat | None:
        return next((s for s in self.seats if s.key == key), None)

    def game_seat_of(self, key: str) -> int | None:
        return next((i for i, s in enumerate(self.players) if s.key == key), None)

    def host_nick(self) -> str:
        seat = self.seat_of(self.host)
        return seat.nick if seat else "-"

    def ensure_saved(self) -> int:
        """The table's row id, creating the row on the first change (a look is no change)."""
        if self.id is None:
            self.id = self.store.ensure_table(self.network, self.channel, self.game_name)
        return self.id

    def save_lobby(self) -> None:
        self.store.save_lobby(
            self.ensure_saved(),
            self.game_name,
            self.options,
            self.host,
            [SeatRow(s.number, s.key, s.nick) for s in self.seats],
            self.colors,
        )

    def _pass_host(self) -> list[Outgoing]:
        if self.seat_of(self.host) is not None:
            return []
        self.host = self.seats[0].key if self.seats else ""
        if self.seats:
            return [self.say(_("{nick} is now the host.").format(nick=self.seats[0].nick))]
        return []

    # --- lobby commands -------------------------------------------------------------
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
                _("This table now plays {game} ({lo}-{hi} players){opts}.").format(
                    game=plugin.title,
                    lo=plugin.min_players,
                    hi=plugin.max_players,
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
        welcome_text = _(
            "You sit in seat {n} at {channel} ({game}). What only you may see "
            "(your hand, refused moves) comes here; /hand re-sends it."
        ).format(n=number, channel=self.channel, game=plugin.title)
        if user.mask and not user.account:
            welcome_text += " " + self._code_line(user.key)
        welcome = self.tell(user.nick, welcome_text, user.key)
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
        self.codes.forget(self.network, self.channel, key)
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
        self.codes.forget(self.network, self.channel)
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

    def start(self, actor: Actor) -> list[Outgoing]:
        nick = actor.user.nick
        if self.running:
            return [self.tell(nick, _("A game of {game} is already running.").format(game=self.plugin.title))]
        if self.seat_of(actor.user.key) is None and not actor.is_admin:
            return [self.tell(nick, _("Only a seated player can start; /join first."))]
        if actor.user.key != self.host and not actor.is_admin:
            return [
                self.tell(nick, _("Only the host ({host}) can start the game.").format(host=self.host_nick()))
            ]
        plugin = self.plugin
        count = len(self.seats)
        if count < plugin.min_players:
            return [
                self.say(
                    _("{game} needs at least {lo} players; {n} seated. /join to sit down.").format(
                        game=plugin.title, lo=plugin.min_players, n=count
                    )
                )
            ]
        if count > plugin.max_players:
            return [
                self.say(
                    _("{game} takes at most {hi} players; {n} seated.").format(
                        game=plugin.title, hi=plugin.max_players, n=count
                    )
                )
            ]
        number = self.store.next_game_number()
        if self.base_seed is None:
            seed = random.SystemRandom().randrange(2**62)
        else:
            seed = random.Random(f"{self.base_seed}:{number}").randrange(2**62)
        defaults = {o.name: o.default for o in plugin.options}
        options = {**defaults, **self.options}
        self.players = list(self.seats)
        self.state = plugin.setup([s.nick for s in self.players], random.Random(seed), options)
        self.game_id = self.store.start_game(
            self.ensure_saved(),
            self.network,
            self.channel,
            plugin.name,
            plugin.rules_version,
            seed,
            options,
            [{"key": s.key, "nick": s.nick} for s in self.players],
        )
        self.moves_made = 0
        names = _(" vs ").join(s.nick for s in self.players)
        out: list[Outgoing] = [
            self.say(_("{game} starts: {names}.").format(game=plugin.title, names=names)),
            self.say(plugin.board(self.state)),
        ]
        for index, seat in enumerate(self.players):
            view = plugin.private_view(self.state, index)
            if view:
                out.append(self.tell(seat.nick, view, seat.key))
        return out

    # --- game --------------------------------------------------------------------------
    def move(self, actor: Actor, text: str) -> list[Outgoing]:
        """A seated player's move; refused lines change nothing."""
        nick = actor.user.nick
        seat = self.game_seat_of(actor.user.key)
        if not self.running or seat is None:
            return [self.tell(nick, _("You are not playing a game at this table."))]
        plugin = self.plugin
        to_act = plugin.to_act(self.state)
        if seat not in to_act:
            waiting = ", ".join(self.players[s].nick for s in to_act)
            return [self.tell(nick, _("It is not your turn; waiting for {who}.").format(who=waiting))]
        before = [plugin.private_view(self.state, i) for i in range(len(self.players))]
        try:
            move = plugin.parse(self.state, seat, text)
            outcome = plugin.apply(self.state, seat, move)
        except MoveError as error:
            return [self.tell(nick, error.message, actor.user.key)]
        except Exception:
            log.exception("game %s: move %r by seat %s failed", self.game_id, text, seat)
            self._reload()
            return [
                self.tell(
                    nick, _("Sorry, that move could not be played (an error in the game); nothing changed.")
                )
            ]
        try:
            assert self.game_id is not None
            self.store.append_move(self.game_id, self.moves_made, seat, actor.user.key, text)
        except Exception:
            log.exception("game %s: could not record a move", self.game_id)
            self._reload()
            return [self.tell(nick, _("Sorry, that move could not be saved; nothing changed. Try again."))]
        self.moves_made += 1
        out: list[Outgoing] = [self.say(line) for line in outcome.public]
        for index, lines in outcome.private.items():
            for line in lines:
                out.append(self.tell(self.players[index].nick, line, self.players[index].key))
        for index, old in enumerate(before):
            new = plugin.private_view(self.state, index)
            if new and new != old:
                out.append(self.tell(self.players[index].nick, new, self.players[index].key))
        result = plugin.result(self.state)
        if result is not None:
            out += self._finish(result)
        return out

    def _finish(self, result: Result) -> list[Outgoing]:
        winners = ", ".join(self.players[i].nick for i in result.winners)
        scores = ", ".join(
            f"{self.players[i].nick} {_fmt(result.scores.get(i, 0))}" for i in range(len(self.players))
        )
        line = _("Game over: {winners} {verb}! Scores: {scores}.").format(
            winners=winners, verb=_("win") if len(result.winners) > 1 else _("wins"), scores=scores
        )
        if result.detail:
            line += " " + result.detail
        out = [self.say(line)]
        out += self._end_game("finished", "", result)
        out.append(self.say(_("Everybody stays seated: /start for a rematch, /leave to get up.")))
        return out

    def _end_game(self, status: str, note: str, result: Result | None = None) -> list[Outgoing]:
        rows = []
        rank_of: dict[int, int] = {}
        if result is not None:
            for rank, group in enumerate(result.ranking, start=1):
                for index in group:
                    rank_of[index] = rank
        for index, seat in enumerate(self.players):
            rows.append(
                {
                    "seat": index,
                    "user_key": seat.key,
                    "nick": seat.nick,
                    "score": float(result.scores.get(index, 0)) if result else 0.0,
                    "rank": rank_of.get(index, 0),
                    "winner": int(bool(result and index in result.winners)),
                }
            )
        data = None
        if result is not None:
            data = {
                "scores": {str(k): v for k, v in result.scores.items()},
                "ranking": result.ranking,
                "winners": result.winners,
                "detail": result.detail,
            }
        out: list[Outgoing] = []
        if self.game_id is not None:
            self.store.finish_game(self.game_id, status, data, rows, note)
        if status == "abandoned":
            out.append(
                self.say(
                    _("The game of {game} is abandoned ({why}).").format(game=self.plugin.title, why=note)
                )
            )
        self.state = None
        self.game_id = None
        self.players = []
        self.moves_made = 0
        return out

    def _reload(self) -> None:
        """Rebuild the running game from the store after a failure left memory in doubt."""
        row = self.store.running_game(self.ensure_saved())
        if row is None:
            self.state = None
            return
        self.restore_game(row.id, row.plugin, row.seed, row.options, row.players)

    def restore_game(
        self,
        game_id: int,
        plugin_name: str,
        seed: int,
        options: dict[str, Any],
        players: list[dict[str, str]],
    ) -> None:
        """Replay a game from its log: setup with its seed, then every accepted command in order."""
        plugin = self.games[plugin_name]
        self.game_name = plugin_name
        self.players = [Seat(i + 1, p["key"], p["nick"]) for i, p in enumerate(players)]
        state = plugin.setup([p["nick"] for p in players], random.Random(seed), options)
        moves = self.store.moves(game_id)
        for record in moves:
            plugin.apply(state, record["seat"], plugin.parse(state, record["seat"], record["text"]))
        self.state = state
        self.game_id = game_id
        self.moves_made = len(moves)

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
    def _code_line(self, key: str) -> str:
        code = self.codes.issue(self.network, self.channel, key)
        return _(
            "If you come back from another address, tell me /claim {code} to take this seat back."
        ).format(code=code)

    def _claim_hint(self, user: User) -> str:
        """For somebody under a seated nick but from another address: how the real owner gets back in."""
        if not any(s.nick.lower() == user.nick.lower() and s.key != user.key for s in self.seats):
            return ""
        return " " + _(
            "A seat here is held by {nick} from another address; if it is yours, /claim <code> "
            "with the code I told you at /join."
        ).format(nick=user.nick)

    def claim_seat(self, actor: Actor, code: str) -> tuple[list[Outgoing], str | None]:
        """Move the seat a one-time code was made for to the actor; (messages, the seat's old identity)."""
        user = actor.user
        owner = self.codes.owner(self.network, code)
        if owner is None or owner[0] != self.channel.lower() or self.seat_of(owner[1]) is None:
            return [self.tell(user.nick, _("That code is not valid here (each code works once)."))], None
        old_key = owner[1]
        if old_key == user.key:
            return [self.tell(user.nick, _("That seat is yours already."))], None
        if self.seat_of(user.key) is not None:
            return [
                self.tell(
                    user.nick,
                    _("You already sit at {channel}; /leave that seat first.").format(channel=self.channel),
                )
            ], None
        seat = self.seat_of(old_key)
        assert seat is not None
        self.codes.forget(self.network, self.channel, old_key)
        self.rename(old_key, user.key, user.nick)
        out: list[Outgoing] = [
            self.say(_("{nick} takes seat {n} back.").format(nick=user.nick, n=seat.number))
        ]
        note = _("Seat {n} at {channel} is yours again.").format(n=seat.number, channel=self.channel)
        if user.mask and not user.account:
            note += " " + self._code_line(user.key)
        out.append(self.tell(user.nick, note, user.key))
        index = self.game_seat_of(user.key)
        if index is not None:
            view = self.plugin.private_view(self.state, index)
            if view:
                out.append(self.tell(user.nick, view, user.key))
        return out, old_key

    # --- views ---------------------------------------------------------------------------
    def status(self) -> str:
        plugin = self.plugin
        if self.running:
            to_act = ", ".join(self.players[s].nick for s in plugin.to_act(self.state))
            names = _(" vs ").join(s.nick for s in self.players)
            return _("{game} running: {names}. To act: {who}.").format(
                game=plugin.title, names=names, who=to_act or "-"
            )
        if not self.seats:
            return _("{game} table, nobody seated ({lo}-{hi} players). /join to sit down.").format(
                game=plugin.title, lo=plugin.min_players, hi=plugin.max_players
            )
        names = ", ".join(f"{s.number} {s.nick}" for s in self.seats)
        return _("{game} lobby ({lo}-{hi} players). Seated: {names}. Host: {host}. /start to begin.").format(
            game=plugin.title,
            lo=plugin.min_players,
            hi=plugin.max_players,
            names=names,
            host=self.host_nick(),
        )

    def board(self) -> str:
        if not self.running:
            return _("No game is running here. {status}").format(status=self.status())
        return self.plugin.board(self.state)

    def hand(self, actor: Actor) -> list[Outgoing]:
        seat = self.game_seat_of(actor.user.key)
        if not self.running or seat is None:
            return [
                self.tell(
                    actor.user.nick,
                    _("You are not playing a game at this table.") + self._claim_hint(actor.user),
                )
            ]
        view = self.plugin.private_view(self.state, seat)
        return [
            self.tell(
                actor.user.nick,
                view
                or _("You hold nothing secret in {game}; /board shows it all.").format(
                    game=self.plugin.title
                ),
                actor.user.key,
            )
        ]

    def moves(self, actor: Actor, full: bool) -> list[Outgoing]:
        nick = actor.user.nick
        seat = self.game_seat_of(actor.user.key)
        if not self.running or seat is None:
            return [self.tell(nick, _("You are not playing a game at this table."))]
        if seat not in self.plugin.to_act(self.state):
            return [self.tell(nick, "(no moves)")]
        key = actor.user.key
        if full:
            commands = self.plugin.legal_commands(self.state, seat)
            return [self.tell(nick, "\n".join(commands) if commands else "(no moves)", key)]
        return [self.tell(nick, self.plugin.brief_moves(self.state, seat), key)]


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
