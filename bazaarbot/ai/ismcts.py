"""Single-observer Information-Set Monte Carlo Tree Search (SO-ISMCTS).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 2012. Each iteration re-deals everything the deciding seat cannot
see (the plugin's ``determinize``), then walks one tree whose edges are
actions: selection only among the actions legal in this determinization,
with availability counts in the exploration term; expansion of one new edge;
a rollout with the plugin's rollout policy, cut off by its evaluation when it
has one; and backpropagation of each seat's own reward to the edges that seat
chose. Whose decision it is comes from ``to_act`` at every step, so
multi-step turns and decisions outside the mover's turn need nothing special.

With priors from the plugin the selection rule is PUCT (Q + c·P·√(N+1)/(n+1),
unvisited edges valued at the mean of the tried ones) over counts in which an
iteration that stopped at an edge weighs one and one that went on through it
1/``STOP_WEIGHT``; without, it is UCT over the availability counts, trying
every available edge once first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bazaarbot.plugin import GamePlugin

from .node import Node
from .rewards import final_rewards, rewards

#: the exploration constant of every level unless configured: UCT's, on counts of one per iteration
#: (1.0 explores as the tuned 0.7 did when inner edges were counted twice); PUCT takes ``PUCT_SCALE``
#: of it
EXPLORATION = 1.0

#: how much an iteration that stopped at an edge weighs in PUCT's selection, against 1 for one
#: that went on through it to a deeper edge. An edge stops the iteration that expands it, and
#: every iteration in which the game ends there. PUCT reads the counts in units of a stopped
#: iteration: an inner edge tried k times as k - 1 + 1/w, a game-ending one as k; Q is the edge's
#: reward over its count, N the counts' sum. At one half those are the counts the descent kept when
#: it counted every edge it went on through a second time (2k - 1 and k), so the search chooses
#: as it did then, number for number, while every figure read from the tree (the move played,
#: hints, reviews) divides by the iterations that went through an edge. Plain PUCT is 1
STOP_WEIGHT = 0.5

#: PUCT's exploration constant per unit of a level's ``exploration``: the constant the search was
#: tuned at on the counts above, so the default level explores as it did then. UCT (the games
#: without priors) reads single counts and takes a level's constant as it is
PUCT_SCALE = 0.7


@dataclass(frozen=True)
class SearchBudget:
    """How much one decision may cost: iterations decide, ``time_cap`` (seconds) is a safety net."""

    iterations: int
    #: seconds of this process's CPU time: a busy machine slows a search down but does not cut it short
    time_cap: float = 10.0
    #: rollout plies before the evaluation takes over (when the plugin has one), at two seats
    #: (fewer at more: ``rollout_depth``)
    depth: int = 20
    #: exploration constant (UCT: c·√(ln avail / n); PUCT: c·PUCT_SCALE·P·√(N + 1) / (n + 1))
    exploration: float = EXPLORATION


#: the fewest rollout plies at any table: about a round at six seats, so a rollout still
#: reaches some of the deciding seat's next turn
LEAST_DEPTH = 10


def rollout_depth(depth: int, seats: int) -> int:
    """Rollout plies before the evaluation at a table of ``seats``: ``depth`` at two, shorter at more.

    A rollout is random play: with every more seat in it, more of its plies are other seats'
    random moves, so it says less per ply than the evaluation does (and costs as much). Half the
    plies at four seats; never below ``LEAST_DEPTH`` nor above ``depth``.
    """
    return min(depth, max(LEAST_DEPTH, depth * 2 // max(2, seats)))


def _overrides(game: GamePlugin, name: str) -> bool:
    return getattr(type(game), name) is not getattr(GamePlugin, name)


@dataclass(eq=False)
class Search:
    """One search from one decision point of ``seat``; ``run`` returns the visit count of each root action.

    Each edge counts the iterations that went through it exactly once (in the backup), so
    its mean reward is the chooser's estimated chance: the AI's choice and the teaching
    figures (hints, reviews) read one and the same counting.
    """

    game: GamePlugin
    state: Any
    seat: int
    budget: SearchBudget
    rng: random.Random
    clock: Callable[[], float] = time.process_time
    #: the tree the iterations grow: a new one, or a subtree of an earlier search from this very
    #: information set (a later decision in the same turn, when nothing was revealed since)
    root: Node = field(default_factory=Node)
    #: what the game offers the search, found once: its seats, rollout depth, evaluation, priors
    seats: int = field(init=False)
    depth: int = field(init=False)
    has_eval: bool = field(init=False)
    has_priors: bool = field(init=False)
    fast_rollout: bool = field(init=False)
    #: the root position re-dealt for one iteration (the game's ``redealer``)
    redeal: Callable[[random.Random], Any] = field(init=False)
    #: the root's actions when the decision there is the seat's own: they depend only on what the
    #: seat knows, so they are the same in every re-deal and are listed once (else None)
    root_actions: list[Any] | None = field(init=False, default=None)
    iterations: int = field(init=False, default=0)
    #: PUCT's weight of an iteration that stopped at an edge (a class's rule, not a search's setting)
    stop_weight: ClassVar[float] = STOP_WEIGHT
    #: PUCT's constant per unit of the budget's ``exploration`` (a class's rule too)
    puct_scale: ClassVar[float] = PUCT_SCALE

    def __post_init__(self) -> None:
        game = self.game
        self.seats = len(self.state.players)
        self.depth = rollout_depth(self.budget.depth, self.seats)
        self.has_eval = game.evaluate(self.state, self.seat) is not None
        self.has_priors = _overrides(game, "priors")
        self.fast_rollout = not _overrides(game, "rollout_action") and _overrides(game, "rollout")
        self.redeal = game.redealer(self.state, self.seat)
        if game.result(self.state) is None and game.to_act(self.state)[:1] == [self.seat]:
            self.root_actions = game.ai_actions(self.state, self.seat)

    def run(self, choices: list[Any] | None = None) -> dict[Any, Node]:
        """Iterate until the budget is spent; the root's children by action.

        The time cap is kept, not overrun: no iteration starts that would, at the pace so far,
        end after it. The clock is read every 8 iterations, and after each one near the cap.

        With ``choices`` (the root actions a caller picks the most visited of), the search also
        ends once one of them is ahead of every other by more than the iterations left: none
        could catch up, so the pick is the one the whole budget makes, for fewer iterations.
        """
        clock = self.clock
        started = clock()
        deadline = started + self.budget.time_cap
        total = self.budget.iterations
        every = 8
        for i in range(total):
            self.iterate()
            self.iterations = i + 1
            if self.iterations % every == 0:
                if choices is not None and self._settled(choices, total - self.iterations):
                    break
                now = clock()
                pace = (now - started) / self.iterations
                left = deadline - now
                if pace > left:
                    break
                if left < 16 * pace:
                    every = 1
        return self.root.children

    def _settled(self, choices: list[Any], left: int) -> bool:
        """Whether the most visited of ``choices`` leads every other by more than ``left`` visits."""
        get = self.root.children.get
        first = second = 0
        for action in choices:
            child = get(action)
            visits = child.visits if child is not None else 0
            if visits > first:
                first, second = visits, first
            elif visits > second:
                second = visits
        return first - second > left

    def best_action(self) -> Any:
        """The most visited root action that is legal in the real state (ties: the better mean).

        The search stops as soon as that action is settled (``run``'s ``choices``)."""
        legal = self.game.ai_actions(self.state, self.seat)
        children = self.run(legal)
        best = None
        best_key = (-1, -1.0)
        for action in legal:
            child = children.get(action)
            key = (child.visits, child.mean()) if child else (0, -1.0)
            if key > best_key:
                best, best_key = action, key
        return best

    # --- one iteration ---------------------------------------------------------
    def iterate(self) -> None:
        game = self.game
        rng = self.rng
        state = self.redeal(rng)
        node = self.root
        path: list[tuple[Node, int]] = []
        actions = self.root_actions
        actor = self.seat
        while True:
            if actions is None:
                result = game.result(state)
                if result is not None:
                    self._backprop(path, final_rewards(result, self.seats))
                    return
                actors = game.to_act(state)
                if not actors:
                    return
                actor = actors[0]
                actions = game.ai_actions(state, actor)
            action, child, expanded = self._select(node, state, actor, actions)
            node.passes += 1
            game.ai_play(state, actor, action)
            path.append((child, actor))
            node = child
            if expanded:
                break
            actions = None
        self._backprop(path, self._rollout(state))

    def _select(self, node: Node, state: Any, actor: int, actions: list[Any]) -> tuple[Any, Node, bool]:
        """Pick an edge; returns (action, child, whether it was just created)."""
        if self.has_priors:
            return self._select_puct(node, state, actor, actions)
        # one pass: every edge available here counts it, and while none is untried the UCT score
        # of each is taken (the same sum, the first of equal scores wins)
        get = node.children.get
        c = self.budget.exploration
        log = math.log
        sqrt = math.sqrt
        untried = None
        best_action = None
        best_child = None
        best_score = -math.inf
        for action in actions:
            child = get(action)
            if child is None:
                if untried is None:
                    untried = [action]
                else:
                    untried.append(action)
                continue
            avail = child.avail + 1
            child.avail = avail
            if untried is None:
                visits = child.visits
                score = child.value / visits + c * sqrt(log(avail) / visits)
                if score > best_score:
                    best_action, best_child, best_score = action, child, score
        if untried:
            action = untried[int(self.rng.random() * len(untried))]
            child = Node()
            child.avail = 1
            node.children[action] = child
            return action, child, True
        assert best_child is not None
        return best_action, best_child, False

    def _select_puct(self, node: Node, state: Any, actor: int, actions: list[Any]) -> tuple[Any, Node, bool]:
        children = node.children
        missing = [a for a in actions if a not in children]
        if missing:
            weights = self.game.priors(state, actor, actions) or [1.0] * len(actions)
            total = sum(weights) or 1.0
            for action, weight in zip(actions, weights, strict=True):
                if action not in children:
                    children[action] = Node(weight / total)
        # counts in units of an iteration that stopped at an edge: one that went on weighs more
        heavier = 1.0 / self.stop_weight - 1.0
        counted = 0.0
        won = 0.0
        for action in actions:
            child = children[action]
            child.avail += 1
            if child.visits:
                counted += child.visits + heavier * child.passes
                won += child.value
        c = self.budget.exploration * self.puct_scale * math.sqrt(counted + 1.0)
        # first-play urgency: an untried edge is worth what this seat's tried edges average here
        fpu = won / counted if counted else 0.5
        best = None
        best_score = -math.inf
        for action in actions:
            child = children[action]
            if child.visits:
                count = child.visits + heavier * child.passes
                score = child.value / count + c * child.prior / (count + 1.0)
            else:
                score = fpu + c * child.prior
            if score > best_score:
                best, best_score = action, score
        child = children[best]
        return best, child, child.visits == 0

    def _rollout(self, state: Any) -> list[float]:
        game = self.game
        rng = self.rng
        if not self.has_eval:
            if self.fast_rollout:
                game.rollout(state, rng)
            else:
                while game.result(state) is None:
                    actors = game.to_act(state)
                    if not actors:
                        break
                    game.ai_play(state, actors[0], game.rollout_action(state, actors[0], rng))
            result = game.result(state)
            return final_rewards(result, self.seats) if result else [0.0] * self.seats
        self._cut_off_rollout(state)
        values = rewards(game, state, self.seats)
        return values if values is not None else [0.0] * self.seats

    def _cut_off_rollout(self, state: Any) -> None:
        """The rollout before the evaluation: the game's for this seat, of the search's depth."""
        self.game.rollout_for(state, self.seat, self.rng, self.depth)

    @staticmethod
    def _backprop(path: list[tuple[Node, int]], values: list[float]) -> None:
        for child, actor in path:
            child.visits += 1
            child.value += values[actor]
