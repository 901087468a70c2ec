"""Teaching commands: ``/hint`` during a game (where the table allows it) and ``/review`` after one."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.registry import Who, command
from bazaarbot.i18n import N_
from bazaarbot.messages import Outgoing


@command(
    "hint",
    N_("the AI's best moves for your decision, privately"),
    aliases=("tip", "tipp", "pista"),
    who=Who.SEATED,
    details=N_(
        "Only at a table whose host chose hints=on (/new <game> hints=on, before /start); "
        "a game in which a hint was given is not rated."
    ),
)
def hint(ctx: Context) -> list[Outgoing]:
    return ctx.host.teacher.hint(ctx.the_table(), ctx.user)


@command(
    "review",
    N_("where your moves lost the most win chance in a finished game"),
    args=N_("[game-id]"),
    aliases=("analyse", "analyze", "análisis", "analisis"),
    table=False,
    details=N_(
        "With no number, your last finished game. The search judges each decision with only what "
        "you could see then; the web page's /replay/<game-id> draws the win chances."
    ),
)
def review(ctx: Context) -> list[Outgoing]:
    return ctx.host.teacher.review(ctx.network, ctx.user, ctx.args)
