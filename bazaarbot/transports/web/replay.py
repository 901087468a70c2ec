"""The replay routes: ``/replay/<game-id>`` (the page) and ``/replay/<game-id>/data`` (its JSON).

The data is ``HubPort.replay_view``, worded in the language the page asks
for (``?lang=de``): a finished game's public board after every step and,
once reviewed, each player's win-chance line. A running game answers only
that it cannot be replayed yet, so a spectator learns nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from bazaarbot.i18n import language
from bazaarbot.text.digits import number
from bazaarbot.transports.base import HubPort

STATIC = Path(__file__).parent / "static"


def _game_id(request: web.Request) -> int:
    """The path's game id: ASCII digits (``digits.number``), else 404."""
    game_id = number(request.match_info["game_id"])
    if game_id is None:
        raise web.HTTPNotFound(text="No such game: a game id is a number (/history lists them).")
    return game_id


def add_replay_routes(
    app: web.Application,
    hub: Callable[[], HubPort | None],
    network: Callable[[], str],
    static_page: Callable[[str], web.StreamResponse] | None = None,
) -> None:
    """Serve the replay page and its data from ``hub`` (read when a request comes).

    ``static_page`` serves a page of ``static/`` as the transport does (its links under the base path).
    """

    async def page(request: web.Request) -> web.StreamResponse:
        _game_id(request)
        if static_page is not None:
            return static_page("replay.html")
        return web.FileResponse(STATIC / "replay.html")

    async def data(request: web.Request) -> web.Response:
        game_id = _game_id(request)
        port = hub()
        with language(request.query.get("lang", "")[:20]):  # the page's language: its board and move list
            where = network()
            view = await port.records(lambda: port.replay_view(where, game_id)) if port is not None else None
        if view is None:
            raise web.HTTPNotFound(text="No such game.")
        return web.json_response(view)

    app.router.add_get("/replay/{game_id}", page)
    app.router.add_get("/replay/{game_id}/data", data)
