"""Somebody came back to a chat network's room: the same steps on IRC and Matrix.

Their own pending leave ends (``HubPort.user_returned``), and a seated player is told their
private view again, since whatever they had of it may be gone with the old connection.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bazaarbot.messages import Outgoing, Tell, User
from bazaarbot.transports.base import HubPort


async def welcome_back(
    hub: HubPort | None,
    network: str,
    channel: str,
    user: User,
    send: Callable[[Outgoing], Awaitable[None]],
) -> None:
    """End ``user``'s pending leave and re-tell their hand in ``channel`` (nothing without a hub)."""
    if hub is None:
        return
    await hub.user_returned(network, user)
    view = hub.private_view(network, channel, user.key)
    if view:
        await send(Tell(network, user.nick, view, key=user.key))
