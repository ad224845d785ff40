"""The Activity's page and files: Discord's SDK vendored as its checksums say, served under its
version as JavaScript for good; only the Activity's addresses may be framed (by Discord), every
other page keeps DENY and frame-ancestors 'none'; without the Activity set up, none of it exists."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot.app import build
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.web.activity import FRAMERS, sdk_version
from tests.web.activity_world import close_activity_world, make_activity_world
from tools import discord_sdk


def test_the_vendored_sdk_is_what_its_checksums_say():
    assert discord_sdk.check() == []
    assert sdk_version() == discord_sdk.PINNED
    assert (discord_sdk.VENDOR / "LICENSE.md").read_text().startswith("MIT License")


def test_the_check_sees_a_changed_file(tmp_path):
    import shutil

    copy = tmp_path / "sdk"
    shutil.copytree(discord_sdk.VENDOR, copy)
    (copy / "output" / "index.mjs").write_text("// changed\n")
    (copy / "output" / "extra.mjs").write_text("")
    assert discord_sdk.check(copy) == ["changed: output/index.mjs", "not listed: output/extra.mjs"]


async def test_headers_and_files(tmp_path):
    world = await make_activity_world(tmp_path)
    try:
        row = await world.service.db.game(world.game)
        game = world.base + await world.service.links.game_path(row)
        async with aiohttp.ClientSession() as http:
            for framed in ("/activity", "/activity/", "/activity/?frame_id=1&instance_id=2&platform=mobile"):
                async with http.get(world.base + framed) as answer:
                    assert answer.status == 200 and "X-Frame-Options" not in answer.headers
                    own = f"https://{world.standin.application_id}.discordsays.com"  # (this app's, not every app's)
                    assert f"frame-ancestors {FRAMERS} {own};" in answer.headers["Content-Security-Policy"]
                    assert "*" not in answer.headers["Content-Security-Policy"]
                    page = await answer.text()
                    # relative addresses only (Discord's proxy, with or without /.proxy/)
                    assert 'src="static/activity.js?v=' in page and 'data-sdk="sdk/2.5.0/index.mjs"' in page
                    assert 'href="/' not in page and 'src="/' not in page
            for other in (
                game,
                game + "live",
                world.base + "/favicon.ico",
                world.base + "/activityx",
                world.base + "/",
            ):
                async with http.get(other) as answer:
                    assert answer.headers["X-Frame-Options"] == "DENY", other
                    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"], other
            async with http.get(world.base + "/activity/sdk/2.5.0/index.mjs") as answer:
                assert answer.status == 200
                assert answer.headers["Content-Type"].startswith("text/javascript")
                assert "immutable" in answer.headers["Cache-Control"]
            for missing in (
                "/activity/sdk/2.4.0/index.mjs",
                "/activity/sdk/2.5.0/../VERSION",
                "/activity/sdk/2.5.0/x.mjs",
            ):
                async with http.get(world.base + missing) as answer:
                    assert answer.status == 404
    finally:
        await close_activity_world(world)


@pytest.mark.parametrize("path", ["/activity/", "/activity/sdk/2.5.0/index.mjs"])
async def test_no_activity_without_its_settings(tmp_path, path):
    db = await Database(tmp_path / "plain.sqlite3").open()
    app = build(db, seeds=fixed_seeds(1), images=False)
    service = app.service
    try:
        async with TestClient(TestServer(make_app(service, tournaments=app.tournaments))) as client:
            answer = await client.get(path)
            assert answer.status == 404
            answer = await client.post("/activity/api/session", json={"code": "x", "instance_id": "i-1-pc-2"})
            assert answer.status == 404
    finally:
        service.painter.close()
        await db.close()
