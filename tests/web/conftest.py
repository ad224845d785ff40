"""Session-wide fixtures of the web pages' tests: seeded games and a tournament on one server
(through the service), their pages served on 127.0.0.1 (a free port), and one headless Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import pytest_asyncio

from metrobot.app import build
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.web.browser import launch
from tests.web.world import make_tournament, make_world, served


class Site:
    """The games, the service and the address the pages are served at."""

    def __init__(self, service: GameService, games: dict[str, int], base: str, tournament: int):
        self.service, self.games, self.base, self.tournament = service, games, base, tournament

    async def game_url(self, key: str) -> str:
        row = await self.service.db.game(self.games[key])
        return self.base + await self.service.links.game_path(row)

    async def tournament_url(self) -> str:
        return self.base + await self.service.links.tournament_path(
            await self.service.db.tournaments.tournament(self.tournament)
        )


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def site(tmp_path_factory):
    db = await Database(tmp_path_factory.mktemp("web") / "web.sqlite3").open()
    app = build(db, seeds=fixed_seeds(37), images=False)
    service = app.service
    games = await make_world(service)
    tournament = await make_tournament(app)
    service.images = True  # (the games were played without drawing their posts: the pages draw)
    async with served(app) as base:
        yield Site(service, games, base, tournament)
    await db.close()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser():
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        yield chromium
        await chromium.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> Path:
    """Where screenshots go: METROBOT_WEB_SHOTS (e.g. docs/web) or a temporary folder."""
    where = Path(os.environ.get("METROBOT_WEB_SHOTS") or tmp_path_factory.mktemp("shots"))
    where.mkdir(parents=True, exist_ok=True)
    return where
