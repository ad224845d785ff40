"""What the Activity's page reads with its session (`Authorization: Bearer …`, see activitytoken.py).

    GET /activity/api/view               the game as its channel sees it: title, whose turn,
                                         scores, the board's address and words; its version
    GET /activity/api/board/<pos>.png    the public board after `pos` actions

Everyone in the game's channel sees these (they are the game page's, never a secret); the
person's own seat — their hand and the targets to tap — is the play page's, opened by the same
session. Images come through `fetch` with the session (an <img> cannot send it) and are shown
as blobs. A missing, forged, expired or revoked session is a 401 that says nothing of the game,
and so is the session of someone who has left the Activity (checked within a minute).
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from ..pages.webgame import names_tag
from ..play.board import plain
from . import activitytoken
from .discordauth import AUTH
from .images import served
from .pages import number, service_of
from .reader import chosen

log = logging.getLogger("metrobot.web")


async def opened(request: web.Request) -> tuple[activitytoken.Session, Any] | None:
    """The request's session and its game; None where it does not open (see activitytoken.py),
    or where the person is no longer in the Activity's instance (asked of Discord, see
    `DiscordAuth.still_in`)."""
    found = await activitytoken.opened(service_of(request), activitytoken.bearer(request.headers))
    auth = request.app.get(AUTH)
    if found is not None and auth is not None and not await auth.still_in(found[0].instance, found[0].user_id):
        log.info("an Activity session was refused: its person is no longer in the Activity")
        return None
    return found


def unauthorized() -> web.Response:
    """No session (missing, forged, expired, revoked): the page asks Discord again."""
    return web.json_response({"error": "session"}, status=401, headers={"WWW-Authenticate": "Bearer"})


async def view(request: web.Request) -> web.StreamResponse:
    found = await opened(request)
    if found is None:
        return unauthorized()
    session, row = found
    language = chosen(request, row.language)
    service = service_of(request)
    page = await service.web_game.game_page(row, language)
    seat = row.seat(session.user_id)
    return web.json_response(
        {
            "game": row.id,
            "version": row.version,
            "active": row.status == "active",
            "seated": bool(seat is not None and not seat.auto),
            "title": page.title,
            "status": page.status_word,
            "prompt": plain(page.prompt) if page.prompt else "",  # (without Discord's marks)
            "winners": page.winners,
            "standings": [
                {
                    "name": s.name,
                    "score": s.score,
                    # (the line the Activity shows: the reader's colon, "Ann：7" in Chinese and Japanese)
                    "line": s.name + language.colon + language.num(s.score),
                    "waiting": s.waiting,
                    "won": s.won,
                }
                for s in page.standings
            ],
            "board": f"api/board/{row.moves}.png",
            "alt": page.description,
        },
        headers={"Cache-Control": "no-store"},
    )


async def board(request: web.Request) -> web.StreamResponse:
    found = await opened(request)
    if found is None:
        return unauthorized()
    _session, row = found
    language = chosen(request, row.language)
    position = number(request, "pos")
    if position > row.moves:
        raise web.HTTPNotFound()
    response = await served(
        request,
        f"board:{row.id}:{position}:{language.code}:{names_tag(row)}",
        lambda: service_of(request).web_game.board_at(row, position, language),
    )
    response.headers["Cache-Control"] = "private, no-store"  # (the session, not the address, opens it)
    return response


def add_routes(app: web.Application, prefix: str) -> None:
    app.router.add_get(prefix + "/api/view", view)
    app.router.add_get(prefix + "/api/board/{pos:[0-9]{1,18}}.png", board)
