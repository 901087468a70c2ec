"""Ratings commands: a player's record, the best players of a game, the last games played."""

from __future__ import annotations

from collections.abc import Callable

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import command
from bazaarbot.i18n import N_, _, lines_of
from bazaarbot.messages import Outgoing
from bazaarbot.ratings import identity_of
from bazaarbot.ratings.identity import is_ai
from bazaarbot.ratings.text import history_lines, stats_line, top_lines

#: an answer longer than this (or of several lines) said in a channel goes privately instead
SHORT_ANSWER = 200

#: games ``/history`` lists
HISTORY_GAMES = 5

#: places ``/top`` lists
TOP_PLACES = 5

#: a nick asked about is cut to this length (no nick on any network is longer)
NICK_SHOWN = 32


def _answer(ctx: Context, lines: list[str]) -> list[Outgoing]:
    """One short line where it was asked; anything longer privately, as a listing."""
    if len(lines) == 1 and len(lines[0]) <= SHORT_ANSWER:
        return [ctx.show(lines[0])]
    return [ctx.tell(lines_of(lines), listing=True)]


def _titles(ctx: Context) -> dict[str, str]:
    return {name: game.title for name, game in ctx.host.games.items()}


def _table_game(ctx: Context) -> str:
    """The game of the channel's table (or of the one table the speaker sits at), else the default."""
    table = ctx.host.table_at(ctx.network, ctx.channel) if ctx.channel else None
    if table is None:
        seated = ctx.host.seated_tables(ctx.network, ctx.user.key)
        if len(seated) == 1:
            table = seated[0]
    return table.game_name if table is not None else ctx.host.default_game()


def _identity(ctx: Context, nick: str | None) -> Callable[[], tuple[str, str]]:
    """(identity, shown name) of ``nick``, or of the speaker when no nick is given.

    A nick seated here is the identity of its seat; otherwise the rated
    identity last seen under that nick (an account's first), else the key of
    the last seat taken under it (a game its player left is not rated), else the bare nick.
    The tables are asked now; the records (the returned call) once read off the loop.
    """
    if nick is None:
        return lambda: (ctx.user.key, ctx.nick)
    nick = nick[:NICK_SHOWN]
    if is_ai(nick.lower()):
        return lambda: (identity_of(nick.lower()), nick.lower())
    seated = ctx.host.seated_key(ctx.network, nick)
    if seated is not None:
        return lambda: (seated, nick)
    network, ratings = ctx.network, ctx.host.ratings

    def recorded() -> tuple[str, str]:
        found = ratings.identity_called(network, nick)
        return (found or "n:" + nick.lower()), nick

    return recorded


def _unknown_game(ctx: Context, word: str) -> list[Outgoing]:
    return [
        ctx.tell(
            _("There is no game called {name}. Try one of: {known}.").format(
                name=word[:30], known=", ".join(sorted(ctx.host.games))
            )
        )
    ]


@command(
    "stats",
    N_("games, wins, rating and last game of a player"),
    args=N_("[nick] [game]"),
    aliases=("rating", "stat", "statistik", "estadisticas", "estadísticas"),
    table=False,
    details=N_("With no nick, your own. The rating is shown as mean±uncertainty."),
)
def stats(ctx: Context) -> list[Outgoing]:
    args = list(ctx.args[:2])
    game: str | None = None
    if args and args[-1].lower() in ctx.host.games:
        game = args.pop().lower()
    if len(args) > 1:
        return _unknown_game(ctx, args[1])
    who = _identity(ctx, args[0] if args else None)
    ratings = ctx.host.ratings

    def answer() -> list[Outgoing]:
        identity, shown = who()
        if game is None:
            standings = ratings.standings_of(ctx.network, identity)
        else:
            one = ratings.standing(ctx.network, game, identity)
            standings = [one] if one is not None else []
        return _answer(ctx, [stats_line(shown, standings, _titles(ctx))])

    return ctx.after_commit(answer)


@command(
    "top",
    N_("the best players of a game"),
    args=N_("[game]"),
    aliases=("best", "ranking", "leaderboard", "bestenliste", "mejores"),
    table=False,
    details=N_("Ranked by rating minus three times its uncertainty, among players with enough rated games."),
)
def top(ctx: Context) -> list[Outgoing]:
    game = ctx.args[0].lower() if ctx.args else _table_game(ctx)
    if game not in ctx.host.games:
        return _unknown_game(ctx, game)
    ratings, title = ctx.host.ratings, ctx.host.games[game].title
    return ctx.after_commit(
        lambda: _answer(ctx, top_lines(title, ratings.top(ctx.network, game, TOP_PLACES), ratings.min_games))
    )


@command(
    "history",
    N_("the last games of a player, with the id bazaarbot export takes"),
    args=N_("[nick]"),
    aliases=("last", "verlauf", "historial"),
    table=False,
)
def history(ctx: Context) -> list[Outgoing]:
    who, ratings = _identity(ctx, ctx.args[0] if ctx.args else None), ctx.host.ratings

    def answer() -> list[Outgoing]:
        identity, shown = who()
        games = ratings.history(ctx.network, identity, HISTORY_GAMES)
        return _answer(ctx, history_lines(shown, games, _titles(ctx)))

    return ctx.after_commit(answer)
