"""Which language a line is built in, and which language each reader gets.

Public lines are in the channel's language: the table's ``/lang channel``,
else the config's channel, else the network's, else the bot's default (None
here). A private line is in the language of the table it is routed to, else
the speaker's; a private answer is rendered again in its reader's ``/lang``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bazaarbot.i18n import normalize_language

#: (network, identity or channel, preference name) -> value, as the store keeps them
Prefs = dict[tuple[str, str, str], str]


@dataclass
class ReaderLanguages:
    """The language choices of the config and of the people (their stored ``lang`` preference)."""

    prefs: Prefs = field(default_factory=dict)
    #: the config's language per network
    network_languages: dict[str, str] = field(default_factory=dict)
    #: the config's language per (network, lower-case channel)
    channel_languages: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (network, identity) -> the language their chat client says it shows (a Discord locale): theirs
    #: until they choose with /lang
    clients: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def configured(
        cls,
        prefs: Prefs,
        network_languages: dict[str, str] | None,
        channel_languages: dict[tuple[str, str], str] | None,
    ) -> ReaderLanguages:
        """From the config's maps (channels in any case)."""
        channels = {(net, chan.lower()): lang for (net, chan), lang in (channel_languages or {}).items()}
        return cls(prefs, dict(network_languages or {}), channels)

    def channel(self, network: str, channel: str, settings: dict[str, str]) -> str | None:
        """A channel's language given its table's settings; None: the bot's default.

        Every line and view asks, and most channels choose nothing: an unset choice is passed over
        without normalising it."""
        choices = (
            settings.get("lang"),
            self.channel_languages.get((network, channel.lower())),
            self.network_languages.get(network),
        )
        for chosen in choices:
            if chosen and (found := normalize_language(chosen)):
                return found
        return None

    def person(self, network: str, key: str) -> str | None:
        """The language a person chose with /lang, else their client's (None: they hear the channel's)."""
        chosen = self.prefs.get((network, key, "lang"))
        return (chosen and normalize_language(chosen)) or self.clients.get((network, key))

    def client_says(self, network: str, key: str, tag: str | None) -> None:
        """A person's chat client names its language (``de``, ``es-ES``): a language the bot speaks
        is theirs until they choose; any other leaves them the channel's."""
        found = normalize_language(tag)
        if found is None:
            self.clients.pop((network, key), None)
        else:
            self.clients[(network, key)] = found

    def speaker(self, network: str, key: str) -> str | None:
        """A private line that reaches no table: the speaker's language, else the network's."""
        return self.person(network, key) or normalize_language(self.network_languages.get(network))
