"""Which table a private line is for: named by a leading ``#channel``, or the only one of the speaker's."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bazaarbot.i18n import _
from bazaarbot.messages import Outgoing, Tell, User
from bazaarbot.table import Table


def private_target(
    tables: Mapping[tuple[str, str], Table],
    seated_tables: Callable[[str, str], list[Table]],
    use: Callable[[Table], Table],
    network: str,
    user: User,
    text: str,
    command: str = "",
) -> tuple[Table | list[Outgoing], str]:
    """(the table, the text without a leading #channel), or (what to tell the speaker, the text).

    ``command`` is the command said (``/hand``), for the example in the answer
    to somebody who sits at several tables.
    """
    first, _sep, rest = text.partition(" ")
    if first.startswith(("#", "&")):
        table = tables.get((network, first.lower()))
        if table is not None:
            use(table)
        if table is None or table.seat_of(user.key) is None:
            return [
                Tell(network, user.nick, _("You do not sit at a table in {channel}.").format(channel=first))
            ], rest
        return table, rest
    found = seated_tables(network, user.key)
    if not found:
        return [
            Tell(
                network,
                user.nick,
                _("You sit at no table. Say /join in a channel to sit down; /help lists the commands."),
            )
        ], text
    if len(found) > 1:
        names = ", ".join(t.channel for t in found)
        return [
            Tell(
                network,
                user.nick,
                _(
                    "You sit at several tables ({names}); start your line with the channel, e.g. {example}."
                ).format(
                    names=names,
                    example=(
                        f"{command} {found[0].channel}" if command else f"{found[0].channel} {text[:30]}"
                    ),
                ),
            )
        ], text
    return found[0], text
