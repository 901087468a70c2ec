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


def _game_id(request: web.Request) -> int | None:
    """The path's game id: ASCII digits (``digits.number``); None when it names no game."""
    return number(request.match_info["game_id"])


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
        # an address that names no game is a 404 still read as the page: in the reader's language,
        # saying where their finished games are listed, with a link back to the tables
        game_id, port, where = _game_id(request), hub(), network()
        found = (
            game_id is not None
            and port is not None
            and await port.records(lambda: port.has_game(where, game_id))
        )
        status = 200 if found else 404
        if static_page is None:
            return web.FileResponse(STATIC / "replay.html", status=status)
        response = static_page("replay.html")
        response.set_status(status)
        return response

    async def data(request: web.Request) -> web.Response:
        game_id = _game_id(request)
        if game_id is None:
            raise web.HTTPNotFound(text="No such game: a game's number is its id.")
        port = hub()
        with language(request.query.get("lang", "")[:20]):  # the page's language: its board and move list
            where = network()
            view = await port.records(lambda: port.replay_view(where, game_id)) if port is not None else None
        if view is None:
            raise web.HTTPNotFound(text="No such game.")
        return web.json_response(view)

    app.router.add_get("/replay/{game_id}", page)
    app.router.add_get("/replay/{game_id}/data", data)
