"""Stage 7: every message to the transport of its network; one failing send stops no other."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bazaarbot.delivery import Transport
from bazaarbot.i18n import language
from bazaarbot.messages import Outgoing
from bazaarbot.pipeline.localize import Localizer

log = logging.getLogger(__name__)


async def deliver(
    transports: Mapping[str, Transport], localizer: Localizer, messages: list[Outgoing]
) -> None:
    """Hand each message to its transport, in order, inside its reader's language.

    The language block covers what a transport adds itself (a pager's
    ``(N more lines: /more)``).
    """
    for message in messages:
        transport = transports.get(message.network)
        if transport is None:
            log.warning("no transport for network %s", message.network)
            continue
        try:
            with language(localizer.reader_language(message)):
                await transport.send(message)
        except Exception:
            log.exception("sending to %s failed", message.network)
