"""Serving the pages: inside the bot's process (METROBOT_WEB_PORT), or alone with
`python -m metrobot web` against the same database (SQLite or PostgreSQL), so that pages can
be served by processes of their own, as many as needed, beside the bots.

Links name `METROBOT_WEB_BASE_URL` (the address readers use, e.g. behind a reverse proxy);
without it, the address served here (`http://HOST:PORT`).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .app import make_app
from .discordauth import DiscordAuth

if TYPE_CHECKING:
    from ..tournaments.service import TournamentService
    from ..wiring import GameService

log = logging.getLogger("metrobot.web")


class WebServer:
    """The pages of one service and its tournaments on host:port (port 0: any free one, then
    `port` says which)."""

    def __init__(
        self,
        service: GameService,
        tournaments: TournamentService,
        host: str,
        port: int,
        base_url: str | None = None,
        announce: Any = None,
        *,
        settings: Any = None,
    ) -> None:
        self.service, self.tournaments = service, tournaments
        self.host, self.port, self.base_url = host, port, base_url
        self.announce = announce  # (the bot's delivery, where the pages run inside it: see make_app)
        # the Discord Activity's OAuth2 client (None: no Activity)
        self.auth = DiscordAuth.from_settings(settings) if settings is not None else None
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(
            make_app(self.service, self.announce, self.auth, tournaments=self.tournaments), access_log=None
        )
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        if self.port == 0:
            self.port = self._runner.addresses[0][1]
        # From now on the bot hands out links: to the address readers use, else this one.
        self.service.web_base = (self.base_url or f"http://{self.host}:{self.port}").rstrip("/")
        log.info("web pages on http://%s:%d/ (links to %s)", self.host, self.port, self.service.web_base)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


async def serve_alone(settings: Any) -> None:
    """`python -m metrobot web`: the pages only, until SIGTERM or SIGINT."""
    from metrobot.render.keptlayers import keep_between_runs

    from ..app import build
    from ..storage import Database

    keep_between_runs()  # (the maps' drawn layers, read back after a restart: metrobot/render/keptlayers.py)
    db = await Database(settings.database).open()
    # (games' pages and tournaments')
    app = build(db, render_workers=settings.render_workers, png_compression=settings.png_compression)
    service = app.service
    service.painter.start(warm=False)
    server = WebServer(
        service,
        app.tournaments,
        settings.web_host,
        settings.web_port if settings.web_port is not None else 8080,
        settings.web_base_url,
        settings=settings,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await server.start()
        await stop.wait()
    finally:
        await server.stop()
        await service.close()
