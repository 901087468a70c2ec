"""The contract every game plugin fulfils.

A plugin is pure rules: no I/O, no asyncio, no chat. All chance comes from the
``random.Random`` handed to ``setup`` and kept inside the state, so a game is
exactly reproducible from (seed, players, options, commands). The core, the
tests, the AI and replays all drive a game through this one interface.

Conventions
-----------
* Seats are ints ``0 .. n-1`` in turn order as given to ``setup``.
* Every state object has an attribute ``players: list[str]`` (display names,
  by seat). The table may rename a seat in place (a nick change).
* ``apply`` changes the state in place and returns what happened. It must
  raise ``MoveError`` *before* changing anything, so a refused command leaves
  the state exactly as it was.
* ``legal_commands`` spells every command exactly as a player may type it;
  each one must be accepted by ``parse`` + ``apply``.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bazaarbot.i18n import _, ngettext, per_language
from bazaarbot.text.digits import signed_number


class MoveError(Exception):
    """A command that is not legal now; the message tells the player why and what would work."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Option:
    """A table option a host can set with ``/new <game> name=value``."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None

    def convert(self, raw: str) -> Any:
        """Turn the typed text into a value of the default's type, or raise ValueError."""
        value: Any
        if isinstance(self.default, bool):
            low = raw.strip().lower()
            if low in ("1", "on", "yes", "true", "y"):
                value = True
            elif low in ("0", "off", "no", "false", "n"):
                value = False
            else:
                raise ValueError(_("{name} takes on or off").format(name=self.name))
        elif isinstance(self.default, int):
            value = signed_number(raw.strip())
            if value is None:
                raise ValueError(_("{name} takes a whole number").format(name=self.name))
        else:
            value = raw.strip().lower()
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(_("{name} takes one of: {allowed}").format(name=self.name, allowed=allowed))
        return value


@dataclass
class Outcome:
    """What an accepted command did: lines for the channel, lines for single seats.

    The table sends ``public`` to the channel and ``private[seat]`` to that
    seat's owner only. A seat whose ``private_view`` changed is re-sent its
    view by the table automatically, so plugins need not repeat hands here.
    """

    public: list[str] = field(default_factory=list)
    private: dict[int, list[str]] = field(default_factory=dict)
    #: the last sentence of ``public`` when it asks whoever acts next (whose turn, what to type): the
    #: table leaves it out when only AIs are to act, so nobody reads a prompt addressed to an AI
    prompt: str = ""

    def without_prompt(self) -> list[str]:
        """``public`` with the prompt left out: a line of its own, or the last sentence of the last line."""
        lines = list(self.public)
        if not self.prompt or not lines:
            return lines
        last = lines[-1]
        if last == self.prompt:
            return lines[:-1]
        if last.endswith(" " + self.prompt):
            lines[-1] = last[: -len(self.prompt) - 1]
        return lines


@dataclass
class Result:
    """The end of a game: final scores, ranking (tied seats share a group), winners."""

    scores: dict[int, float]
    ranking: list[list[int]]
    winners: list[int]
    detail: str = ""


def options_text(options: tuple[Option, ...]) -> str:
    """The table options as lines for ``/rules``: ``name=default - help``, so a host sees every choice."""
    lines = []
    for option in options:
        default = option.default
        if isinstance(default, bool):
            default = "on" if default else "off"
        lines.append(f"{option.name}={default} - {option.help}")
    return "\n".join(lines)


def copied_rng(rng: random.Random) -> random.Random:
    """An independent generator in ``rng``'s state, for a game state's copy."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def win_chances(values: list[float], temperature: float) -> list[float]:
    """Each seat's chance to win from how well it stands (``values``): a softmax share, sharper the
    lower ``temperature``. For a game's ``evaluate``."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def shared_among_the_best(scores: list[int]) -> list[float]:
    """The chances of a finished game: the seats with the top score share the win."""
    top = max(scores)
    winners = [seat for seat, score in enumerate(scores) if score == top]
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(scores))]


class TranslatedText:
    """A plugin's class text (title, ``/rules``, ``/help moves``) read in the current language.

    Plugins keep plain English class attributes; ``GamePlugin`` wraps them in
    this descriptor so every read goes through the catalogue, and the
    catalogue tooling finds the English source in ``source``.
    """

    def __init__(self, source: str) -> None:
        self.source = source

    def __get__(self, obj: object, owner: type | None = None) -> str:
        return _read_in_language(self.source) if self.source else ""


@per_language
def _read_in_language(source: str) -> str:
    """A class text in the current language, read once per language (a title is read for every view)."""
    return _(source)


#: the class attributes a player reads, translated on every read
TRANSLATED_TEXTS = ("title", "rules_summary", "command_help")


def source_texts(cls: type) -> list[str]:
    """The English sources of a plugin class's translated texts (for the catalogue)."""
    found = []
    for name in TRANSLATED_TEXTS:
        for klass in cls.__mro__:
            value = klass.__dict__.get(name)
            if isinstance(value, TranslatedText):
                if value.source:
                    found.append(value.source)
                break
    return found


class GamePlugin(ABC):
    """Base class for a game. Subclasses set the identity fields and implement the rules."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in TRANSLATED_TEXTS:
            value = cls.__dict__.get(name)
            if isinstance(value, str):
                setattr(cls, name, TranslatedText(value))

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    rules_version: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    #: a few lines for ``/rules <game>``
    rules_summary: ClassVar[str] = ""
    #: a few lines that teach the command syntax (``/help moves``)
    command_help: ClassVar[str] = ""
    #: one typical move, exactly as typed (the web page's input hint shows it)
    example_move: ClassVar[str] = ""

    # --- life cycle -------------------------------------------------------
    @abstractmethod
    def setup(self, players: list[str], rng: random.Random, options: dict[str, Any]) -> Any:
        """A new game for these players (seat order = list order)."""

    @abstractmethod
    def to_act(self, state: Any) -> list[int]:
        """Seats whose decision is awaited now (empty when the game is over)."""

    @abstractmethod
    def legal_commands(self, state: Any, seat: int) -> list[str]:
        """Every legal command for ``seat`` at this decision point, exactly typeable."""

    @abstractmethod
    def parse(self, state: Any, seat: int, text: str) -> Any:
        """Turn typed text into a move; ``MoveError`` if it is not a command of this game."""

    @abstractmethod
    def apply(self, state: Any, seat: int, move: Any) -> Outcome:
        """Play ``move`` for ``seat`` in place; ``MoveError`` (state untouched) if illegal."""

    @abstractmethod
    def is_move(self, text: str) -> bool:
        """Whether ``text`` looks like an attempt at a move of this game.

        Channel chatter that is not a move is ignored silently, so this must
        be conservative: true only when the first word is one of the game's
        verbs (or an alias of one).
        """

    def command_in(self, state: Any, seat: int, command: str, lang: str) -> str:
        """``command`` (one of ``legal_commands``) in the words a player of ``lang`` types.

        Whatever is shown to a player (``/moves``, a "did you mean", the move the
        AI played, the page's ``example_move``) is written this way, so ``parse``
        must read the result back as the same move. ``state`` is None where only the
        words matter: the example shown before a game runs (``seat`` -1) and a move
        of the game log. The default keeps the English words, which every game reads.
        """
        return command

    def command_note(self, state: Any, seat: int, command: str) -> str | None:
        """What the numbers of ``command`` (one of ``legal_commands`` for ``seat`` now) mean, in words
        of the current language (``4 steps, paying 1 gold``), where the command alone does not say it;
        else None. Shown beside a move quoted in a hint or a review."""
        return None

    def undoable(self, state: Any, seat: int, move: Any) -> bool:
        """Whether ``seat`` could take ``move`` back right after playing it (``/undo``).

        Called with the state *before* the move (the plugin may try it on a
        clone). True only when the move reveals nothing (no card drawn, no die
        rolled, no hidden thing shown, no random number consumed) and leaves
        the decision with the same seat in the same turn; the table then undoes
        it by replaying the log without it, which gives exactly this state.
        The default, False, suits games whose turn is a single step.
        """
        return False

    # --- views --------------------------------------------------------------
    @abstractmethod
    def board(self, state: Any) -> str:
        """The public board, a few lines, nothing hidden in it."""

    def private_view(self, state: Any, seat: int) -> str | None:
        """What only ``seat`` may see (a hand), or None when there is nothing secret."""
        return None

    def public_data(self, state: Any) -> dict[str, Any]:
        """The public board as JSON-able data for a drawn table (web); same secrecy as ``board``.

        The default carries the text board, so a game without a drawn table still shows one.
        """
        return {"text": self.board(state)}

    def private_data(self, state: Any, seat: int) -> dict[str, Any] | None:
        """What only ``seat`` may see, as JSON-able data (same secrecy as ``private_view``)."""
        view = self.private_view(state, seat)
        return None if view is None else {"text": view}

    def terms(self) -> dict[str, str]:
        """The names of the game's things ({id: name}, in the current language) for a drawn table,
        which shows a name, never an identifier. Empty: the table has nothing to name."""
        return {}

    def breakdown(self, state: Any) -> list[dict[str, Any]] | None:
        """A finished game's score by source, for the result table: rows of
        ``{"label": str, "values": [one per seat]}`` (None: the result's scores say it all)."""
        return None

    @abstractmethod
    def result(self, state: Any) -> Result | None:
        """None while the game runs; the final result once it is over."""

    def brief_board(self, state: Any) -> str:
        """The board in at most two short lines: the position in brief, then whose turn it is.

        A game's start shows this rather than the whole board (which is ``/board``), so
        the first player learns it is their turn within a line or two on a paced
        network. The default is the board's first and last lines.
        """
        lines = self.board(state).split("\n")
        return "\n".join(lines[:1] + lines[-1:] if len(lines) > 1 else lines)

    def brief_moves(self, state: Any, seat: int) -> str:
        """One short line summing up ``legal_commands`` (``/moves``)."""
        commands = self.legal_commands(state, seat)
        if not commands:
            return _("(no moves)")
        groups: dict[str, list[str]] = {}
        for command in commands:
            verb, _space, rest = command.partition(" ")
            groups.setdefault(verb, []).append(rest)
        parts = []
        for verb, rests in groups.items():
            shown = [r for r in rests if r][:6]
            more = len(rests) - len(shown) if any(rests) else 0
            text = verb + (" " + " | ".join(shown) if shown else "")
            if more > 0:
                text += ngettext(" (+{n} more)", " (+{n} more)", more).format(n=more)
            parts.append(text)
        return "; ".join(parts)

    def remove_seat(self, state: Any, seat: int) -> Outcome | None:
        """Take ``seat`` out of the game for good (a leaver under the game's own rules), in place.

        Returns what happened, or None when the game has no such rule (the
        table then lets an AI play the seat). Like ``apply`` it is deterministic.
        """
        return None

    # --- persistence --------------------------------------------------------
    @abstractmethod
    def to_json(self, state: Any) -> dict[str, Any]:
        """A lossless JSON-able snapshot (including the random generator's state)."""

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> Any:
        """The inverse of ``to_json``."""

    # --- for the AI -----------------------------------------------------------
    def clone(self, state: Any) -> Any:
        """An independent copy (subclasses may do this faster)."""
        return self.from_json(self.to_json(state))

    @abstractmethod
    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """A copy in which everything ``seat`` cannot see is re-dealt consistently."""

    def redealer(self, state: Any, seat: int) -> Callable[[random.Random], Any]:
        """``determinize`` of one position, to be asked again and again (the search re-deals at
        every iteration): a game may work out once what does not depend on the deal, such as
        what ``seat`` has seen. Each call must equal ``determinize(state, seat, rng)``, drawing
        the same numbers from ``rng``; ``state`` must not change while it is used."""
        return lambda rng: self.determinize(state, seat, rng)

    def rollout(self, state: Any, rng: random.Random) -> None:
        """Play random legal moves in place until the game ends (the fast rollout policy)."""
        while self.result(state) is None:
            seats = self.to_act(state)
            if not seats:
                return
            seat = seats[0]
            command = rng.choice(self.legal_commands(state, seat))
            self.apply(state, seat, self.parse(state, seat, command))

    # --- optional AI hooks ------------------------------------------------------
    # The search in ``bazaarbot.ai`` works through these. Every one has a default
    # that works for any game through the text path; a plugin overrides them for
    # speed (an internal move form instead of text) or for game knowledge (an
    # evaluation, priors, better rollout and greedy policies).

    def ai_actions(self, state: Any, seat: int) -> list[Any]:
        """The legal moves of ``seat`` in the plugin's fastest hashable form (default: the commands)."""
        return self.legal_commands(state, seat)

    def ai_play(self, state: Any, seat: int, action: Any) -> None:
        """Play one action from ``ai_actions`` in place, without building any text if possible."""
        self.apply(state, seat, self.parse(state, seat, action))

    def ai_command(self, state: Any, seat: int, action: Any) -> str:
        """The action spelled as the command a player types (one of ``legal_commands``)."""
        return str(action)

    def evaluate(self, state: Any, seat: int) -> float | None:
        """A heuristic value in [0, 1] of ``state`` for ``seat`` (its chance to win), or None.

        Used to cut rollouts short and by the default greedy policy; None means
        the game offers no evaluation and rollouts run to the end.
        """
        return None

    def evaluate_all(self, state: Any, seats: int) -> list[float] | None:
        """Every seat's ``evaluate`` at once (a plugin whose evaluation compares the seats computes
        their values once here instead of once per seat); None when there is no evaluation."""
        values = []
        for seat in range(seats):
            value = self.evaluate(state, seat)
            if value is None:
                return None
            values.append(value)
        return values

    def horizon(self, state: Any) -> Any:
        """A cut-off rollouts stop at when its value changes (e.g. a new round); None for none.

        Only used together with ``evaluate``: a rollout ends at the game's end,
        at the search's depth limit, or when the horizon moves, whichever comes first.
        """
        return None

    def priors(self, state: Any, seat: int, actions: list[Any]) -> list[float] | None:
        """Move priors (any positive weights, one per action) for PUCT, or None for plain UCT."""
        return None

    def rollout_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The rollout policy: one action from ``ai_actions`` (default uniform random)."""
        actions = self.ai_actions(state, seat)
        return actions[int(rng.random() * len(actions))]

    def rollout_plies(self, state: Any, rng: random.Random, plies: int) -> None:
        """Play up to ``plies`` plies of ``rollout_action`` in place, stopping early at the game's end
        or when the ``horizon`` moves: the search's cut-off rollout. A plugin may do the same in one
        tight loop of its own rules (it must draw from ``rng`` as this one does, so the same seed still
        gives the same moves)."""
        horizon = self.horizon(state)
        for _ply in range(plies):
            if self.result(state) is not None:
                return
            actors = self.to_act(state)
            if not actors:
                return
            self.ai_play(state, actors[0], self.rollout_action(state, actors[0], rng))
            if horizon is not None and self.horizon(state) != horizon:
                return

    def rollout_for(self, state: Any, seat: int, rng: random.Random, plies: int) -> None:
        """The cut-off rollout of ``seat``'s search, in place (default: ``rollout_plies``).

        A game may play on to what decides the searching seat's next move instead, say its next
        turn, where ``plies`` would stop short of it (Bazaar at five and six seats)."""
        self.rollout_plies(state, rng, plies)

    def greedy_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """One ply: the action whose result ``evaluate`` likes best (random when there is no evaluation)."""
        actions = self.ai_actions(state, seat)
        best: list[Any] = []
        best_value = -1.0
        for action in actions:
            after = self.clone(state)
            self.ai_play(after, seat, action)
            outcome = self.result(after)
            judged = (1.0 if seat in outcome.winners else 0.0) if outcome else self.evaluate(after, seat)
            if judged is None:
                return actions[int(rng.random() * len(actions))]
            value = judged
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif value >= best_value - 1e-12:
                best.append(action)
        return best[int(rng.random() * len(best))]

    def hint_reason(self, state: Any, seat: int, action: Any) -> str | None:
        """A short, true reason for playing ``action`` (from ``ai_actions``) now, or None (``/hint``).

        Only what the move does for certain, read from the rules (the points a
        sale scores, a bonus token it takes), never a guess about the future.
        """
        return None

    def bench(self, seconds: float) -> list[tuple[str, float]]:
        """Figures for ``bazaarbot bench engine <game>`` as (label, value) pairs.

        The default plays random games through ``legal_commands``/``parse``/
        ``apply`` and reports decisions/s and games/s; plugins may add figures.
        """
        rng = random.Random(1)
        players = [f"p{i + 1}" for i in range(max(2, self.min_players))][: self.max_players]
        defaults = {o.name: o.default for o in self.options}
        decisions = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state = self.setup(players, random.Random(rng.random()), defaults)
            while self.result(state) is None:
                seat = self.to_act(state)[0]
                command = rng.choice(self.legal_commands(state, seat))
                self.apply(state, seat, self.parse(state, seat, command))
                decisions += 1
            games += 1
        elapsed = time.perf_counter() - start
        return [("decisions/s", decisions / elapsed), ("games/s", games / elapsed)]
