"""The language of each line and each reader, as the hub answers it (the choices live in ``i18n.readers``).

The config's languages per network and channel, a table's ``/lang channel``,
a person's ``/lang``, and for a private line the language of the table it is
routed to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bazaarbot.i18n.readers import ReaderLanguages
from bazaarbot.pipeline.reading import Line
from bazaarbot.table import Table


@dataclass
class LanguageChoices:
    """Which language a line is built in and a reader gets, from the hub's tables and preferences."""

    tables: dict[tuple[str, str], Table]
    languages: ReaderLanguages
    #: the channel's table, or the one table a private speaker sits at (the hub's lookup)
    only_table: Callable[[str, str | None, str], Table | None]

    def channel_language(
        self, network: str, channel: str, settings: dict[str, str] | None = None
    ) -> str | None:
        """A channel's language: its /lang channel, the config's channel, network; None: bot default."""
        if settings is None:
            table = self.tables.get((network, channel.lower()))
            settings = table.settings if table is not None else {}
        return self.languages.channel(network, channel, settings)

    def person_language(self, network: str, key: str) -> str | None:
        """The language a person chose with /lang (None: they hear the channel's)."""
        return self.languages.person(network, key)

    def line_language(self, line: Line) -> str | None:
        """A line's language: its channel's, or for a private line its table's or the speaker's."""
        if line.channel is not None:
            return self.channel_language(line.network, line.channel)
        named = [w for w in line.text.split(None, 2)[:2] if w.startswith(("#", "&"))]
        table = self.tables.get((line.network, named[0].lower())) if named else None
        if table is None:
            table = self.only_table(line.network, None, line.user.key)
        if table is not None:
            return self.languages.channel(line.network, table.channel, table.settings)
        return self.languages.speaker(line.network, line.user.key)
