"""Every table and bot command, declared once next to its handler.

A declaration names the command, its aliases, where it may be used, who may
use it, its arguments and its help line. The hub's parsing, its permission
check, the "did you mean" suggestion and ``/help`` are all built from these
declarations, so adding a command is one ``@command(...)`` and one function.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bazaarbot.commands.context import Context
from bazaarbot.commands.local_names import listed_name
from bazaarbot.i18n import _, phrase
from bazaarbot.messages import Outgoing
from bazaarbot.text.commandmark import command as named
from bazaarbot.text.commandmark import declare


class Where(enum.Enum):
    """Where a command may be said."""

    ANYWHERE = "anywhere"
    CHANNEL = "channel"
    PRIVATE = "private"


class Who(enum.IntEnum):
    """Who may use a command; each level includes the checks of the ones below it."""

    ANYONE = 0
    #: sits at the table (in the lobby or in the running game)
    SEATED = 1
    #: the table's host (or an admin)
    HOST = 2
    #: a bot admin
    ADMIN = 3


Handler = Callable[[Context], list[Outgoing]]


@dataclass(frozen=True)
class CommandSpec:
    """One command's declaration."""

    name: str
    handler: Handler
    #: what it does, one short sentence (``/help`` shows ``/name args - summary``)
    summary: str
    #: the arguments as shown in help, e.g. ``<game> [option=value ...]``
    args: str = ""
    aliases: tuple[str, ...] = ()
    where: Where = Where.ANYWHERE
    who: Who = Who.ANYONE
    #: acts on one table: the channel's, or for a private line the one table the user sits at
    table: bool = True
    #: more that ``/help <command>`` explains
    details: str = ""
    #: listed by ``/help``; False for aliases of habit that would only clutter the list
    listed: bool = True

    def usage(self) -> str:
        """``/name args - summary``, translated."""
        head = named(self.name) + (" " + _(self.args) if self.args else "")
        return f"{head} - {_(self.summary)}"

    def explain(self) -> str:
        """The full help of one command: usage, who may use it, where, aliases, details."""
        parts = [self.usage()]
        if self.who is Who.SEATED:
            parts.append(_("For players seated at the table."))
        elif self.who is Who.HOST:
            parts.append(_("For the table's host or an admin."))
        elif self.who is Who.ADMIN:
            parts.append(_("For admins."))
        if self.where is Where.CHANNEL:
            parts.append(_("Say it in the table's channel."))
        elif self.where is Where.PRIVATE:
            parts.append(_("Say it privately to the bot."))
        if self.aliases:
            parts.append(_("Also: {aliases}.").format(aliases=", ".join(named(a) for a in self.aliases)))
        if self.details:
            parts.append(_(self.details))
        return " ".join(parts)


class Registry:
    """The declared commands and their aliases."""

    def __init__(self) -> None:
        self.specs: dict[str, CommandSpec] = {}
        self.aliases: dict[str, str] = {}

    def command(
        self,
        name: str,
        summary: str,
        *,
        args: str = "",
        aliases: tuple[str, ...] = (),
        where: Where = Where.ANYWHERE,
        who: Who = Who.ANYONE,
        table: bool = True,
        details: str = "",
        listed: bool = True,
    ) -> Callable[[Handler], Handler]:
        """Declare the decorated function as the handler of ``/name``."""

        def register(handler: Handler) -> Handler:
            if name in self.specs or name in self.aliases:
                raise ValueError(f"command /{name} is declared twice")
            for alias in aliases:
                if alias in self.specs or alias in self.aliases:
                    raise ValueError(f"alias /{alias} is declared twice")
            self.specs[name] = CommandSpec(
                name, handler, summary, args, aliases, where, who, table, details, listed
            )
            for alias in aliases:
                self.aliases[alias] = name
            declare(name, *aliases)
            return handler

        return register

    def __iter__(self) -> Iterator[CommandSpec]:
        return iter(self.specs.values())

    def __contains__(self, name: object) -> bool:
        return name in self.specs

    def lookup(self, word: str) -> CommandSpec | None:
        """The command a typed word names (a name or an alias), else None."""
        word = word.lower()
        return self.specs.get(self.aliases.get(word, word))

    def nearest(self, word: str) -> str | None:
        """The declared command closest to a mistyped word, only when it is really close."""
        word = word.lower()
        candidates = [*self.specs, *self.aliases]
        for candidate in candidates:  # a swapped pair of letters is the commonest slip
            if len(candidate) == len(word) and sorted(candidate) == sorted(word) and len(word) > 2:
                return self.aliases.get(candidate, candidate)
        close = difflib.get_close_matches(word, candidates, n=1, cutoff=NEAR_CUTOFF)
        if not close:
            return None
        return self.aliases.get(close[0], close[0])

    def overview(self) -> str:
        """The ``/help`` list: every listed command's name (in the reader's language first, then English)."""
        listed = [spec.name for spec in self if spec.listed]
        names = phrase(lambda lang: " ".join(listed_name(name, lang) for name in listed))
        return _(
            "Commands: {names}. In a game, type moves as plain words "
            "(/help moves). /help <command> for one command."
        ).format(names=names)


#: how alike a typo and a command must be (difflib ratio) before the command is suggested
NEAR_CUTOFF = 0.6

#: the bot's commands; handler modules add to it when imported (see ``bazaarbot.commands``)
REGISTRY = Registry()
command = REGISTRY.command
