"""The pages: a game, a tournament, a server, a person — each opened only by its signed link."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import web

from ..i18n import Lang, reading
from ..pages.webgame import names_tag
from .reader import chosen, helpers, tag

if TYPE_CHECKING:
    from ..tournaments.service import TournamentService
    from ..wiring import GameService

MAX_ID = 2**63 - 1  # ids both databases can hold: anything larger opens nothing


SERVICE: web.AppKey[GameService] = web.AppKey("service")
# The tournaments beside it (metrobot/app.py); None: pages without them (a tournament's is not found)
TOURNAMENTS: web.AppKey[TournamentService | None] = web.AppKey("tournaments")


def service_of(request: web.Request) -> GameService:
    return request.app[SERVICE]


def tournaments_of(request: web.Request) -> TournamentService | None:
    return request.app.get(TOURNAMENTS)


def number(request: web.Request, key: str) -> int:
    value = int(request.match_info[key])
    if value > MAX_ID:
        raise web.HTTPNotFound()
    return value


async def opened_game(request: web.Request) -> Any:
    row = await service_of(request).links.opened_game(number(request, "id"), request.match_info["sig"])
    if row is None:
        raise web.HTTPNotFound()
    return row


async def slash(request: web.Request) -> web.StreamResponse:
    """A link without its last slash: the same page (its images are relative to it)."""
    raise web.HTTPFound(request.path + "/" + (f"?{request.query_string}" if request.query_string else ""))


def root(request: web.Request) -> str:
    """Where the pages are below the site's root, behind a reverse proxy (METROBOT_WEB_BASE_URL's path)."""
    return urlsplit(service_of(request).web_base or "").path.rstrip("/")


def render(request: web.Request, template: str, language: Lang, **context: Any) -> web.Response:
    with reading(language):
        response = aiohttp_jinja2.render_template(
            template, request, helpers(language) | {"root": root(request)} | context
        )
    response.headers["Content-Language"] = tag(language.code)
    response.headers["Vary"] = "Accept-Language"
    return response


async def game(request: web.Request) -> web.StreamResponse:
    row = await opened_game(request)
    language = chosen(request, row.language)
    service = service_of(request)
    page = await service.web_game.game_page(row, language)
    alts = {turn.number: service.web_game.turn_description(page, turn, language) for turn in page.turns}
    return render(request, "game.html", language, page=page, alts=alts, live=page.status == "active")


async def review(request: web.Request) -> web.StreamResponse:
    """A player's review of a finished game (issue 64), opened only by their own link."""
    service = service_of(request)
    user = str(number(request, "user"))
    row = await service.links.opened_review(
        number(request, "id"), request.match_info["sig"], user, request.match_info["rsig"]
    )
    if row is None:
        raise web.HTTPNotFound()
    language = chosen(request, row.language)
    page = await service.reviews.review_page(row, user, language)
    return render(request, "review.html", language, page=page, tag=names_tag(row))


async def live(request: web.Request) -> web.StreamResponse:
    """What the page watches: the game's version (nothing else), revalidated with its ETag."""
    row = await opened_game(request)
    tag = f'"v{row.version}"'
    if request.headers.get("If-None-Match") == tag:
        raise web.HTTPNotModified(headers={"ETag": tag, "Cache-Control": "no-cache"})
    return web.json_response(
        {"version": row.version, "active": row.status == "active"}, headers={"ETag": tag, "Cache-Control": "no-cache"}
    )


async def server(request: web.Request) -> web.StreamResponse:
    guild = str(number(request, "guild"))
    service = service_of(request)
    if not await service.links.opened_server(guild, request.match_info.get("sig")):
        raise web.HTTPNotFound()
    language = chosen(request)
    tournaments = tournaments_of(request)  # (the server's page with its tournaments, where there are)
    page = await (tournaments.server_page if tournaments else service.web_index.server_page)(guild, language)
    return render(request, "server.html", language, page=page)


async def opened_tournament(request: web.Request) -> Any:
    if tournaments_of(request) is None:
        raise web.HTTPNotFound()
    row = await service_of(request).links.opened_tournament(number(request, "id"), request.match_info["sig"])
    if row is None:
        raise web.HTTPNotFound()
    return row


async def tournament(request: web.Request) -> web.StreamResponse:
    row = await opened_tournament(request)
    language = chosen(request, row.settings.get("language"))
    tournaments = tournaments_of(request)
    assert tournaments is not None  # (opened_tournament found none without them)
    page = await tournaments.tournament_page(row, language)
    if page is None:
        raise web.HTTPNotFound()
    return render(request, "tournament.html", language, page=page)


async def opened_person(request: web.Request) -> tuple[str, str]:
    """The server and person a person's link names (404 unless its signature is right)."""
    guild, user = str(number(request, "guild")), str(number(request, "user"))
    if not await service_of(request).links.opened_person(guild, user, request.match_info["sig"]):
        raise web.HTTPNotFound()
    return guild, user


async def person(request: web.Request) -> web.StreamResponse:
    guild, user = await opened_person(request)
    language = chosen(request)
    page = await service_of(request).web_index.person_page(guild, user, language)
    if page is None:
        raise web.HTTPNotFound()
    return render(request, "person.html", language, page=page, chart=f"chart-{language.code}-{chart_tag(page)}.png")


async def daily(request: web.Request) -> web.StreamResponse:
    """A person's page of a day's daily challenge table: the results only once they have
    finished that deal (daily/challenge.py decides, when the page is opened)."""
    m = request.match_info
    language = chosen(request)
    page = await service_of(request).daily.page(str(number(request, "user")), m["kind"], m["day"], m["sig"])
    if page is None:
        raise web.HTTPNotFound()
    return render(request, "daily.html", language, page=page)


def chart_tag(page: Any) -> str:
    """What a person's chart shows, in short: a new rated game or name makes a new address."""
    return hashlib.blake2b(json.dumps([page.name, page.trends], sort_keys=True).encode(), digest_size=4).hexdigest()
