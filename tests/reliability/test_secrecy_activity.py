"""Secrecy suite, the Activity in a tournament's hall (issue 58): during a duplicate round
every table plays one deal, so a table further on shows the cards still to come at another.
As on the tournament's and the server's pages (`hidden_round`), the Activity opens only the
person's own table while the round runs: another table asked for by its id is refused with
the rule's words, and someone seated nowhere is never given the list of tables."""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.clock import Clock
from tests.service.tourney_kit import Hall, settle
from tests.web.activity_world import close_activity_world, make_activity_world

pytestmark = pytest.mark.timeout(600)


async def session(http, world, user: int, channel: int, game: int | None = None) -> tuple[int, dict]:
    _query, instance = world.frame_query(user, channel)
    body = {
        "code": world.standin.authorize(user),
        "instance_id": instance,
        "channel_id": str(channel),
        "guild_id": str(world.standin.guild_id),
    }
    if game is not None:
        body["game"] = game
    async with http.post(world.base + "/activity/api/session", json=body) as answer:
        return answer.status, json.loads(await answer.text())


async def test_a_duplicate_rounds_other_tables_are_refused_and_never_listed(tmp_path):
    world = await make_activity_world(tmp_path)
    try:
        svc, standin = world.app, world.standin
        guild = str(standin.guild_id)
        hall = standin.create_channel("hall")
        dan, eve = standin.add_member(name="Dan"), standin.add_member(name="Eve")
        await svc.tournaments.tournament_new(
            str(hall), guild, "host", "flipwrite", "swiss", manager=True, table_size=2, rounds=2, duplicate=True
        )
        for user, name in ((world.ann, "Ann"), (world.bob, "Bob"), (world.cy, "Cy"), (dan, "Dan")):
            await svc.tournaments.tournament_join(str(hall), guild, str(user), name)
        await svc.tournaments.tournament_start(str(hall), guild, "host", manager=True)
        await settle(svc, Hall())
        snap = await svc.service.db.tournaments.snapshot(
            (await svc.service.db.tournaments.open_tournament(str(hall))).id
        )
        tables = [t for t in snap.tables if t.game_id is not None]
        assert len(tables) == 2
        mine, other = tables
        player = int(mine.seats[0])
        async with aiohttp.ClientSession() as http:
            status, body = await session(http, world, player, hall)  # their own table opens
            assert status == 200 and body["game"] == mine.game_id and body["seated"] is True
            status, body = await session(http, world, player, hall, other.game_id)  # another: refused
            assert status == 403 and body["error"] == "hidden" and "session" not in body, body
            assert "duplicate round" in body["message"] and "your own table" in body["message"]
            for game in (None, mine.game_id, other.game_id):  # seated nowhere: no table, no list
                status, body = await session(http, world, eve, hall, game)
                assert status == 403 and body["error"] == "hidden", body
                assert "choose" not in body and "session" not in body
                assert not any(str(t.game_id) in json.dumps(body) for t in tables)
    finally:
        await close_activity_world(world)


async def test_a_session_ends_within_a_minute_of_leaving_the_activity(tmp_path):
    """Someone who leaves the Activity — or can no longer see its channel, which takes them out
    of it on Discord — kept a session of four hours; now the pages ask Discord who is in the
    instance again (at most once a minute an instance, on the auth's clock, frozen here)."""
    world = await make_activity_world(tmp_path)
    world.auth.clock = clock = Clock(5000.0)
    try:
        row = await world.service.db.game(world.game)
        async with aiohttp.ClientSession() as http:
            bearers = {}
            for user in (world.ann, world.bob):
                status, body = await session(http, world, user, world.channel)
                assert status == 200 and body["seated"] is True
                bearers[user] = {"Authorization": f"Bearer {body['session']}"}
            instance = body["session"].split(".")[3]
            for user in (world.ann, world.bob):
                for path in ("view", "play/live", "play/seat"):
                    async with http.get(world.base + f"/activity/api/{path}", headers=bearers[user]) as answer:
                        assert answer.status == 200, (user, path)
            world.standin.leave_activity(world.bob, instance)  # Bob leaves (or loses sight of the channel)
            clock.advance(60)
            for path in ("view", "play/live", "play/seat", "board/0.png"):
                async with http.get(world.base + f"/activity/api/{path}", headers=bearers[world.bob]) as answer:
                    assert answer.status == 401, path
                    assert (await answer.json()) == {"error": "session"}
            ask = {"moves": row.moves, "steps": []}
            async with http.post(world.base + "/activity/api/play/compose", json=ask, headers=bearers[world.bob]) as a:
                assert a.status == 401
            async with http.get(world.base + "/activity/api/view", headers=bearers[world.ann]) as answer:
                assert answer.status == 200  # (Ann is still in it)
    finally:
        await close_activity_world(world)


async def test_only_discord_and_this_apps_own_activity_may_frame_it(tmp_path):
    """`frame-ancestors` named `https://*.discordsays.com`: every app's Activity could frame
    ours. It names this application's own origin."""
    world = await make_activity_world(tmp_path)
    try:
        own = f"https://{world.standin.application_id}.discordsays.com"
        async with aiohttp.ClientSession() as http:
            for path in ("/activity/", "/activity/api/view", "/activity/api/session"):
                async with http.get(world.base + path) as answer:
                    policy = answer.headers["Content-Security-Policy"]
                    ancestors = policy.split("frame-ancestors ")[1].split(";")[0].split()
                    assert own in ancestors and not any("*" in a for a in ancestors), (path, policy)
                    assert all(a == "'self'" or a.startswith("https://") for a in ancestors)
    finally:
        await close_activity_world(world)
