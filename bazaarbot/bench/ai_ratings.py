"""Rating benchmark games: what ``bazaarbot bench ai --record`` files, and the AI ratings it prints."""

from __future__ import annotations

from collections.abc import Callable

from bazaarbot.plugin import GamePlugin, Result
from bazaarbot.ratings.identity import AI_NETWORK, is_ai
from bazaarbot.ratings.service import Ratings, record_result
from bazaarbot.ratings.text import rating_text
from bazaarbot.store import Store


def recorder(store: Store, game: GamePlugin, seed: int = 0) -> Callable[[list[str], Result], None]:
    """A callback for the benchmark: each game's seat keys and result, filed and rated."""

    def record(keys: list[str], result: Result) -> None:
        record_result(store, game, keys, result, seed=seed)

    return record


def ai_ratings_line(store: Store, game: GamePlugin) -> str:
    """The AI levels' (and baselines') ratings in ``game``, the strongest first."""
    ratings = Ratings(store, min_games=1)
    levels = [s for s in ratings.records.rated(AI_NETWORK, game.name, 1) if is_ai(s.identity)]
    levels.sort(key=lambda s: (-s.rating.conservative, s.identity))
    listed = ", ".join(
        f"{s.identity} {rating_text(s.rating)} ({s.games} games, {s.rating.conservative:.1f} ranked)"
        for s in levels
    )
    return f"AI ratings at {game.title}: {listed or 'none yet'}"
