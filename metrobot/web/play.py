"""The play page: one person's seat of one game, played by tapping the board (issue 44).

Routes (below `/play/{game}/{person}/{signature}`, all relative to the page):
    /            the page (the board, the person's hand, the steps as targets)
    live         the game's version and whether it waits for this person (ETag)
    compose      POST {moves, steps, typed?}: the board after those steps, the next targets
    confirm      POST {moves, steps}: play them; the answer and the board after
    takeback     POST {moves}: ↶ take back the person's move that left the game at `moves`
    moved        GET ?since=N: what became of the game since position N (a Confirm whose answer
                 was lost: the person's move played, someone else's, or nothing) and the board
    picture/…    a picture a board named (the preview after the steps)

Who may play is decided in one place, `seat_of`: today a signed link (`metrobot/play/access.py`);
a Discord Activity will prove the same `Pass` with a bearer token. What changes the game, and
what reads the composer, is a POST with the page's token in `X-Play-Token` and a JSON body.
Answers: 404 (the link opens nothing: forged, altered, revoked, another person's, a game
over), 400 (a missing or wrong token, junk, or a refused step: `{"error": words}`), 409 (the
game moved on: `{"error", "board"}` with the position as it is now), never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from markupsafe import Markup

from ..i18n import LANGUAGES, Lang, lang
from ..ids import digits
from ..play import Pass, Play, Refusal, Stale
from ..play.board import page_text
from ..play.news import Announce
from ..service import Refused
from ..storage import GameRow
from ..wiring import GameService
from .pages import number, render, service_of
from .reader import accepted, chosen

PLAY: web.AppKey[Play] = web.AppKey("play", Play)
# A seat proven otherwise than by the link: the Discord Activity's bearer session (activityplay.py)
# puts it here; such a request needs no X-Play-Token (a cross-site form cannot send its header).
PROVEN: web.RequestKey[tuple[Pass, GameRow]] = web.RequestKey("play_proven", tuple)
MAX_STEPS = 16  # more steps than any game's turn: junk
MAX_CODE = 200


def play_of(request: web.Request) -> Play:
    return request.app[PLAY]


async def seat_of(request: web.Request) -> tuple[Pass, GameRow]:
    """The capability this request proves, and the game as it is now (404 otherwise)."""
    proven = request.get(PROVEN)
    if proven is not None:
        return proven
    try:
        return await play_of(request).open(
            number(request, "id"), str(number(request, "user")), request.match_info["sig"]
        )
    except Refusal:
        raise web.HTTPNotFound() from None


async def reader_of(request: web.Request, row: GameRow, user_id: str) -> Lang:
    """The page's language: the switch (`?lang=`), else the browser's, else the person's own
    (their setting, else their Discord's when they joined), else the game's."""
    if "lang" in request.query or accepted(request.headers.get("Accept-Language")):
        return chosen(request)  # (the switch, else the browser's: refused if unknown)
    return await service_of(request).games.player_language(row, user_id)


async def page(request: web.Request) -> web.StreamResponse:
    seat, row = await seat_of(request)
    language = await reader_of(request, row, seat.user_id)
    play = play_of(request)
    board = await play.compose(seat, row, language)
    data = json.dumps(board.to_json(), ensure_ascii=False).replace("<", "\\u003c").replace("&", "\\u0026")
    game_page = await service_of(request).links.game_path(row)
    response = render(
        request,
        "play.html",
        language,
        board=board,
        data=Markup(data),
        token=await play.token(row, seat.user_id),
        game_page="../../../.." + game_page,
    )
    response.headers["Vary"] = "Accept-Language"
    return response


async def live(request: web.Request) -> web.StreamResponse:
    """What the page watches: the game's version and whether it waits for this person."""
    seat, row = await seat_of(request)
    tag = f'"v{row.version}"'
    if request.headers.get("If-None-Match") == tag:
        raise web.HTTPNotModified(headers={"ETag": tag, "Cache-Control": "no-cache"})
    return web.json_response(
        {"version": row.version, "moves": row.moves, "mine": seat.user_id in row.waiting},
        headers={"ETag": tag, "Cache-Control": "no-cache"},
    )


async def _posted(request: web.Request) -> tuple[Pass, GameRow, Lang, dict[str, Any]]:
    """A POST's capability, token and body (400 for a missing or wrong token, or junk)."""
    seat, row = await seat_of(request)
    play = play_of(request)
    if request.get(PROVEN) is None and not await play.token_ok(row, seat.user_id, request.headers.get("X-Play-Token")):
        raise web.HTTPBadRequest()
    if request.content_type != "application/json":
        raise web.HTTPBadRequest()
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError, web.HTTPRequestEntityTooLarge):
        raise web.HTTPBadRequest() from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest()
    moves, steps, typed = body.get("moves"), body.get("steps", []), body.get("typed")
    if not isinstance(moves, int) or isinstance(moves, bool) or not 0 <= moves < 2**62:
        raise web.HTTPBadRequest()
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise web.HTTPBadRequest()
    if not all(isinstance(s, str) and 0 < len(s) <= MAX_CODE for s in steps):
        raise web.HTTPBadRequest()
    if typed is not None and (not isinstance(typed, str) or len(typed) > MAX_CODE):
        raise web.HTTPBadRequest()
    if not isinstance(body.get("again", False), bool):
        raise web.HTTPBadRequest()
    body = {"moves": moves, "steps": steps, "typed": typed, "again": body.get("again", False)}
    return seat, row, await reader_of(request, row, seat.user_id), body


async def compose(request: web.Request) -> web.StreamResponse:
    seat, row, language, body = await _posted(request)
    play = play_of(request)
    try:
        board = await play.compose(
            seat,
            row,
            language,
            moves=body["moves"],
            steps=body["steps"],
            typed=body.get("typed"),
            replacing=body.get("again", False),
        )
    except Stale:
        return await _stale(request, seat, language)
    except Refused as exc:
        return web.json_response({"error": page_text(str(exc), row.names)}, status=400)
    return web.json_response({"board": board.to_json()})


async def confirm(request: web.Request) -> web.StreamResponse:
    seat, row, language, body = await _posted(request)
    if not body["steps"] or body.get("typed") is not None:
        raise web.HTTPBadRequest()
    play = play_of(request)
    try:
        said = await play.play(
            seat, row, language, moves=body["moves"], steps=body["steps"], replacing=body.get("again", False)
        )
    except Stale:
        return await _stale(request, seat, language)
    except Refused as exc:
        return web.json_response({"error": page_text(str(exc), row.names)}, status=400)
    return await _after(request, seat, row, language, said)


async def _after(request: web.Request, seat: Pass, row: GameRow, language: Lang, said: str) -> web.StreamResponse:
    """The person's answer and the board as it is now (none once the game is over)."""
    after = await service_of(request).queries.game(row.id)
    if after is None or after.status != "active":  # the game is over: the link has done its work
        return web.json_response({"said": page_text(said, row.names), "over": True, "board": None})
    board = await play_of(request).compose(seat, after, language, note=said)
    return web.json_response({"said": page_text(said, after.names), "board": board.to_json()})


async def takeback(request: web.Request) -> web.StreamResponse:
    """↶ Take back, as under the person's private confirmation in Discord (the same service call)."""
    seat, row, language, body = await _posted(request)
    if body["steps"] or body.get("typed") is not None:
        raise web.HTTPBadRequest()
    try:
        said = await play_of(request).take_back(seat, row, language, moves=body["moves"])
    except Refused as exc:
        return web.json_response({"error": page_text(str(exc), row.names)}, status=400)
    return await _after(request, seat, row, language, said)


async def moved(request: web.Request) -> web.StreamResponse:
    """What became of the game since a position (`?since=N`): asked by a page whose ✔ Confirm
    got no answer before it says anything; with the board as it is now."""
    seat, row = await seat_of(request)
    since = request.query.get("since", "")
    if not digits(since, 18):
        raise web.HTTPBadRequest()
    language = await reader_of(request, row, seat.user_id)
    play = play_of(request)
    what = await play.moved(seat, row, int(since))
    board = await play.compose(seat, row, language)
    return web.json_response({"moved": what, "board": board.to_json()}, headers={"Cache-Control": "no-store"})


async def _stale(request: web.Request, seat: Pass, language: Lang) -> web.StreamResponse:
    """409: the game has moved on; the page is shown the position as it is now."""
    play = play_of(request)
    row = await service_of(request).queries.game(seat.game_id)
    with_words = page_text(language.t("The game has moved on: here it is as it is now. Nothing was played."), {})
    if row is None or row.status != "active":
        return web.json_response({"error": with_words, "board": None, "over": True}, status=409)
    board = await play.compose(seat, row, language)
    return web.json_response({"error": with_words, "board": board.to_json()}, status=409)


async def picture(request: web.Request) -> web.StreamResponse:
    seat, row = await seat_of(request)
    name = request.match_info["name"]
    parts = name.split("-", 2)
    code = parts[1] if len(parts) > 2 else ""
    if code not in LANGUAGES:
        raise web.HTTPNotFound()
    vision = await service_of(request).drawing.vision_of(seat.user_id)
    if not name.split("-", 3)[2:3] == [vision]:
        raise web.HTTPNotFound()
    data = await play_of(request).picture(seat, row, name, lang(code))
    if data is None:
        raise web.HTTPNotFound()
    # (private: a revoked link stops showing even what it once did; the address names the position)
    return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


def add_routes(app: web.Application, service: GameService, announce: Announce | None = None) -> None:
    app[PLAY] = Play(service, announce)
    number = r"{%s:[0-9]{1,18}}"
    person = r"{user:[0-9]{1,19}}"  # (a Discord id: up to 19 digits)
    base = f"/play/{number % 'id'}/{person}/{{sig:[A-Za-z0-9_-]{{24}}}}"
    from .pages import slash

    app.router.add_get(base, slash)
    app.router.add_get(base + "/", page)
    app.router.add_get(base + "/live", live)
    app.router.add_post(base + "/compose", compose)
    app.router.add_post(base + "/confirm", confirm)
    app.router.add_post(base + "/takeback", takeback)
    app.router.add_get(base + "/moved", moved)
    app.router.add_get(
        base + "/picture/{name:[0-9]{1,18}-[a-zA-Z_]{2,6}-[a-z+]{1,40}-[A-Za-z0-9_-]{1,1200}\\.png}", picture
    )
