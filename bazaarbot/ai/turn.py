"""``choose_turn``: the AI's command, and its next decisions in the same turn from the same tree.

After an AI seat's move it is often that seat's decision again (Yspahan:
take the dice, then place the cubes, then build or pass). When the move
revealed nothing (no die rolled, no card drawn: every re-deal of what the
seat could not see gives the same position, as far as the seat can tell),
the subtree under the chosen move was grown from exactly the information the
seat has at its next decision. That decision is made from it: read from it
when it holds at least ``FOLLOW_UP_SHARE`` of the budget's iterations, and
else searched on from it (the subtree as the new root) until it does. This is
the reuse of the previous decision's tree, done in the worker that grew it; a
later decision costs the share's iterations at most instead of a whole search.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any

from bazaarbot.plugin import GamePlugin, MoveError

from .choose import choose_action, game_named, resolve_level
from .ismcts import Search, SearchBudget
from .levels import Level
from .node import Node
from .prepared import position_key

#: the share of a level's iterations a later decision in the turn is made from: the subtree
#: below it in the turn's tree, searched on from that decision's position when it holds fewer
FOLLOW_UP_SHARE = 1 / 3
#: re-deals that must all agree, as the seat sees them, for a move to count as revealing nothing
REDEALS = 4


@dataclass(frozen=True)
class Answer:
    """The command for the position asked about, and the seat's later answers in this turn."""

    command: str
    #: position key (``prepared.position_key``) -> command, for the seat's next decisions in this turn
    follow_ups: dict[str, str] = field(default_factory=dict)


def choose_turn(
    game_name: str | GamePlugin,
    state_json: dict[str, Any],
    seat: int,
    level: str,
    seed: int,
    levels: dict[str, Level] | None = None,
    top_up: bool = True,
) -> Answer:
    """``choose``'s command for this position (the same one), with the follow-ups its tree answers.

    ``top_up`` False answers a later decision only where the turn's tree already holds its share
    (as before subtrees were searched on; the benchmark's baseline ``afresh``).
    """
    game = game_name if isinstance(game_name, GamePlugin) else game_named(game_name)
    state = game.from_json(state_json)
    policy = resolve_level(level, levels)
    rng = random.Random(seed)
    actions = game.ai_actions(state, seat)
    if not isinstance(policy, Level) or policy.iterations <= 0 or len(actions) <= 1:
        action = choose_action(game, state, seat, level, rng, levels)
        return Answer(game.ai_command(state, seat, action))
    search = Search(game, state, seat, policy.budget(), rng)
    action = search.best_action()
    command = game.ai_command(state, seat, action)
    node = search.root.children.get(action)
    least = math.ceil(policy.iterations * FOLLOW_UP_SHARE)
    budget = policy.budget() if top_up else None
    follow_ups = _follow_ups(game, state, seat, level, action, command, node, least, budget, rng)
    return Answer(command, follow_ups)


def _follow_ups(
    game: GamePlugin,
    state: Any,
    seat: int,
    level: str,
    action: Any,
    command: str,
    node: Node | None,
    least: int,
    budget: SearchBudget | None,
    rng: random.Random,
) -> dict[str, str]:
    """Walk the tree along the chosen moves while the seat keeps deciding and nothing is revealed.

    A decision whose subtree holds fewer than ``least`` iterations is searched on from it up to
    ``least`` (with ``budget``'s time cap and rollouts); without a budget the walk ends there.
    """
    answers: dict[str, str] = {}
    played = game.clone(state)  # as the table plays it: the command, then its forced steps
    walked = game.clone(state)  # as the search walked it: one action per edge
    redeals = [game.determinize(state, seat, rng) for _i in range(REDEALS)]
    while node is not None and (budget is not None or node.visits >= least):
        try:
            game.apply(played, seat, game.parse(played, seat, command))
        except MoveError:
            return answers
        game.ai_play(walked, seat, action)
        for redeal in redeals:
            game.ai_play(redeal, seat, action)
        # the forced steps the table plays itself are one-action edges of the tree
        while game.result(walked) is None and game.to_act(walked) == [seat]:
            forced = game.ai_actions(walked, seat)
            if len(forced) != 1:
                break
            # (an edge no iteration reached yet starts empty: searched on from, or the walk ends)
            node = node.children.setdefault(forced[0], Node())
            game.ai_play(walked, seat, forced[0])
            for redeal in redeals:
                game.ai_play(redeal, seat, forced[0])
        if game.result(played) is not None or game.to_act(played) != [seat]:
            return answers
        played_json = game.to_json(played)
        if game.to_json(walked) != played_json or not _nothing_revealed(game, walked, redeals, seat):
            return answers
        if node.visits < least:
            if budget is None:
                return answers
            more = replace(budget, iterations=least - node.visits)
            Search(game, walked, seat, more, rng, root=node).run(game.ai_actions(walked, seat))
        action = _most_visited(game.ai_actions(walked, seat), node)
        if action is None:
            return answers
        command = game.ai_command(walked, seat, action)
        answers[position_key(played_json, seat, level)] = command
        node = node.children[action]
    return answers


def _nothing_revealed(game: GamePlugin, state: Any, redeals: list[Any], seat: int) -> bool:
    """Whether every re-deal looks like ``state`` to ``seat`` (no die, no card it could not foresee)."""
    public = game.public_data(state)
    private = game.private_data(state, seat)
    return all(game.public_data(r) == public and game.private_data(r, seat) == private for r in redeals)


def _most_visited(actions: list[Any], node: Node) -> Any:
    """As ``Search.best_action``: the most visited legal child (ties: the better mean); None if untried."""
    best = None
    best_key = (0, -1.0)
    for action in actions:
        child = node.children.get(action)
        if child is not None and (child.visits, child.mean()) > best_key:
            best, best_key = action, (child.visits, child.mean())
    return best
