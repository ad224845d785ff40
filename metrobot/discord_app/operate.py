"""What an operator reaches over HTTP (METROBOT_METRICS_PORT): `/metrics` for Prometheus and
`/healthz` for a load balancer, an orchestrator or a person with curl.

Served by aiohttp (already there for discord.py) in the bot's own event loop: a scrape reads
the gauges that describe the database and the gateway at that moment, then prometheus_client
writes every metric out. `/healthz` is 200 while the bot is connected to Discord (every shard
of this process) and the database answers within 2 s, 503 otherwise (and while stopping), with
a small JSON body saying which part is down (and, for the database, what fault: "connection
refused", "disk full", …; see storage/faults.py).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from ..games import all_plugins
from ..metrics import ACTIVE_GAMES, GATEWAY_LATENCY, LOBBIES, OUTBOX_BACKLOG, OUTBOX_OLDEST, SHARD_UP
from ..storage import DatabaseUnavailable

if TYPE_CHECKING:
    from aiohttp import web

    from ..wiring import GameService

log = logging.getLogger("metrobot.operate")

DATABASE_TIMEOUT = 2.0


def shards(bot: Any) -> dict[str, tuple[float, bool]]:
    """shard id -> (heartbeat latency in seconds, connected), for this process's shards."""
    known = getattr(bot, "shards", None)
    if isinstance(known, dict):  # an AutoShardedClient
        return {str(i): (info.latency, not info.is_closed()) for i, info in known.items()}
    ws = getattr(bot, "ws", None)
    return {str(getattr(bot, "shard_id", None) or 0): (bot.latency, ws is not None and bool(ws.open))}


def connected(bot: Any) -> bool:
    return bot.is_ready() and not bot.is_closed() and all(up for _, up in shards(bot).values())


async def database_fault(bot: Any) -> str | None:
    """None while the database answers, else what is wrong with it."""
    service: GameService | None = bot.service
    if service is None or service.closed:
        return "closed"
    try:
        return await asyncio.wait_for(service.database_fault(), DATABASE_TIMEOUT)
    except TimeoutError:
        return "timeout"
    except Exception as exc:  # (closed, or something unforeseen: "no" all the same)
        log.warning("health check: the database does not answer (%s: %s)", type(exc).__name__, exc)
        return type(exc).__name__


async def read_gauges(bot: Any) -> None:
    """Set the gauges that are read rather than counted."""
    for shard, (latency, up) in shards(bot).items():
        GATEWAY_LATENCY.labels(shard).set(latency if math.isfinite(latency) else float("nan"))
        SHARD_UP.labels(shard).set(1 if up else 0)
    service: GameService | None = bot.service
    if service is None or service.closed:
        return
    try:
        count, oldest = await asyncio.wait_for(service.backlog(), DATABASE_TIMEOUT)
        games = await asyncio.wait_for(service.games_by_status(), DATABASE_TIMEOUT)
    except (DatabaseUnavailable, TimeoutError):  # (storage's outage log says it; /healthz tells it)
        return
    except Exception as exc:
        log.warning("metrics: could not read the database (%s: %s)", type(exc).__name__, exc)
        return
    OUTBOX_BACKLOG.set(count)
    OUTBOX_OLDEST.set(max(0.0, time.time() - oldest) if count and oldest is not None else 0)
    for plugin in all_plugins():
        ACTIVE_GAMES.labels(plugin.name).set(games.get(("active", plugin.name), 0))
    LOBBIES.set(sum(n for (status, _), n in games.items() if status == "lobby"))


class Operations:
    """The HTTP endpoints of one bot process."""

    def __init__(self, bot: Any, host: str, port: int):
        self.bot, self.host, self.port = bot, host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        # (aiohttp's server, imported only by a bot that serves these: 0.015 s of CPU a start)
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # (the system chose one: say which)
            self.port = self._runner.addresses[0][1]
        log.info("metrics and health check on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def metrics(self, request: web.Request) -> web.Response:
        from aiohttp import web

        await read_gauges(self.bot)
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, request: web.Request) -> web.Response:
        from aiohttp import web

        stopping = bool(getattr(self.bot, "stopping", False))
        fault = await database_fault(self.bot)
        parts: dict[str, Any] = {"discord": connected(self.bot), "database": fault is None, "stopping": stopping}
        if fault is not None:
            parts["database_fault"] = fault
        healthy = parts["discord"] and parts["database"] and not stopping
        return web.json_response(parts, status=200 if healthy else 503)
