"""The web application: routes, templates, security headers, and answers that reveal nothing.

Every address but the static files and the icon is a capability link (see
`metrobot/service/weblinks.py`); anything that does not open — no such game, a forged, altered
or revoked signature, a number too large, junk — gets the same plain 404 page. A bad language
is a 400, and so is a body that is not JSON; a body over 4 KiB is a 413. No traceback ever reaches a reader: a bug is logged and answered with a 500 page.

Routes:
    /g/{id}/{sig}/                         a game
    /g/{id}/{sig}/live                     its version, for the page's live updates (ETag)
    /g/{id}/{sig}/board/{pos}-{lang}-{tag}.png   its board after `pos` actions (immutable)
    /t/{id}/{sig}/                         a tournament
    /t/{id}/{sig}/standings-{lang}-{tag}.png   its final standings (immutable)
    /s/{guild}/{sig}/   (/s/{guild}/ when public)   a server
    /p/{guild}/{user}/{sig}/               a person on a server
    /p/{guild}/{user}/{sig}/chart-{lang}-{tag}.png   their rating chart
    /activity/…                            the board as a Discord Activity (see activity.py)
    /play/{id}/{user}/{sig}/ (live, compose, confirm, picture/…)   one person's seat (see play.py)
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp_jinja2
import jinja2
import jinja2.bccache
from aiohttp import web

from ..i18n import lang
from . import activity, images, pages, play
from .discordauth import DiscordAuth
from .pages import SERVICE, TOURNAMENTS
from .reader import chosen, helpers, worded, worded_body

if TYPE_CHECKING:
    from ..tournaments.service import TournamentService
    from ..wiring import GameService

log = logging.getLogger("metrobot.web")

HERE = Path(__file__).parent
CSP = (
    "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",  # the link is the key: it never goes to another site
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "X-Robots-Tag": "noindex, nofollow",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Security headers on every answer; a plain page for what does not open."""
    try:
        response = await handler(request)
    except web.HTTPNotModified as exc:
        response = exc
    except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
        response = _plain(request, 404)
    except web.HTTPBadRequest:
        response = _plain(request, 400)
    except web.HTTPClientError as exc:  # a body over the limit (413), say: refused, not a bug
        response = _plain(request, 400)
        response.set_status(exc.status)
    except web.HTTPRedirection as exc:
        response = exc
    except Exception:
        log.exception("web page %s failed", request.path[:80].split("/")[1:2])
        response = _plain(request, 500)
    worded_body(response)
    response.headers.update(HEADERS)
    if activity.framed(request.path):  # the Activity's routes: Discord may frame them, nobody else
        auth = request.app.get(activity.AUTH)
        response.headers["Content-Security-Policy"] = activity.csp(auth.client_id if auth is not None else None)
        del response.headers["X-Frame-Options"]
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def _plain(request: web.Request, status: int) -> web.Response:
    try:
        language = chosen(request)
    except web.HTTPBadRequest:
        language = lang(None)
    from .pages import root

    # (a dead play link says how a person gets a new one: not the game's page, which only watches)
    context = helpers(language) | {"status": status, "root": root(request), "play": request.path.startswith("/play/")}
    response = aiohttp_jinja2.render_template("plain.html", request, context, status=status)
    return response


async def favicon(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(HERE / "static" / "favicon.ico", headers={"Cache-Control": "public, max-age=86400"})


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    path = HERE / "static" / name
    if "/" in name or name.startswith(".") or not path.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(path, headers={"Cache-Control": "public, max-age=3600"})


class _Compiled(jinja2.BytecodeCache):
    """The templates' compiled code, kept for the process: each app has its own environment,
    which compiles a template the first time it renders it (a few milliseconds each); a
    process that makes several apps (the tests make one per web server) compiles each once.
    Jinja's key holds the source's checksum, so an edited template is compiled again."""

    def __init__(self) -> None:
        self._kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._kept.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._kept[bucket.key] = bucket.bytecode_to_string()


COMPILED = _Compiled()


def make_app(
    service: GameService,
    announce: Any = None,
    auth: DiscordAuth | None = None,
    *,
    tournaments: TournamentService | None = None,
) -> web.Application:
    """The web pages of `service` (a GameService whose `web_base` says where they are served)
    and of `tournaments` (built beside it: metrobot/app.py; None: no tournament's page);
    `announce(channel id, outcome)`: how a move made on a play page reaches Discord where the
    pages run inside the bot (elsewhere the bots are woken through the database); with `auth`
    (the application's OAuth2 client), the board as a Discord Activity too."""
    app = web.Application(middlewares=[guarded], client_max_size=4096)
    app[SERVICE] = service
    app[TOURNAMENTS] = tournaments
    app[images.KEPT] = OrderedDict()
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=COMPILED,
        finalize=worded,
    )
    number = r"{%s:[0-9]{1,19}}"  # (Discord ids have 19 digits now; `number` refuses past 2**63 - 1)
    sig = r"{sig:[A-Za-z0-9_-]{24}}"
    game = f"/g/{number % 'id'}/{sig}"
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/static/{name}", static)
    app.router.add_get(game, pages.slash)
    app.router.add_get(game + "/", pages.game)
    app.router.add_get(game + "/live", pages.live)
    review = game + "/review/" + number % "user" + "/{rsig:[A-Za-z0-9_-]{24}}"
    app.router.add_get(review, pages.slash)
    app.router.add_get(review + "/", pages.review)
    language = "{lang:[a-z]{2,3}(?:_[A-Z]{2})?}"
    app.router.add_get(game + "/board/" + number % "pos" + "-" + language + "-{tag:[0-9a-f]{8}}.png", images.board)
    tournament = f"/t/{number % 'id'}/{sig}"
    app.router.add_get(tournament, pages.slash)
    app.router.add_get(tournament + "/", pages.tournament)
    app.router.add_get(tournament + "/standings-" + language + "-{tag:[0-9a-f]{8}}.png", images.standings)
    server = f"/s/{number % 'guild'}"
    app.router.add_get(server + "/", pages.server)
    app.router.add_get(server + f"/{sig}", pages.slash)
    app.router.add_get(server + f"/{sig}/", pages.server)
    person = f"/p/{number % 'guild'}/{number % 'user'}/{sig}"
    app.router.add_get(person, pages.slash)
    app.router.add_get(person + "/", pages.person)
    app.router.add_get(person + "/chart-" + language + "-{tag:[0-9a-f]{8}}.png", images.chart)
    daily = f"/d/{number % 'user'}/{{kind:[a-z]{{1,20}}}}/{{day:[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}}}/{sig}"
    app.router.add_get(daily, pages.slash)
    app.router.add_get(daily + "/", pages.daily)
    play.add_routes(app, service, announce)
    activity.add_routes(app, auth, static)
    return app
