"""A table's game replayed from the store: the log of accepted moves and a finished game's last state.

The store's move log is the truth; replaying it from the game's seed gives
back every public announcement in order (moves, round results) and, after
the game is over, its final state, so a drawn table can keep showing the
result until the next ``/start`` and a restarted bot shows the same log.
Replays are incremental: each look applies only the moves recorded since.
On a server's store the records a log lacks are read where the event loop
does not wait for them (``read_later``): the look answers with what it has,
and the table is drawn again once they are in.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bazaarbot.i18n import current_language, language, localized_text, text_language
from bazaarbot.plugin import GamePlugin
from bazaarbot.store import GameRow, Store
from bazaarbot.table.ai_names import ai_name, with_ai_names
from bazaarbot.table.readers import for_readers
from bazaarbot.table.steps import SKIP_RECORD, UNDO_RECORD, play_step, replay, taken_back

#: the move-log entries the bot writes that are no command of a game
BOT_RECORDS = (UNDO_RECORD, SKIP_RECORD)

log = logging.getLogger(__name__)


@dataclass
class LogEntry:
    """One accepted move: its number, who played it, the text typed, what the bot announced."""

    n: int
    seat: int
    nick: str
    text: str
    lines: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"n": self.n, "seat": self.seat, "nick": self.nick, "text": self.text, "lines": self.lines}


class PlayedMove(NamedTuple):
    """A move a table has just played and recorded, with what the bot announced for it.

    The replay of a running game takes it into its log as it is, instead of reading it back
    from the store and playing it again; it is played on the replay's state only when that
    state is needed (a move comes the other way). When the game ends at the table, the
    replay takes the state it ended in there instead (``Replay.take_final``).
    """

    game_id: int
    n: int
    seat: int
    text: str
    lines: list[str]


@dataclass
class Replay:
    """A game rebuilt from its seed and move log, up to the last move read."""

    game_id: int
    plugin: GamePlugin
    status: str
    nicks: list[str]
    state: Any
    entries: list[LogEntry] = field(default_factory=list)
    #: (seat, text) of logged moves not yet played on ``state``, oldest first
    unplayed: list[tuple[int, str]] = field(default_factory=list)
    #: per reader language, ``entries`` as data (``as_read``), index for index; None: not built
    _read: dict[str, list[dict[str, Any] | None]] = field(default_factory=dict, repr=False)
    #: the game's seed and options, and (seat, text) of every step that stands (``/undo`` took
    #: none of them back), oldest first: an undo rebuilds the state from these
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    #: the languages the table's lines are read in besides its own: a move read from the store
    #: is announced in each of them too
    readers: frozenset[str] = frozenset()
    standing: list[tuple[int, str]] = field(default_factory=list)

    @property
    def moves_read(self) -> int:
        return len(self.entries)

    def as_read(self, lang: str, tail: int) -> list[dict[str, Any]]:
        """The last ``tail`` entries as data, each move in the words a reader of ``lang`` types (the
        AI's, an English player's) and its announcements in ``lang`` (an AI named there too). The log
        only grows, so each entry is built once per language; what is returned is shared, never to
        be changed."""
        made = self._read.setdefault(lang, [])
        start = max(0, len(self.entries) - tail)
        if len(made) < start:
            made.extend([None] * (start - len(made)))
        command_in = self.plugin.command_in
        for entry in self.entries[len(made) :]:
            # an /undo or a seat taken out is no command of the game: it stays as it was logged
            said = entry.text if entry.text in BOT_RECORDS else command_in(None, entry.seat, entry.text, lang)
            with language(lang):  # an AI is named in the reader's words too
                nick = str(ai_name(entry.nick))
            lines = [_read_in(line, lang) for line in entry.lines]
            made.append(entry.as_dict() | {"text": said, "nick": nick, "lines": lines})
        return [e for e in made[start:] if e is not None]

    def settled_state(self) -> Any:
        """The state after every logged move (the ones taken from the table played now)."""
        while self.unplayed:
            seat, text = self.unplayed.pop(0)
            play_step(self.plugin, self.state, seat, text)
        return self.state

    def take_final(self, final: Any) -> None:
        """The game's last state as the table played it, for the moves taken from the table and not
        played here: the rules are deterministic, so it is the state they would give, without playing
        the whole game again when it ends (the players named as the log names them)."""
        state = self.plugin.clone(final)
        names = getattr(self.state, "players", None)
        if isinstance(names, list) and hasattr(state, "players"):
            state.players = list(names)
        self.state = state
        self.unplayed.clear()

    def _step_again(self, before: Any, seat: int, text: str) -> list[str]:
        """What a step announced, played once more on a copy of the game before it (in the
        language current now); none when that failed."""
        try:
            return play_step(self.plugin, self.plugin.clone(before), seat, text)
        except Exception:
            log.exception("game %s: move %r could not be said again", self.game_id, text)
            return []

    def play(self, n: int, seat: int, text: str) -> None:
        """One record of the store's move log, played on the state and written in the log."""
        state = self.settled_state()
        nick = self.nicks[seat] if seat < len(self.nicks) else "?"
        if text == UNDO_RECORD:
            undone = self.standing.pop() if self.standing else None
            # the undone step revealed nothing: the steps that stand replay to the state before it
            records = [{"n": i, "seat": s, "text": t} for i, (s, t) in enumerate(self.standing)]
            self.state = replay(self.plugin, self.seed, list(self.nicks), self.options, records)[1]
            lines = [taken_back(nick, undone[1])] if undone else []
        else:
            before = self.plugin.clone(state) if self.readers - {current_language()} else None
            lines = play_step(self.plugin, state, seat, text)
            if before is not None:
                lines = for_readers(lines, self.readers, lambda: self._step_again(before, seat, text))
            self.standing.append((seat, text))
        self.entries.append(LogEntry(n, seat, nick, text, lines))


#: ``read_later(table_id, work, landed)``: runs ``work`` off the event loop, then ``landed(its result)``
#: on the loop (None when it failed), and draws the table again if ``landed`` says it has news;
#: False when it cannot (no event loop, or a store the loop may wait for): ``work`` is run at once
ReadLater = Callable[[int, Callable[[], Any], Callable[[Any], bool]], bool]


class NotReadYet(Exception):
    """The records a log needs are being read off the event loop; the look answers with what it has."""


def _read_in(line: str, lang: str) -> str:
    """An announcement of the log as a reader of ``lang`` reads it (said again only when it was
    built in another language), its AI seats named in ``lang``."""
    built = text_language(line)
    return with_ai_names(line if built is None or built == lang else localized_text(line, lang), lang)


def _as_far_as_read(latest: Callable[..., Replay | None]) -> Callable[..., Replay | None]:
    """``GameLogs.latest`` that answers with the log it has while the records it lacks are read."""

    @functools.wraps(latest)
    def looked(
        logs: GameLogs, table_id: int | None, running: tuple[int, int] | None = None, *more: Any, **named: Any
    ) -> Replay | None:
        try:
            return latest(logs, table_id, running, *more, **named)
        except NotReadYet:
            replay = logs._replays.get(table_id) if table_id is not None else None
            if replay is not None and running is not None and replay.game_id == running[0]:
                return replay
            return None

    return looked


class GameLogs:
    """Replays of the latest game of each table, kept up to date on demand."""

    def __init__(
        self, store: Store, games: dict[str, GamePlugin], read_later: ReadLater | None = None
    ) -> None:
        self.store = store
        self.games = games
        self.read_later = read_later
        self._replays: dict[int, Replay] = {}
        #: tables whose last read found no game to show (until one of theirs runs)
        self._no_game: set[int] = set()
        #: reads under way off the event loop, and what they brought that no look has used yet
        self._reading: set[tuple[str, int]] = set()
        self._read_rows: dict[int, GameRow | None] = {}
        self._read_moves: dict[int, list[dict[str, Any]]] = {}

    @_as_far_as_read
    def latest(
        self,
        table_id: int | None,
        running: tuple[int, int] | None = None,
        nicks: list[str] | None = None,
        played: PlayedMove | None = None,
        started: Callable[[], GameRow | None] | None = None,
        ended: tuple[int, str, int] | None = None,
        readers: frozenset[str] = frozenset(),
        final: Any = None,
    ) -> Replay | None:
        """The table's running or last finished game, replayed to its newest move; None if there is none.

        ``running`` is the (game id, moves made) the table knows of; when the replay is already
        there, the store is not asked again. With the running game's ``nicks`` as well, a replay of
        that game only reads the moves it has not had (nobody left or was renamed meanwhile),
        and the table's ``played`` move, when it is the one missing, is taken as it is.
        ``started``: makes the running game's row as the table holds it, so a log that has not seen
        the game yet starts from it instead of asking the store (made only then: a view asks for the
        log at every change, and it is nearly always there). ``ended``: (game id, status, moves made) of
        the game that ended at the table last, so its log is closed without asking the store.
        ``readers``: the languages the table's lines are read in besides its own. ``final``: the
        state the ``ended`` game ended in at the table, which its closed log takes (``take_final``).
        While the records it lacks are read off the event loop, the running game's log as far
        as it goes (else None).
        """
        if table_id is None:
            return None
        replay = self._replays.get(table_id)
        if replay is not None:
            replay.readers = readers
        if running is None:  # no game runs: what was read last still holds (only this table starts one)
            if table_id in self._no_game:
                return None
            if replay is not None and replay.status == "finished":
                return replay
            if replay is not None and ended is not None and replay.game_id == ended[0]:
                closed = self._closed(table_id, replay, ended, played, final)
                if closed is not False:
                    return closed
        else:
            self._no_game.discard(table_id)
        if (
            running is not None
            and replay is not None
            and replay.game_id == running[0]
            and replay.status == "running"
        ):
            if replay.moves_read == running[1]:
                return replay
            if nicks is not None and nicks == replay.nicks and replay.moves_read < running[1]:
                if played is not None and self._next_of(replay, played, running[1]):
                    self._take(replay, played)  # the one move missing: as the table played it
                    return replay
                return replay if self._caught_up(table_id, replay) else None
        made = started() if started is not None and running is not None else None
        fresh = made is not None and running is not None and made.id == running[0]
        row = made if fresh else self._last_game(table_id)
        if row is None or row.status not in ("running", "finished") or row.plugin not in self.games:
            self._replays.pop(table_id, None)
            if running is None:
                self._no_game.add(table_id)
            return None
        if replay is None or replay.game_id != row.id:
            replay = self._start(row)
            if replay is None:
                return None
            replay.readers = readers
            self._replays[table_id] = replay
        replay.status = row.status
        replay.nicks = [p["nick"] for p in row.players]
        if fresh and running is not None:  # a game the table just started: nothing to read yet
            if replay.moves_read == running[1]:
                return replay
            if played is not None and self._next_of(replay, played, running[1]):
                self._take(replay, played)
                return replay
        return replay if self._caught_up(table_id, replay) else None

    def _closed(
        self,
        table_id: int,
        replay: Replay,
        ended: tuple[int, str, int],
        played: PlayedMove | None,
        final: Any = None,
    ) -> Replay | None | bool:
        """The log of a game that just ended, from what the table knows; False when the store must say.

        With the table's ``final`` state, the moves the log took from the table are not played again.
        """
        _game_id, status, moves_made = ended
        if status != "finished":  # abandoned: no log to show
            self._replays.pop(table_id, None)
            self._no_game.add(table_id)
            return None
        if (
            replay.moves_read == moves_made - 1
            and played is not None
            and self._next_of(replay, played, moves_made)
        ):
            self._take(replay, played)
        if replay.moves_read != moves_made:
            return False
        if final is not None and replay.unplayed:
            replay.take_final(final)
        replay.status = status
        return replay

    def _caught_up(self, table_id: int, replay: Replay) -> bool:
        """Play the moves the replay has not had; a replay that fails is forgotten (False)."""
        try:
            self._catch_up(table_id, replay)
        except NotReadYet:
            raise
        except Exception:
            log.exception("game %s could not be replayed for its log", replay.game_id)
            self._replays.pop(table_id, None)
            return False
        return True

    def _start(self, row: GameRow) -> Replay | None:
        plugin = self.games[row.plugin]
        nicks = [p["nick"] for p in row.players]
        try:
            state = plugin.setup(list(nicks), random.Random(row.seed), row.options)
        except Exception:
            log.exception("game %s could not be set up for its log", row.id)
            return None
        return Replay(row.id, plugin, row.status, nicks, state, seed=row.seed, options=dict(row.options))

    @staticmethod
    def _next_of(replay: Replay, played: PlayedMove, moves_made: int) -> bool:
        """Whether ``played`` is the replay's next move and the table's last one."""
        return played.game_id == replay.game_id and played.n == replay.moves_read == moves_made - 1

    @staticmethod
    def _take(replay: Replay, played: PlayedMove) -> None:
        nick = replay.nicks[played.seat] if played.seat < len(replay.nicks) else "?"
        replay.entries.append(LogEntry(played.n, played.seat, nick, played.text, list(played.lines)))
        replay.unplayed.append((played.seat, played.text))
        replay.standing.append((played.seat, played.text))

    def _catch_up(self, table_id: int, replay: Replay) -> None:
        for record in self._moves(table_id, replay.game_id, replay.moves_read):
            replay.play(record["n"], record["seat"], record["text"])

    # --- the store's records, read where the event loop does not wait on a server -------------------
    def _last_game(self, table_id: int) -> GameRow | None:
        if table_id in self._read_rows:
            return self._read_rows.pop(table_id)

        def keep(row: GameRow | None) -> bool:
            self._read_rows[table_id] = row
            return True

        self._later(("game", table_id), table_id, lambda: self.store.last_game(table_id), keep)
        return self.store.last_game(table_id)

    def _moves(self, table_id: int, game_id: int, start: int) -> list[dict[str, Any]]:
        read = self._read_moves.pop(game_id, None)
        if read is not None and (not read or read[0]["n"] <= start):
            return [record for record in read if record["n"] >= start]

        def keep(records: list[dict[str, Any]]) -> bool:
            self._read_moves[game_id] = records
            return bool(records)  # nothing new: the table is not drawn again for it

        self._later(("moves", game_id), table_id, lambda: self.store.moves(game_id, start), keep)
        return self.store.moves(game_id, start)

    def _later(
        self, key: tuple[str, int], table_id: int, work: Callable[[], Any], keep: Callable[[Any], bool]
    ) -> None:
        """Raise ``NotReadYet`` once ``work`` is under way off the event loop; return where it cannot be."""
        if key in self._reading:
            raise NotReadYet

        def landed(result: tuple[Any] | None) -> bool:
            self._reading.discard(key)
            return result is not None and keep(result[0])

        if self.read_later is None or not self.read_later(table_id, lambda: (work(),), landed):
            return
        self._reading.add(key)
        raise NotReadYet
