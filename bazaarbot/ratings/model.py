"""The rating model: openskill's Plackett-Luce, one match at a time, ties as ties.

All the rating arithmetic is openskill's; this module only turns a game's
ranks into an openskill call and its answer back into plain numbers that
sqlite stores exactly, so a rebuild computes the very same floats.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

#: the one model every game is rated with (see docs/ratings.md for why Plackett-Luce)
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """A skill estimate: ``mu`` the mean, ``sigma`` its uncertainty."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """openskill's ordinal, mu - 3 sigma: the skill we are fairly sure of, used to rank."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())


def initial() -> Rating:
    """The rating of somebody who has played no rated game."""
    fresh = MODEL.rating()
    return Rating(float(fresh.mu), float(fresh.sigma))


def rate(before: list[Rating], ranks: list[int]) -> list[Rating]:
    """New ratings after one game; ``ranks[i]`` is seat i's place (1 best, equal ranks tie)."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(float(team[0].mu), float(team[0].sigma)) for team in after]
