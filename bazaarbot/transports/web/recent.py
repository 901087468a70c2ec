"""The list of the network's recent games: ``/history`` (the page) and ``/history/data`` (its JSON).

A replay's address names a game by its number; this page is where a reader finds those numbers
without a chat command: the network's last finished games, latest first, each linking to its
replay. The data is worded in the language the page asks for (``?lang=de``: an AI's name).
"""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from bazaarbot.i18n import language
from bazaarbot.transports.base import HubPort

#: how many finished games the page lists
RECENT_GAMES = 30


def add_recent_games_routes(
    app: web.Application,
    hub: Callable[[], HubPort | None],
    network: Callable[[], str],
    static_page: Callable[[str], web.StreamResponse],
) -> None:
    """Serve the recent games' page and its data from ``hub`` (read when a request comes)."""

    async def page(_request: web.Request) -> web.StreamResponse:
        return static_page("history.html")

    async def data(request: web.Request) -> web.Response:
        port = hub()
        if port is None:
            return web.json_response({"games": []})
        with language(request.query.get("lang", "")[:20]):
            where = network()
            games = await port.records(lambda: port.recent_games(where, RECENT_GAMES))
        return web.json_response({"games": games})

    app.router.add_get("/history", page)
    app.router.add_get("/history/data", data)
