"""The running game: start, moves (on disk before any answer), undo, the end, and replay after a restart."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bazaarbot.i18n import _, current_language, language, ngettext
from bazaarbot.i18n.catalogue import catalogue_generation
from bazaarbot.messages import Outgoing
from bazaarbot.plugin import MoveError, Outcome, Result
from bazaarbot.table.core import TableCore
from bazaarbot.table.gamelog import PlayedMove
from bazaarbot.table.ports import GameNeeds
from bazaarbot.table.readers import for_readers
from bazaarbot.table.seats import SKIPPED, Actor, Seat
from bazaarbot.table.steps import SKIP_RECORD, UNDO_RECORD, taken_back
from bazaarbot.words.counts import number

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class UndoPoint:
    """The step that may still be taken back: who played it, its text, the state before it."""

    seat: int
    text: str
    snapshot: dict[str, Any]
    #: the number of logged commands right after the step (any later command closes the chance)
    moves_made: int


class RunningGame:
    """Starting, playing, finishing and replaying a table's game; its state and its seats' views."""

    def __init__(self, core: TableCore, table: GameNeeds) -> None:
        self.core = core
        self.table = table
        self.state: Any = None
        self.game_id: int | None = None
        self.moves_made = 0
        #: per game seat and language, its private view as last built and what it was built from
        self._seat_views: dict[tuple[int, str | None], tuple[tuple[object, ...], str | None]] = {}
        #: per game seat, its legal commands as last listed and the step of the game they are for
        self._seat_commands: dict[int, tuple[tuple[object, ...], list[str]]] = {}
        #: per (seat, language), its legal commands as it types them there (``typed_now``)
        self._seat_typed: dict[tuple[int, str], tuple[tuple[object, ...], dict[str, str]]] = {}
        #: the last move ``play`` recorded, as the game log shows it (``gamelog.PlayedMove``)
        self.last_played: PlayedMove | None = None
        #: the game that ended here last: (game id, status, moves made), for its log
        self.ended_game: tuple[int, str, int] | None = None
        #: the state that game ended in (a finished one's), which its log takes as its last state
        self.ended_state: Any = None
        #: the last step that may still be taken back with /undo (see ``undo``)
        self.undo_point: UndoPoint | None = None
        #: the running game's seed (the AI's random numbers derive from it)
        self.game_seed = 0
        #: the running game's options, as it was set up with them
        self.game_options: dict[str, Any] = {}
        #: the game seats that made a step of the running game (its person, or the AI for them)
        self.moved: set[int] = set()
        #: why a stored game cannot go on under the installed rules (the table waits for /reset)
        self.paused: str | None = None

    @property
    def running(self) -> bool:
        return self.state is not None

    def view_of(self, index: int) -> str | None:
        """Game seat ``index``'s private view, built in its owner's language (``view_in``)."""
        seat = self.core.players[index]
        return self.view_in(index, self.core.language_of(seat.key) if seat.ai is None else None)

    def view_in(self, index: int, lang: str | None) -> str | None:
        """Game seat ``index``'s private view in ``lang`` (None: the language current now).

        A move compares every seat's view before and after it, and a transport compares a private
        line with the hands it could be, so a view is kept with what it was built from: the state
        (replaced on a reload or an undo, changed in place only by a recorded step, which counts in
        ``moves_made``), the players' names in it and the language. The next move's "before" is
        then this one's "after", built once.
        """
        names = getattr(self.state, "players", None)
        built_from = (id(self.state), self.game_id, self.moves_made, tuple(names or ()))
        kept = self._seat_views.get((index, lang))
        if kept is not None and kept[0] == built_from:
            return kept[1]
        with language(lang):
            view = self.core.plugin.private_view(self.state, index)
        self._seat_views[(index, lang)] = (built_from, view)
        return view

    def legal_now(self, index: int) -> list[str]:
        """Game seat ``index``'s legal commands (as the rules spell them; none while the game waits
        for another seat), listed once per step of the game: a view, the page's ``moves`` request
        and ``/moves`` share them. Not to be changed."""
        built_from = (id(self.state), self.game_id, self.moves_made)
        kept = self._seat_commands.get(index)
        if kept is not None and kept[0] == built_from:
            return kept[1]
        plugin = self.core.plugin
        acts = index in plugin.to_act(self.state)
        legal = plugin.legal_commands(self.state, index) if acts else []
        self._seat_commands[index] = (built_from, legal)
        return legal

    def typed_now(self, index: int) -> dict[str, str]:
        """Game seat ``index``'s legal commands (``legal_now``, in their order), each as its reader
        types it in the language lines are built in now: ``/moves all``, a view's buttons and the
        page's ``moves`` request read them at every step, so they are spelled once per step and
        language. Not to be changed."""
        lang = current_language()
        built_from = (id(self.state), self.game_id, self.moves_made, catalogue_generation())
        kept = self._seat_typed.get((index, lang))
        if kept is not None and kept[0] == built_from:
            return kept[1]
        plugin, state = self.core.plugin, self.state
        typed = {command: plugin.command_in(state, index, command, lang) for command in self.legal_now(index)}
        self._seat_typed[(index, lang)] = (built_from, typed)
        return typed

    def rename_in_game(self, index: int, name: str) -> None:
        """The name game seat ``index`` is shown under in the game's state."""
        if self.state is not None and hasattr(self.state, "players"):
            self.state.players[index] = name

    def save_players(self) -> None:
        """Store who holds each game seat now (person or AI), so a restart keeps it."""
        if self.game_id is not None:
            self.core.store.set_players(self.game_id, [s.record() for s in self.core.players])

    def start(self, actor: Actor) -> list[Outgoing]:
        nick = actor.user.nick
        if self.running:
            return [
                self.core.tell(
                    nick, _("A game of {game} is already running.").format(game=self.core.plugin.title)
                )
            ]
        if self.core.seat_of(actor.user.key) is None and not actor.is_admin:
            return [self.core.tell(nick, _("Only a seated player can start; /join first."))]
        if actor.user.key != self.core.host and not actor.is_admin:
            return [
                self.core.tell(
                    nick, _("Only the host ({host}) can start the game.").format(host=self.core.host_nick())
                )
            ]
        plugin = self.core.plugin
        count = len(self.core.seats)
        if all(s.is_bot for s in self.core.seats):
            return [self.core.tell(nick, _("A game needs at least one person; /join first."))]
        if count < plugin.min_players:
            return [
                self.core.say(
                    ngettext(
                        "{game} needs at least {lo} player; {n} seated. /join to sit down.",
                        "{game} needs at least {lo} players; {n} seated. /join to sit down.",
                        plugin.min_players,
                    ).format(game=plugin.title, lo=plugin.min_players, n=count)
                )
            ]
        if count > plugin.max_players:
            return [
                self.core.say(
                    ngettext(
                        "{game} takes at most {hi} player; {n} seated.",
                        "{game} takes at most {hi} players; {n} seated.",
                        plugin.max_players,
                    ).format(game=plugin.title, hi=plugin.max_players, n=count)
                )
            ]
        number = self.core.store.next_game_number()
        if self.core.base_seed is None:
            seed = random.SystemRandom().randrange(2**62)
        else:
            seed = random.Random(f"{self.core.base_seed}:{number}").randrange(2**62)
        defaults = {o.name: o.default for o in plugin.options}
        options = {**defaults, **self.core.options}
        self.core.players = [replace(s, ai=s.bot_level, away=False) for s in self.core.seats]
        self.table.game_began()
        self.game_seed = seed
        self.game_options = options
        self.moved = set()
        # an AI's name as each reader reads it (``KI:schwer``); a person's nick as it is
        self.state = plugin.setup([s.label for s in self.core.players], random.Random(seed), options)
        self.game_id = self.core.store.start_game(
            self.core.ensure_saved(),
            self.core.network,
            self.core.channel,
            plugin.name,
            plugin.rules_version,
            seed,
            options,
            [s.record() for s in self.core.players],
        )
        self.moves_made = 0
        self.core.notify()
        names = _(" vs ").join(s.label for s in self.core.players)
        # three channel lines at most: who plays, the board in brief, whose turn (the rest is /board)
        started = _("{game} starts: {names}.").format(game=plugin.title, names=names)
        out: list[Outgoing] = [
            self.core.say(
                started + " " + _("/board shows the whole table."), mentions=self.core.people_nicks()
            ),
            replace(self.core.say(self._brief_for_readers()), brief=True),
        ]
        for index in range(len(self.core.players)):
            view = self.view_of(index)
            if view:
                out += self.core.tell_seat(index, view)
        return out

    def move(self, actor: Actor, text: str) -> list[Outgoing]:
        """A seated player's move; refused lines change nothing."""
        nick = actor.user.nick
        seat = self.core.game_seat_of(actor.user.key)
        if not self.running or seat is None:
            return [self.core.tell(nick, _("You are not playing a game at this table."))]
        back: list[Outgoing] = []
        if self.core.players[seat].ai is not None:  # playing a move is the simplest way back to one's seat
            back = self.table.take_back(seat, actor)
        to_act = self.core.plugin.to_act(self.state)
        if seat not in to_act:
            waiting = ", ".join(self.core.players[s].label for s in to_act)
            return back + [
                self.core.tell(nick, _("It is not your turn; waiting for {who}.").format(who=waiting))
            ]
        self.table.answered(seat)
        return back + self.play(seat, actor.user.key, text, nick)

    def play(
        self, seat: int, author: str, text: str, answer_to: str, ai_turn: bool = False
    ) -> list[Outgoing]:
        """Play ``text`` for ``seat`` (a person's or an AI's command): record it, then say what happened.

        ``author`` is the identity written to the move log; a refusal is told to ``answer_to``;
        ``ai_turn``: the game's lines tell of an AI's turn (``Say.ai_turn``; the end of a game is
        said on lines of its own).
        """
        plugin = self.core.plugin
        before = [self.view_of(i) for i in range(len(self.core.players))]
        readers = self.core.reader_languages()
        # the game before the move, where readers of other languages need its lines built again
        unmoved = plugin.clone(self.state) if readers - {current_language()} else None
        try:
            move = plugin.parse(self.state, seat, text)
            snapshot = plugin.to_json(self.state) if plugin.undoable(self.state, seat, move) else None
            outcome = plugin.apply(self.state, seat, move)
        except MoveError as error:
            owner = self.core.players[seat]
            return [self.core.tell(answer_to, error.message, key=owner.key if owner.has_person else None)]
        except Exception:
            log.exception("game %s: move %r by seat %s failed", self.game_id, text, seat)
            self.reload()
            return [
                self.core.tell(
                    answer_to,
                    _("Sorry, that move could not be played (an error in the game); nothing changed."),
                )
            ]
        if not self._record(seat, author, text, answer_to):
            return [
                self.core.tell(
                    answer_to, _("Sorry, that move could not be saved; nothing changed. Try again.")
                )
            ]
        assert self.game_id is not None
        self.last_played = PlayedMove(self.game_id, self.moves_made - 1, seat, text, list(outcome.public))
        self.undo_point = None
        if snapshot is not None and seat in plugin.to_act(self.state) and plugin.result(self.state) is None:
            self.undo_point = UndoPoint(seat, text, snapshot, self.moves_made)
        to_act = plugin.to_act(self.state)
        # a prompt is for people: when only AIs are to act, nobody reads whose turn it is or how to type it
        prompted = any(self.core.players[i].has_person for i in to_act)
        public = outcome.public if prompted else outcome.without_prompt()
        if unmoved is not None:
            again = self._outcomes_again(unmoved, seat, text)
            public = for_readers(public, readers, lambda: _lines(again(), prompted))
            # the game log takes the move as the table played it: its lines in every reader's words too
            logged = for_readers(list(outcome.public), readers, lambda: _lines(again(), True))
            self.last_played = self.last_played._replace(lines=logged)
        out: list[Outgoing] = [self.core.say(line, ai_turn=ai_turn) for line in public]
        if out and plugin.result(self.state) is None:
            # a game's last public line says whose turn it is: it alerts the people now to act,
            # not the one still playing their own turn
            waiting = [i for i in to_act if i != seat]
            if waiting:
                out[-1] = self.core.say(public[-1], mentions=self.core.people_nicks(waiting), ai_turn=ai_turn)
        for index, lines in outcome.private.items():
            for line in lines:
                out += self.core.tell_seat(index, line)
        out += self._changed_views(before)
        result = plugin.result(self.state)
        if result is not None:
            out += self._finish(result)
        return out

    def _brief_for_readers(self) -> str:
        """The board in brief, in each language the channel's lines are read in."""
        plugin = self.core.plugin
        brief = plugin.brief_board(self.state)
        return for_readers([brief], self.core.reader_languages(), lambda: [plugin.brief_board(self.state)])[0]

    def _outcomes_again(self, unmoved: Any, seat: int, text: str) -> Callable[[], Outcome | None]:
        """What ``text`` did, played once more on a copy of the game before it in the language
        current when asked (the rules are deterministic: the same lines, in other words), played
        once per language; None when it failed."""
        plugin = self.core.plugin
        played: dict[str, Outcome | None] = {}

        def again() -> Outcome | None:
            lang = current_language()
            if lang not in played:
                try:
                    state = plugin.clone(unmoved)
                    played[lang] = plugin.apply(state, seat, plugin.parse(state, seat, text))
                except Exception:
                    log.exception("game %s: move %r said again in %s failed", self.game_id, text, lang)
                    played[lang] = None
            return played[lang]

        return again

    def _record(self, seat: int, author: str, text: str, answer_to: str) -> bool:
        """Append one accepted command to the move log; on failure memory is rebuilt from the store."""
        try:
            assert self.game_id is not None
            self.core.store.append_move(self.game_id, self.moves_made, seat, author, text)
        except Exception:
            log.exception("game %s: could not record a move", self.game_id)
            self.reload()
            return False
        self.moves_made += 1
        self.moved.add(seat)
        self.core.notify()
        return True

    def _changed_views(self, before: list[str | None]) -> list[Outgoing]:
        """Every seat's private view that differs from ``before``, to its owner."""
        out: list[Outgoing] = []
        for index, old in enumerate(before):
            new = self.view_of(index)
            if new and new != old:
                out += self.core.tell_seat(index, new, hand=True)
        return out

    def undo(self, actor: Actor) -> list[Outgoing]:
        """Take back the speaker's own last step of this turn, when that step revealed nothing."""
        nick = actor.user.nick
        seat = self.core.game_seat_of(actor.user.key)
        if not self.running or seat is None:
            return [self.core.tell(nick, _("You are not playing a game at this table."))]
        point = self.undo_point
        if point is None or point.seat != seat or point.moves_made != self.moves_made:
            return [
                self.core.tell(
                    nick,
                    _(
                        "Nothing to undo: only your own last step of this turn can be taken back, "
                        "and only when it revealed nothing (no card drawn, no die rolled)."
                    ),
                )
            ]
        before = [self.view_of(i) for i in range(len(self.core.players))]
        if not self._record(seat, actor.user.key, UNDO_RECORD, nick):
            return [self.core.tell(nick, _("Sorry, that could not be saved; nothing changed. Try again."))]
        self.state = self._restored_state(point.snapshot)
        self.undo_point = None
        out: list[Outgoing] = [
            self.core.say(taken_back(self.core.players[seat].nick, point.text)),
            self.core.say(self.core.plugin.board(self.state)),
        ]
        return out + self._changed_views(before)

    def skip_seat(self, index: int) -> list[Outgoing] | None:
        """Take game seat ``index`` out of the game (the game's rules for a leaver); None if it cannot."""
        plugin = self.core.plugin
        trial = plugin.clone(self.state)
        outcome = plugin.remove_seat(trial, index)
        if outcome is None:
            return None
        if not self._record(index, self.core.players[index].key, SKIP_RECORD, self.core.players[index].nick):
            return None
        plugin.remove_seat(self.state, index)
        self.core.players[index].ai = SKIPPED
        self.rename_in_game(index, self.core.players[index].label)
        self.save_players()
        out: list[Outgoing] = [self.core.say(line) for line in outcome.public]
        result = plugin.result(self.state)
        if result is not None:
            out += self._finish(result)
        return out

    def _restored_state(self, snapshot: dict[str, Any]) -> Any:
        """The state of a snapshot, with today's display names (a nick may have changed since)."""
        state = self.core.plugin.from_json(snapshot)
        if hasattr(state, "players"):
            for index, seat in enumerate(self.core.players):
                state.players[index] = seat.label
        return state

    def _finish(self, result: Result) -> list[Outgoing]:
        winners = ", ".join(self.core.players[i].label for i in result.winners)
        scores = ", ".join(
            f"{self.core.players[i].label} {number(result.scores.get(i, 0))}"
            for i in range(len(self.core.players))
        )
        line = _("Game over: {winners} {verb}! Scores: {scores}.").format(
            winners=winners, verb=_("win") if len(result.winners) > 1 else _("wins"), scores=scores
        )
        if result.detail:
            line += " " + result.detail
        out = [self.core.say(line, mentions=self.core.people_nicks())]
        game_id = self.game_id
        out += self.end_game("finished", "", result)
        if self.core.after_game is not None and game_id is not None:
            out += [self.core.say(text) for text in self.core.after_game(game_id)]
        out.append(self.core.say(_("Everybody stays seated: /start for a rematch, /leave to get up.")))
        return out

    def end_game(self, status: str, note: str, result: Result | None = None) -> list[Outgoing]:
        rows = []
        rank_of: dict[int, int] = {}
        if result is not None:
            for rank, group in enumerate(result.ranking, start=1):
                for index in group:
                    rank_of[index] = rank
        for index, seat in enumerate(self.core.players):
            # a person's seat that ended under an AI or was skipped did not play to the end: shown with
            # its mark, no rank (not rated) and never a win (see docs/ratings.md)
            finished = seat.is_bot or seat.has_person
            rows.append(
                {
                    "seat": index,
                    "user_key": seat.key,
                    "nick": seat.nick if finished else seat.label,
                    "score": float(result.scores.get(index, 0)) if result else 0.0,
                    "rank": rank_of.get(index, 0) if finished else 0,
                    "winner": int(bool(result and index in result.winners and finished)),
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
            self.core.store.finish_game(self.game_id, status, data, rows, note)
            self.ended_game = (self.game_id, status, self.moves_made)
            self.ended_state = self.state if status == "finished" else None
        if status == "abandoned":
            out.append(
                self.core.say(
                    _("The game of {game} is abandoned ({why}).").format(
                        game=self.core.plugin.title, why=note
                    )
                )
            )
        self.state = None
        self.game_id = None
        self.core.players = []
        self.moves_made = 0
        self.undo_point = None
        self.moved = set()
        self.table.game_ended()
        self.core.notify()
        return out

    def reload(self) -> None:
        """Rebuild the running game from the store after a failure left memory in doubt."""
        row = self.core.store.running_game(self.core.ensure_saved())
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
        plugin = self.core.games[plugin_name]
        self.core.game_name = plugin_name
        self.core.players = [
            Seat(i + 1, str(p["key"]), str(p["nick"]), p.get("ai"), bool(p.get("away")), p.get("owner"))  # type: ignore[arg-type]
            for i, p in enumerate(players)
        ]
        self.game_seed = seed
        self.game_options = dict(options)
        state = plugin.setup([p["nick"] for p in players], random.Random(seed), options)
        moves = self.core.store.moves(game_id)
        self.state = state
        self.undo_point = None
        for index, record in enumerate(moves):
            self.replay_step(record["seat"], record["text"], index + 1)
        for index, seat in enumerate(self.core.players):
            if seat.ai is not None and not seat.is_bot and hasattr(self.state, "players"):
                self.state.players[index] = seat.label
        self.game_id = game_id
        self.moves_made = len(moves)
        self.moved = {int(record["seat"]) for record in moves}
        self.core.notify()

    def replay_step(self, seat: int, text: str, moves_made: int) -> None:
        """Play one logged command again exactly as it was played, an undo included."""
        plugin = self.core.plugin
        if text == SKIP_RECORD:
            self.core.plugin.remove_seat(self.state, seat)
            return
        if text == UNDO_RECORD:
            assert self.undo_point is not None, "an undo in the log with nothing to undo"
            self.state = self._restored_state(self.undo_point.snapshot)
            self.undo_point = None
            return
        move = plugin.parse(self.state, seat, text)
        snapshot = plugin.to_json(self.state) if plugin.undoable(self.state, seat, move) else None
        plugin.apply(self.state, seat, move)
        self.undo_point = None
        if snapshot is not None and seat in plugin.to_act(self.state) and plugin.result(self.state) is None:
            self.undo_point = UndoPoint(seat, text, snapshot, moves_made)


def _lines(outcome: Outcome | None, prompted: bool) -> list[str]:
    """An outcome's channel lines, its prompt left out when nobody is prompted (none: no outcome)."""
    if outcome is None:
        return []
    return list(outcome.public if prompted else outcome.without_prompt())
