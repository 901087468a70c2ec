"""Ratings per game (openskill), derived from the results in the store and rebuilt from them at will.

May import: ``i18n``, ``plugin``, ``store``, ``table``.
"""

from bazaarbot.ratings.identity import AI_SHARE_LIMIT, identity_of
from bazaarbot.ratings.model import Rating
from bazaarbot.ratings.service import Ratings, record_result

__all__ = ["AI_SHARE_LIMIT", "Rating", "Ratings", "identity_of", "record_result"]
