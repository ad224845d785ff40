"""The board as a Discord Activity: the play page inside Discord's frame.

Discord opens `https://<application id>.discordsays.com/` in an iframe and proxies it to our
server through the application's URL mapping (`/` → `<our host>/activity`); every address the
page uses is relative, so it works with and without Discord's `/.proxy/` prefix, and behind
the same reverse proxy as the other pages.

    /activity/                       the page (Discord's query string: frame_id, instance_id, …)
    /activity/sdk/<version>/<file>   Discord's Embedded App SDK, vendored (the version in the address)
    /activity/static/<file>          our script and styles
    POST /activity/api/session       {code, instance_id, channel_id, guild_id, game?} → a session
    /activity/api/…                  what the session opens: the game as its channel sees it
                                     (activityapi.py), the person's seat (activityplay.py)

Who the person is comes from Discord (the code exchanged here, then `/users/@me`), which
channel from the instance (`discordauth.py`); the game is that channel's running game, or, in
a tournament's hall, the table the person sits at (else the one they pick among its tables).
The answer is a bearer token (`activitytoken.py`) kept in the page's memory; it opens exactly
what the person's play link opens. Only these routes may be framed, and only by Discord.
"""

from __future__ import annotations

import hashlib
import logging
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..i18n import N_, Lang
from ..ids import snowflake
from . import activityapi, activityplay, activitytoken
from .discordauth import AUTH, CODE, INSTANCE, DiscordAuth, Instance, NotProven, client_address
from .pages import render, service_of, tournaments_of
from .reader import chosen

if TYPE_CHECKING:
    from ..tournaments.service import TournamentService
    from ..wiring import GameService

log = logging.getLogger("metrobot.web")

HERE = Path(__file__).parent
SDK = HERE / "vendor" / "embedded-app-sdk"
PREFIX = "/activity"
# Discord's clients (web and desktop, PTB, Canary, on both of its domains: the origins the SDK
# accepts messages from); 'self': the proxy's own origin, where the page is. Discord's Activity
# proxy is added by `csp`: this application's own origin only, never `*.discordsays.com` (every
# other app's Activity).
FRAMERS = " ".join(
    (
        "'self'",
        "https://discord.com",
        "https://discordapp.com",
        "https://ptb.discord.com",
        "https://ptb.discordapp.com",
        "https://canary.discord.com",
        "https://canary.discordapp.com",
    )
)


def csp(client_id: str | None) -> str:
    """The Activity's Content-Security-Policy: framed by Discord and this app's own Activity."""
    framers = FRAMERS + (f" https://{client_id}.discordsays.com" if client_id and client_id.isdigit() else "")
    return (
        "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        f"base-uri 'none'; form-action 'none'; frame-ancestors {framers}; object-src 'none'"
    )


# What Discord's refusal of each step becomes: the status, and the words the person reads.
REFUSALS = {
    "setup": (
        503,
        N_("This bot's Discord Activity is not set up: its operator has to give it the application's client secret."),
    ),
    "code": (
        401,
        N_(
            "Discord did not confirm who you are (the sign-in expired or was already used). Close the "
            "Activity and open it again."
        ),
    ),
    "person": (401, N_("Discord did not confirm who you are. Close the Activity and open it again.")),
    "instance": (403, N_("This Activity is not running where the page says. Open it again from the game's channel.")),
    "discord": (502, N_("Discord did not answer. Try again in a minute.")),
    "busy": (429, N_("Too many people are opening the board at once. Try again in a minute.")),
    "hidden": (
        403,
        N_(
            "This round is a duplicate round: every table plays the same deal, so only your own table opens "
            "until the round ends. Open the Activity in your table's thread, or come back after the round."
        ),
    ),
}
HIDDEN = "hidden"  # (`_game`'s answer for a table of a duplicate round under way that is not the person's)


def framed(path: str) -> bool:
    """Whether an address is one of the Activity's (which Discord may frame)."""
    return path == PREFIX or path.startswith(PREFIX + "/")


@cache
def sdk_version() -> str:
    return (SDK / "VERSION").read_text().strip()


@cache
def asset_tag(name: str) -> str:
    """Our static file's content in short: a changed file is a new address (Discord's proxy caches)."""
    return hashlib.blake2b((HERE / "static" / name).read_bytes(), digest_size=4).hexdigest()


async def page(request: web.Request) -> web.StreamResponse:
    auth = request.app[AUTH]
    if auth is None:
        raise web.HTTPNotFound()
    language = chosen(request)
    return render(
        request,
        "activity.html",
        language,
        client_id=auth.client_id,
        sdk=f"sdk/{sdk_version()}/index.mjs",
        script=f"static/activity.js?v={asset_tag('activity.js')}",
        styles=[f"static/{name}?v={asset_tag(name)}" for name in ("site.css", "play.css", "activity.css")],
        seat_script=f"static/playview.js?v={asset_tag('playview.js')} static/play.js?v={asset_tag('play.js')}",
    )


async def sdk(request: web.Request) -> web.StreamResponse:
    """A module of the vendored SDK, under its version: cached for good, as it never changes."""
    name = request.match_info["path"]
    path = (SDK / "output" / name).resolve()
    if (
        request.match_info["version"] != sdk_version()
        or not name.endswith(".mjs")
        or ".." in name.split("/")
        or not path.is_relative_to((SDK / "output").resolve())
        or not path.is_file()
    ):
        raise web.HTTPNotFound()
    return web.FileResponse(
        path,
        headers={
            "Content-Type": "text/javascript; charset=utf-8",
            "Cache-Control": "public, max-age=31536000, immutable",
        },
    )


def refused(language: Lang, step: str) -> web.Response:
    status, text = REFUSALS[step]
    return web.json_response({"error": step, "message": language.t(text)}, status=status)


async def session(request: web.Request) -> web.StreamResponse:
    """Discord's code and instance in, a session out (see the module docstring)."""
    language = chosen(request)
    auth = request.app[AUTH]
    if auth is None:
        raise web.HTTPNotFound()
    if request.content_type != "application/json":  # (as the play page: no form posted from elsewhere)
        raise web.HTTPBadRequest()
    try:
        asked = await request.json()  # (over the app's 4 KiB: a 413, see app.py)
    except ValueError:
        raise web.HTTPBadRequest() from None
    if not isinstance(asked, dict):
        raise web.HTTPBadRequest()
    code, instance_id = asked.get("code"), asked.get("instance_id")
    channel, guild, wanted = asked.get("channel_id"), asked.get("guild_id"), asked.get("game")
    if (
        not isinstance(code, str)
        or not CODE.fullmatch(code)
        or not isinstance(instance_id, str)
        or not INSTANCE.fullmatch(instance_id)
        or not (channel is None or snowflake(channel))
        or not (guild is None or snowflake(guild))
        or not (wanted is None or (type(wanted) is int and 0 < wanted < 2**63))
    ):
        raise web.HTTPBadRequest()
    if not auth.ready:
        log.warning("the Activity was opened but its client secret is not set (METROBOT_ACTIVITY_CLIENT_SECRET)")
        return refused(language, "setup")
    try:
        address = client_address(request.remote, request.headers.get("X-Forwarded-For"), auth.proxies)
        person, access_token = await auth.person(code, address)
        instance = await auth.instance(instance_id)
    except NotProven as exc:
        # (never a code or a token in the log; the operator's own mistakes said louder)
        # (a flood over the exchanges' limit is not written line by line: that would be the flood)
        level = {"setup": logging.WARNING, "discord": logging.WARNING, "busy": logging.DEBUG}.get(
            exc.step, logging.INFO
        )
        log.log(level, "an Activity session was refused: %s (%s)", exc.step, exc.detail)
        return refused(language, exc.step)
    if (
        person not in instance.users
        or (channel is not None and channel != instance.channel_id)
        or (guild is not None and guild != instance.guild_id)
    ):
        log.info("an Activity session was refused: the instance is elsewhere or without the person")
        return refused(language, "instance")
    service = service_of(request)
    found = await _game(service, tournaments_of(request), instance, person, wanted)
    if found is HIDDEN:
        log.info("an Activity session was refused: another table of a duplicate round under way")
        return refused(language, "hidden")
    if isinstance(found, list):
        if not found:
            text = language.t(
                "No game is running in this channel. Start one with /game new, then open the board again."
            )
            return web.json_response({"error": "no_game", "message": text}, status=404)
        return web.json_response({"choose": found, "message": language.t("Which table do you want to see?")})
    token, lifetime = await activitytoken.issue(service, found, person, instance_id)
    seat = found.seat(person)
    return web.json_response(
        {
            "session": token,
            "expires_in": lifetime,
            "access_token": access_token,  # (the person's own, for the SDK's authenticate())
            "game": found.id,
            "seated": bool(seat is not None and not seat.auto),
        }
    )


async def _game(
    service: GameService, tournaments: TournamentService | None, instance: Instance, person: str, wanted: int | None
) -> Any:
    """The game the Activity opens: the channel's running game; in a tournament's hall, the
    table `wanted` or the person's own; else the tables to choose from ([] : nothing runs);
    HIDDEN: another table of a duplicate round under way (or only such tables run)."""
    row = await service.queries.running_game(instance.channel_id)
    if row is not None and wanted in (None, row.id):
        return row
    tables = await tournaments.hall_tables(instance.channel_id) if tournaments is not None else []
    games = [t.game for t in tables]
    running = [g for g in games if g is not None and g.status == "active" and g.state is not None]
    # A duplicate round under way: its tables play one deal, so a table further on shows the
    # cards still to come at another; as on the tournament's and the server's pages, only the
    # person's own table opens, and the others are not listed (tournaments/webpage.py).
    hidden = {t.game_id for t in tables if t.hidden}
    shown = [g for g in running if g.id not in hidden or g.seat(person) is not None]
    for g in shown:
        seat = g.seat(person)
        if g.id == wanted or (wanted is None and seat is not None and not seat.auto):
            return g
    if (wanted is not None and wanted in hidden) or (not shown and any(g.id in hidden for g in running)):
        return HIDDEN
    return [{"game": g.id, "players": [s.name for s in g.seats]} for g in shown]


def add_routes(app: web.Application, auth: DiscordAuth | None, static: Any) -> None:
    """The Activity's routes (`static`: the handler of our static files, served here too); none
    where it is not set up (no client id): everything stays as it was."""
    app[AUTH] = auth
    if auth is None:
        return
    app.on_startup.append(auth.open)  # (one HTTP session to Discord for the process)
    app.on_cleanup.append(auth.close)
    app.router.add_get(PREFIX, page)
    app.router.add_get(PREFIX + "/", page)
    app.router.add_get(PREFIX + "/sdk/{version:[0-9][0-9.]{0,15}}/{path:[A-Za-z0-9_./-]{1,120}}", sdk)
    app.router.add_get(PREFIX + "/static/{name}", static)
    app.router.add_post(PREFIX + "/api/session", session)
    activityapi.add_routes(app, PREFIX)
    activityplay.add_routes(app, PREFIX)
