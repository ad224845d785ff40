"""The person's seat inside the Activity: the play page's own answers, opened by the session.

    GET  /activity/api/play/seat              the seat's part of the play page (HTML to put in the Activity's page)
    GET  /activity/api/play/live|moved        as the play page's
    POST /activity/api/play/compose|confirm|takeback   as the play page's (no X-Play-Token: the bearer session is the proof)
    GET  /activity/api/play/picture/<name>    as the play page's pictures

Each request's `Authorization: Bearer` session (activitytoken.py) is turned into the same
`Pass` a play link proves — the person's own seat, while the game runs — and handed to the
play page's handlers (`web/play.py`), so the Activity's answers for a person are their play
page's. No session (missing, forged, expired, revoked): 401 (the page asks Discord again);
a session of someone not seated, or a game over: 404, as a dead play link.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from aiohttp import web
from markupsafe import Markup

from ..play import Pass
from ..play.access import playable
from . import play
from .activityapi import opened, unauthorized
from .pages import render

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def _seat(request: web.Request) -> web.StreamResponse | None:
    """Put the session's seat where the play page's handlers look (None), or the refusal."""
    found = await opened(request)
    if found is None:
        return unauthorized()
    session, row = found
    if not playable(row, session.user_id):
        raise web.HTTPNotFound()
    request[play.PROVEN] = (Pass(row.id, session.user_id), row)
    return None


def _by_session(handler: Handler) -> Handler:
    async def opened(request: web.Request) -> web.StreamResponse:
        refusal = await _seat(request)
        return refusal if refusal is not None else await handler(request)

    return opened


async def seat(request: web.Request) -> web.StreamResponse:
    """The play page's seat (board, steps, hand, scores) as a fragment of the Activity's page."""
    refusal = await _seat(request)
    if refusal is not None:
        return refusal
    proven, row = request[play.PROVEN]
    language = await play.reader_of(request, row, proven.user_id)
    board = await play.play_of(request).compose(proven, row, language)
    data = json.dumps(board.to_json(), ensure_ascii=False).replace("<", "\\u003c").replace("&", "\\u0026")
    response = render(request, "play_seat.html", language, board=board, data=Markup(data), game_page=None, framed=True)
    response.headers["Cache-Control"] = "no-store"
    return response


def add_routes(app: web.Application, prefix: str) -> None:
    at = prefix + "/api/play"
    app.router.add_get(at + "/seat", seat)
    app.router.add_get(at + "/live", _by_session(play.live))
    app.router.add_post(at + "/compose", _by_session(play.compose))
    app.router.add_post(at + "/confirm", _by_session(play.confirm))
    app.router.add_post(at + "/takeback", _by_session(play.takeback))
    app.router.add_get(at + "/moved", _by_session(play.moved))
    app.router.add_get(
        at + "/picture/{name:[0-9]{1,18}-[a-zA-Z_]{2,6}-[a-z+]{1,40}-[A-Za-z0-9_-]{1,1200}\\.png}",
        _by_session(play.picture),
    )
