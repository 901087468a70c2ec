"""Commands that show things: the games, help, rules, the table's status, the board, a hand, moves."""

from __future__ import annotations

from bazaarbot.commands.context import Context
from bazaarbot.commands.local_names import name_phrase
from bazaarbot.commands.registry import REGISTRY, command
from bazaarbot.delivery import PagingTransport
from bazaarbot.i18n import N_, _, language
from bazaarbot.messages import Outgoing
from bazaarbot.plugin import GamePlugin
from bazaarbot.words.counts import players_label


@command("games", N_("list the games this bot can run"), aliases=("list", "spiele", "juegos"), table=False)
def games(ctx: Context) -> list[Outgoing]:
    listed = "; ".join(
        f"{g.name} ({g.title}, {players_label(g)})"
        for g in sorted(ctx.host.games.values(), key=lambda g: g.name)
    )
    return [ctx.show(_("Games: {listed}. Choose one with /new <game>.").format(listed=listed))]


def _game_of(ctx: Context) -> GamePlugin | None:
    """The game the speaker is most likely asking about: the channel's table, or the one they sit at."""
    table = ctx.host.table_at(ctx.network, ctx.channel) if ctx.channel else None
    if table is None:
        seated = ctx.host.seated_tables(ctx.network, ctx.user.key)
        if len(seated) == 1:
            table = seated[0]
    if table is not None:
        return table.plugin
    return ctx.host.games.get(ctx.host.default_game())


@command(
    "help",
    N_("this help"),
    args=N_("[command|moves]"),
    aliases=("commands", "hilfe", "ayuda"),
    table=False,
)
def help_(ctx: Context) -> list[Outgoing]:
    if not ctx.args:
        return [ctx.tell(REGISTRY.overview(), listing=True)]
    word = ctx.args[0].lower().lstrip("/!")
    if REGISTRY.lookup(word) is REGISTRY.lookup("moves") or word in ctx.host.games:
        game = ctx.host.games.get(word) or _game_of(ctx)
        if game is not None:
            with language(ctx.host.person_language(ctx.network, ctx.user.key)):
                text = f"{game.title}: " + (game.command_help or game.rules_summary)
            return [ctx.tell(text, listing=True)]
    spec = REGISTRY.lookup(word)
    if spec is not None:
        return [ctx.tell(spec.explain())]
    near = REGISTRY.nearest(word)
    return [
        ctx.tell(
            _("No help on {word!r}.").format(word=word[:30])
            + (_(" Did you mean /{near}?").format(near=name_phrase(near)) if near else "")
        )
    ]


@command(
    "rules",
    N_("a summary of a game's rules"),
    args=N_("<game>"),
    aliases=("regeln", "reglas"),
    table=False,
)
def rules(ctx: Context) -> list[Outgoing]:
    if not ctx.args or ctx.args[0].lower() not in ctx.host.games:
        return [
            ctx.tell(
                _("Which game? /rules <game>, one of: {games}.").format(
                    games=", ".join(sorted(ctx.host.games))
                )
            )
        ]
    game = ctx.host.games[ctx.args[0].lower()]
    return [ctx.tell(game.rules_summary or game.title, listing=True)]


@command(
    "status",
    N_("who sits here, which game, whose turn"),
    aliases=("players", "who", "state", "stand", "estado"),
)
def status(ctx: Context) -> list[Outgoing]:
    with language(_private_reader(ctx)):  # a private answer is built whole in its reader's language
        return [ctx.show(ctx.the_table().status())]


@command("board", N_("show the whole board"), aliases=("show", "brett", "tablero"))
def board(ctx: Context) -> list[Outgoing]:
    with language(_private_reader(ctx)):
        table = ctx.the_table()
        return [ctx.show(table.board(), board=table.running)]


def _private_reader(ctx: Context) -> str | None:
    """The language of a private answer's reader (None: a channel answer keeps the channel's)."""
    return ctx.host.person_language(ctx.network, ctx.user.key) if ctx.channel is None else None


@command("hand", N_("re-send your private view (your hand) to you"), aliases=("cards", "karten", "mano"))
def hand(ctx: Context) -> list[Outgoing]:
    return ctx.the_table().hand(ctx.actor)


@command(
    "moves",
    N_("your legal moves now (all: every one, exactly as you can type it)"),
    args=N_("[all [word]]"),
    aliases=("move", "zuege", "züge", "movimientos", "jugadas"),
    details=N_("/moves all take lists only the commands with that word in them."),
)
def moves(ctx: Context) -> list[Outgoing]:
    full = bool(ctx.args) and ctx.args[0].lower() == "all"
    word = " ".join(ctx.args[1:]) if full else ""
    return ctx.the_table().moves(ctx.actor, full, word)


@command(
    "more",
    N_("the next page of a long answer"),
    aliases=("mehr", "más", "mas"),
    table=False,
    details=N_("On IRC a long private answer comes a page at a time; a new answer replaces what was left."),
)
def more(ctx: Context) -> list[Outgoing]:
    transport = ctx.host.transport(ctx.network)
    with language(ctx.host.person_language(ctx.network, ctx.user.key)):  # the page's "(n more lines)"
        if isinstance(transport, PagingTransport) and transport.next_page(ctx.nick, ctx.user.key):
            return []
    return [ctx.tell(_("Nothing more to show."))]
