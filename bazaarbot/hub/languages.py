"""The language of each line and each reader, as the hub answers it (the choices live in ``i18n_readers``).

The hub mixes this in: the config's languages per network and channel, a
table's ``/lang channel``, a person's ``/lang``, and for a private line the
language of the table it is routed to.
"""

from __future__ import annotations

from bazaarbot.i18n.readers import ReaderLanguages
from bazaarbot.pipeline.reading import Line
from bazaarbot.table import Table


class LanguageChoices:
    """Which language a line is built in and a reader gets, from the hub's tables and preferences."""

    tables: dict[tuple[str, str], Table]
    languages: ReaderLanguages

    # and the hub's own ``only_table``

    @property
    def network_languages(self) -> dict[str, str]:
        """The config's language per network."""
        return self.languages.network_languages

    @network_languages.setter
    def network_languages(self, value: dict[str, str]) -> None:
        self.languages.network_languages = value

    @property
    def channel_languages(self) -> dict[tuple[str, str], str]:
        """The config's language per (network, lower-case channel); a table's /lang channel wins."""
        return self.languages.channel_languages

    @channel_languages.setter
    def channel_languages(self, value: dict[tuple[str, str], str]) -> None:
        self.languages.channel_languages = value

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

    def _line_language(self, line: Line) -> str | None:
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
