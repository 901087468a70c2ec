"""Stage 2, second half: may this person use this command here (its declared ``who``), is the table usable."""

from __future__ import annotations

from bazaarbot.commands import CommandSpec, Who
from bazaarbot.commands.local_names import name_phrase
from bazaarbot.i18n import _, ngettext
from bazaarbot.messages import Outgoing, Tell, User
from bazaarbot.store import Store
from bazaarbot.table import Actor, Table


def refusal(spec: CommandSpec, table: Table | None, actor: Actor) -> str | None:
    """Why ``actor`` may not use ``spec`` here, from its declared ``who``; None when they may."""
    if actor.is_admin or spec.who is Who.ANYONE:
        return None
    if spec.who is Who.ADMIN:
        return _("Only an admin can use /{name}.").format(name=name_phrase(spec.name))
    if table is None:
        return None
    if table.seat_of(actor.user.key) is None:
        return _("Only a seated player can use /{name}; /join first.").format(name=name_phrase(spec.name))
    if spec.who is Who.HOST and actor.user.key != table.host:
        return _("Only the host ({host}) or an admin can use /{name}.").format(
            host=table.host_nick(), name=name_phrase(spec.name)
        )
    return None


def paused_refusal(
    store: Store, table: Table, actor: Actor, spec: CommandSpec | None
) -> list[Outgoing] | None:
    """A table whose game cannot go on under the installed rules takes only /reset by an admin.

    That /reset ends the paused game as abandoned and lets the command go on.
    """
    if table.paused is None:
        return None
    if spec is not None and spec.name == "reset" and actor.is_admin:
        if table.game_id is not None:
            store.finish_game(table.game_id, "abandoned", None, [], table.paused)
        table.game_id = None
        table.paused = None
        return None
    return [table.say(table.paused)]


def seat_limit(network: str, user: User, seated: int, limit: int) -> Outgoing | None:
    """A refusal when one more seat would put somebody who sits at ``seated`` tables past ``limit``."""
    if seated < limit:
        return None
    return Tell(
        network,
        user.nick,
        ngettext(
            "You sit at {n} table already, the limit; /leave one first.",
            "You sit at {n} tables already, the limit; /leave one first.",
            limit,
        ).format(n=limit),
    )
