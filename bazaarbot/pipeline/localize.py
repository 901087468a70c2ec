"""Stage 6: each private line in its reader's language and the form they asked for (NOTICE, colours).

The reader of a ``Tell`` is its ``key`` when it names one, else the person
whose line it answers (when it goes to their nick), else whoever is seated
under its nick, else the bare nick's identity. An answer to the speaker is
given their key, so their ``/lang``, ``/notice`` and ``/colors`` hold whether they are
seated or not, and delivery renders what it adds in their language too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bazaarbot.i18n import localized_text
from bazaarbot.i18n.readers import ReaderLanguages
from bazaarbot.messages import Outgoing, Tell, User, evolved


@dataclass
class Localizer:
    """Renders private lines for their readers; public lines stay in the channel's language."""

    languages: ReaderLanguages
    #: (network, nick) -> the identity seated under that nick, else None
    key_of_nick: Callable[[str, str], str | None]

    def reader_key(self, message: Tell) -> str:
        return message.key or self.key_of_nick(message.network, message.nick) or "n:" + message.nick.lower()

    def reader_language(self, message: Outgoing) -> str | None:
        """The language a private line's reader chose (None for a channel line or no choice)."""
        if not isinstance(message, Tell):
            return None
        return self.languages.person(message.network, self.reader_key(message))

    def localize(self, messages: list[Outgoing], speaker: User | None = None) -> list[Outgoing]:
        """Every private line rendered again in its reader's language, as a NOTICE where they want one.

        ``speaker``: whose line these messages answer (None for a timer's or an AI's work).
        """
        out: list[Outgoing] = []
        for message in messages:
            if isinstance(message, Tell):
                changes: dict[str, Any] = {}
                if (
                    message.key is None
                    and speaker is not None
                    and message.nick.lower() == speaker.nick.lower()
                ):
                    changes["key"] = key = speaker.key
                else:
                    key = self.reader_key(message)
                lang = self.languages.person(message.network, key)
                if lang:
                    changes["text"] = localized_text(message.text, lang)
                if self.languages.prefs.get((message.network, key, "notice")) == "on":
                    changes["notice"] = True
                if self.languages.prefs.get((message.network, key, "colors")) == "on":
                    changes["colors"] = True
                if changes:
                    message = evolved(message, **changes)
            out.append(message)
        return out
