"""Earlier versions of ``hard``, for paired matches, new against old.

``previous``: the search as it was before each edge counted an iteration once.

It differed in three ways: the descent added a visit to every node it selected
from (beside the backup's), so inner edges counted their iterations twice; the
exploration constant was tuned to that (0.7), with plain PUCT over the doubled
counts (``stop_weight`` 1; today's search reads the same numbers from its single
counts, so it chooses alike); and rollouts ran the level's full
depth at every table size, as random plies (``rollout_plies``, at five and six
Bazaar seats too). The plugins' faster rules play the same moves, so
only the search's choices differ: at Jaipur (PUCT, two seats) only in the move
played where one ends the match, which the old counts under-ranked.
Only the benchmark plays it (``--vs previous``).

``afresh``: today's search, with a turn's later decisions as they were made
before they were searched on from the turn's tree: read from it where its
subtree already held their share of the budget, else searched afresh. It only
differs as the bot plays (``--as-bot``), where a turn's decisions come from
``choose_turn``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bazaarbot.ai.ismcts import Search
from bazaarbot.ai.levels import DEFAULT_LEVELS, Level
from bazaarbot.ai.node import Node
from bazaarbot.plugin import GamePlugin

#: the policy name ``bench ai --level/--vs`` know it by
PREVIOUS = "previous"

#: the policy name of today's ``hard`` without searching on from the turn's tree (``--as-bot``)
AFRESH = "afresh"

#: the exploration constant the double counting was tuned with
PREVIOUS_EXPLORATION = 0.7


class PreviousSearch(Search):
    """``Search`` with the double count, the old constant, plain PUCT and the full rollout depth."""

    stop_weight = 1.0  # plain PUCT over the doubled counts, as it chose then
    puct_scale = 1.0  # at the budget's constant as it is (``PREVIOUS_EXPLORATION``)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.depth = self.budget.depth

    def _cut_off_rollout(self, state: Any) -> None:
        self.game.rollout_plies(state, self.rng, self.depth)  # before a game could roll out its own way

    def _settled(self, choices: list[Any], left: int) -> bool:
        # an iteration may count a root edge twice here, so one could gain two visits per iteration
        return super()._settled(choices, 2 * left)

    def _select(self, node: Node, state: Any, actor: int, actions: list[Any]) -> tuple[Any, Node, bool]:
        node.visits += 1  # the second count of an inner edge, as the descent passes it
        return super()._select(node, state, actor, actions)


def previous_action(
    game: GamePlugin, state: Any, seat: int, rng: random.Random, levels: dict[str, Level] | None = None
) -> Any:
    """The previous ``hard`` search's action for ``seat`` (the level's iterations and cap)."""
    actions = game.ai_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    hard = (levels or DEFAULT_LEVELS).get("hard", DEFAULT_LEVELS["hard"])
    budget = replace(hard.budget(), exploration=PREVIOUS_EXPLORATION)
    return PreviousSearch(game, state, seat, budget, rng).best_action()
