"""Images of the pages: a game's board after any whole turn, a person's rating chart, a
finished tournament's final standings.

A turn's board never changes (the log only grows), so its address names everything it
depends on — the game, the position, the language and the players' names (a name can change:
someone who asked to be forgotten) — and it is served as immutable, with an ETag, and kept
here for the next reader. `private`: a proxy in between keeps no copy, so a revoked link
stops showing even the images it once did.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

from ..i18n import LANGUAGES, lang
from ..pages.webgame import names_tag
from .pages import chart_tag, number, opened_game, opened_person, opened_tournament, service_of, tournaments_of

KEEP = 128  # images kept in memory (a London board is about 190 KiB)
FOREVER = "private, max-age=31536000, immutable"
KEPT: web.AppKey[OrderedDict] = web.AppKey("images", OrderedDict)  # this application's images


def _kept(request: web.Request, key: str) -> bytes | None:
    return request.app[KEPT].get(key)


def _remember(request: web.Request, key: str, data: bytes) -> None:
    kept = request.app[KEPT]
    kept[key] = data
    kept.move_to_end(key)
    while len(kept) > KEEP:
        kept.popitem(last=False)


def _png(request: web.Request, key: str, data: bytes) -> web.StreamResponse:
    etag = f'"{hashlib.blake2b(key.encode(), digest_size=8).hexdigest()}"'
    headers = {"ETag": etag, "Cache-Control": FOREVER}
    if request.headers.get("If-None-Match") == etag:
        raise web.HTTPNotModified(headers=headers)
    return web.Response(body=data, content_type="image/png", headers=headers)


def _language(request: web.Request):
    code = request.match_info["lang"]
    if code not in LANGUAGES:
        raise web.HTTPNotFound()
    return lang(code)


async def board(request: web.Request) -> web.StreamResponse:
    row = await opened_game(request)
    language = _language(request)
    position = number(request, "pos")
    if request.match_info["tag"] != names_tag(row) or position > row.moves:
        raise web.HTTPNotFound()
    return await served(
        request,
        f"board:{row.id}:{position}:{language.code}:{names_tag(row)}",
        lambda: service_of(request).web_game.board_at(row, position, language),
    )


async def chart(request: web.Request) -> web.StreamResponse:
    guild, user = await opened_person(request)
    service = service_of(request)
    language = _language(request)
    page = await service.web_index.person_page(guild, user, language)
    if page is None or request.match_info["tag"] != chart_tag(page):
        raise web.HTTPNotFound()
    return await served(
        request,
        f"chart:{guild}:{user}:{language.code}:{chart_tag(page)}",
        lambda: service.web_index.rating_chart(page, language),
    )


async def standings(request: web.Request) -> web.StreamResponse:
    """A finished tournament's final standings picture (the address names what it shows)."""
    row = await opened_tournament(request)
    language = _language(request)
    tag = request.match_info["tag"]
    tournaments = tournaments_of(request)
    assert tournaments is not None  # (opened_tournament found none without them)
    return await served(
        request, f"standings:{row.id}:{language.code}:{tag}", lambda: tournaments.tournament_picture(row, language, tag)
    )


async def served(request: web.Request, key: str, draw: Callable[[], Awaitable[bytes | None]]) -> web.StreamResponse:
    """The picture `key` names: kept from an earlier request, else drawn now and kept (404 when
    there is nothing to draw). The Activity's board is served through it too (activityapi.py)."""
    data = _kept(request, key)
    if data is None:
        data = await draw()
        if data is None:
            raise web.HTTPNotFound()
        _remember(request, key, data)
    return _png(request, key, data)
