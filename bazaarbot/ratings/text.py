"""The sentences about ratings: the line after a rated game, /stats, /top, /history."""

from __future__ import annotations

import time

from bazaarbot.i18n import _, in_each_language, ngettext
from bazaarbot.ratings.identity import is_ai
from bazaarbot.ratings.model import Rating
from bazaarbot.ratings.records import Change, PastGame, Standing
from bazaarbot.table.ai_names import ai_name, level_word


def rating_text(rating: Rating) -> str:
    """``27.3±2.1``: the mean and its uncertainty (one sigma)."""
    return f"{rating.mu:.1f}±{rating.sigma:.1f}"


def date_text(stamp: float) -> str:
    """A day in UTC, the same for everybody in the channel."""
    return time.strftime("%Y-%m-%d", time.gmtime(stamp))


def who(standing: Standing) -> str:
    """How a rated identity is shown: the nick, or the AI level."""
    if is_ai(standing.identity):
        return _("AI {level}").format(level=level_word(standing.identity.split(":", 1)[1]))
    return standing.nick


def changes_line(title: str, changes: list[Change], nicks: dict[int, str]) -> str | None:
    """``Ratings (Jaipur): alice 27.6 (+2.6), bob 22.4 (-2.6).`` or None when nobody was rated."""
    rated = [c for c in changes if c.rated]
    if not rated:
        return None
    parts = [
        _("{nick} {rating} ({change})").format(
            nick=nicks.get(c.seat, c.identity),
            rating=f"{c.after.mu:.1f}",
            change=f"{c.after.mu - c.before.mu:+.1f}",
        )
        for c in rated
    ]
    line = _("Ratings ({game}): {changes}.").format(game=title, changes=", ".join(parts))
    left_out = [nicks.get(c.seat, c.identity) for c in changes if not c.rated]
    if left_out:
        line += " " + _("Not rated (played mostly by another player or an AI): {nicks}.").format(
            nicks=", ".join(left_out)
        )
    return line


def _wins(games: int, wins: int) -> str:
    share = round(100 * wins / games) if games else 0
    return (
        ngettext("{n} game", "{n} games", games).format(n=games)
        + ", "
        + ngettext("{n} win", "{n} wins", wins).format(n=wins)
        + f" ({share}%)"
    )


def stats_line(nick: str, standings: list[Standing], titles: dict[str, str]) -> str:
    """``/stats``: every game of one identity, or one game in detail."""
    if not standings:
        return _("{nick} has no rated games yet.").format(nick=nick)
    last = max(s.last_played for s in standings)
    if len(standings) == 1:
        s = standings[0]
        return _(
            "{nick} at {game}: {record}, rating {rating} ({conservative} for /top), last played {date}."
        ).format(
            nick=nick,
            game=titles.get(s.game, s.game),
            record=_wins(s.games, s.wins),
            rating=rating_text(s.rating),
            conservative=f"{s.rating.conservative:.1f}",
            date=date_text(last),
        )
    games = sum(s.games for s in standings)
    wins = sum(s.wins for s in standings)
    best = max(standings, key=lambda s: (s.rating.conservative, s.games))
    per_game = ", ".join(
        _("{game} {rating} ({n})").format(
            game=titles.get(s.game, s.game),
            rating=rating_text(s.rating),
            n=ngettext("{n} game", "{n} games", s.games).format(n=s.games),
        )
        for s in standings
    )
    return _("{nick}: {record}; {per_game}; best game {best}; last played {date}.").format(
        nick=nick,
        record=_wins(games, wins),
        per_game=per_game,
        best=titles.get(best.game, best.game),
        date=date_text(last),
    )


def top_lines(title: str, standings: list[Standing], min_games: int) -> list[str]:
    """``/top``: a heading and one line per place."""
    if not standings:
        return [
            ngettext(
                "Nobody is ranked at {game} yet (it takes {n} rated game).",
                "Nobody is ranked at {game} yet (it takes {n} rated games).",
                min_games,
            ).format(game=title, n=min_games)
        ]
    lines = [_("Best at {game} (by rating minus three times its uncertainty):").format(game=title)]
    for place, s in enumerate(standings, start=1):
        lines.append(
            _("{place}. {who} {conservative} ({rating}, {games})").format(
                place=place,
                who=who(s),
                conservative=f"{s.rating.conservative:.1f}",
                rating=rating_text(s.rating),
                games=ngettext("{n} game", "{n} games", s.games).format(n=s.games),
            )
        )
    return lines


def history_lines(nick: str, games: list[PastGame], titles: dict[str, str]) -> list[str]:
    """``/history``: one line per game, the latest first, with the id ``bazaarbot export`` and
    ``/review`` take and, for a finished game, its web replay's path."""
    if not games:
        return [_("{nick} has no finished games yet.").format(nick=nick)]
    lines = []
    for game in games:
        players = in_each_language(
            lambda game=game: ", ".join(
                f"{ai_name(name)} {_score(score)}" for name, score, _won in game.players
            )
        )
        if game.status == "abandoned":
            outcome = _("abandoned")
        else:
            winners = [name for name, _score_, won in game.players if won]
            if not winners:  # the best seat did not play to the end: nobody is credited with the win
                outcome = _("no win credited")
            elif len(winners) == 1:
                outcome = _("{nick} won").format(nick=ai_name(winners[0]))
            else:
                outcome = _("shared by {nicks}").format(
                    nicks=in_each_language(lambda winners=winners: ", ".join(ai_name(w) for w in winners))
                )
        lines.append(
            _("game {id}, {date}, {game}: {players} - {outcome}").format(
                id=game.id,
                date=date_text(game.ended),
                game=titles.get(game.game, game.game),
                players=players,
                outcome=outcome,
            )
            + (f" - /replay/{game.id}" if game.status == "finished" else "")
        )
    return lines


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
