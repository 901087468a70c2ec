"""The running game: start, moves (on disk before any answer), the end, and replay after a restart."""

from __future__ import annotations

import logging
import random
from typing import Any

from bazaarbot.i18n import _
from bazaarbot.plugin import MoveError, Result
from bazaarbot.table.base import TableBase
from bazaarbot.table.seats import Actor, Seat
from bazaarbot.transports.base import Outgoing

log = logging.getLogger(__name__)


class RunningGame(TableBase):
    """Starting, playing, finishing and replaying a table's game."""

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
                out.append(self.tell(seat.nick, view))
        return out

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
            return [self.tell(nick, error.message)]
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
                out.append(self.tell(self.players[index].nick, line))
        for index, old in enumerate(before):
            new = plugin.private_view(self.state, index)
            if new and new != old:
                out.append(self.tell(self.players[index].nick, new))
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
        game_id = self.game_id
        out += self._end_game("finished", "", result)
        if self.after_game is not None and game_id is not None:
            out += [self.say(text) for text in self.after_game(game_id)]
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


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
