"""A player's review on the web (issue 64): a section beside the game's replay, opened only by
that player's own link (the Discord answer hands it out); another player's, a non-player's or a
forged link opens nothing; a review not yet made is not made by the page."""

from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot.games import get_plugin
from metrobot.games import review as pure
from metrobot.review import reviews as reviews_module
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.wiring import GameService
from tests.web.world import ANN, BOB, CY, GUILD, play_turns

CHANNEL = "910000000000000002"
BASE = "http://127.0.0.1:1/metro"


@pytest.fixture
async def served(tmp_path, monkeypatch):
    def small(game, players, options, seed, entries, person, key):
        plugin = get_plugin(game)
        # the plan alone: the suggestion's selection has its tests in tests/test_review.py
        return pure.review(
            plugin.game, plugin.reviewing, players, options, seed, entries, person, key, seconds=0.05, deals=2, select=0
        )

    monkeypatch.setattr(reviews_module, "review_by_name", small)
    db = await Database(tmp_path / "review.sqlite3").open()
    service = GameService(db, seeds=fixed_seeds(8), images=False)
    await service.lobby.new_game(CHANNEL, GUILD, ANN, "Ann", "underground", {"map": "london"}, 2)
    await service.lobby.join(CHANNEL, BOB, "Bob")
    await service.lobby.start(CHANNEL, ANN)
    await play_turns(service, CHANNEL, None)
    service.images = True
    service.web_base = BASE
    async with TestClient(TestServer(make_app(service))) as client:
        yield service, client
    service.painter.close()
    await db.close()


async def test_a_players_review_opens_by_their_link_only(served):
    service, client = served
    row = await service.db.last_game(CHANNEL)
    assert row.status == "finished"
    out = await service.reviews.review(CHANNEL, ANN)
    (link,) = re.findall(re.escape(BASE) + r"(/g/\S+/review/\S+/)", out.reply.text)
    assert link == await service.links.review_path(row, ANN)
    page = await client.get(link)
    html = await page.text()
    assert page.status == 200 and "Your review by the strong player" in html and f"#{row.id}" in html
    kept = await service.db.reviews.review(row.id, ANN)
    assert html.count("<figure>") == len(kept["worst"])
    for src in re.findall(r'<img src="([^"]+)"', html):
        assert (await client.get(link + src)).status == 200  # the boards, as the replay draws them
    # Bob's own link works, and says his review is not made yet (the page does not make it)
    bob = await client.get(await service.links.review_path(row, BOB))
    assert bob.status == 200 and "not made yet" in await bob.text()
    assert await service.db.reviews.review(row.id, BOB) is None
    # Ann's signature does not open Bob's review, a non-player's or a forged one opens nothing
    ann_sig = link.rstrip("/").split("/")[-1]
    game_path = await service.links.game_path(row)
    for forged in (
        f"{game_path}review/{BOB}/{ann_sig}/",
        f"{game_path}review/{CY}/{ann_sig}/",
        (await service.links.review_path(row, CY)),
        link[:-2] + ("A/" if link[-2] != "A" else "B/"),
    ):
        assert (await client.get(forged)).status == 404, forged
