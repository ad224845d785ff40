"""Bad input, bodies (issue 58): every endpoint of the web pages and of the Activity — taken
from the route table, so that a new one is covered without touching this file — is sent a body
over the 4 KiB limit, a body that is not JSON (words, a form, bytes that are not UTF-8) and a
good JSON body labelled as something else, with the credentials that open it (the game's,
the play page's signature and token, the Activity's session). The answer is a 4xx where the
endpoint reads a body and never a 500; no line of the log is an ERROR or carries a traceback
(anyone could fill the log so); nothing in the database changes."""

from __future__ import annotations

import logging
import re

import aiohttp
import pytest

from metrobot.play import access
from metrobot.web.activity import sdk_version
from tests.web.activity_world import close_activity_world, make_activity_world

pytestmark = pytest.mark.timeout(600)
LIMIT = 4096  # (make_app's client_max_size)
BODIES = [
    ("application/json", b'{"code": "' + b"x" * LIMIT + b'"}'),  # over the limit
    ("application/json", b"[" * (LIMIT + 1)),
    ("application/json", b"this is not JSON"),
    ("application/json", b'{"code": "\xff\xfe"}'),  # not UTF-8
    ("application/x-www-form-urlencoded", b"code=abc&instance_id=i-1-pc-2"),
    ("text/plain", b"x" * (LIMIT * 4)),
]


def filled(canonical: str, signatures: dict[str, str], world, game: int) -> str:
    """The route's address with the values that open it (a signature of the right kind)."""
    values = {
        "id": str(game),
        "user": str(world.bob),
        "guild": str(world.standin.guild_id),
        "pos": "0",
        "lang": "en",
        "tag": "00000000",
        "name": "site.css",
        "version": sdk_version(),
        "path": "index.mjs",
        "sig": signatures.get(canonical.split("/")[1], "A" * 24),
        "rsig": "A" * 24,  # (a review's page: a forged signature opens nothing)
        "kind": "flipwrite",  # (the daily challenge's table of a day)
        "day": "2026-11-27",
    }
    return re.sub(r"\{(\w+)(?::[^{}]*(?:\{[^{}]*\}[^{}]*)*)?\}", lambda m: values[m[1]], canonical)


async def test_every_endpoint_refuses_an_oversized_or_non_json_body_without_a_traceback(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    world = await make_activity_world(tmp_path)
    try:
        service = world.service
        row = await service.db.game(world.game)
        signatures = {
            "g": (await service.links.game_path(row)).split("/")[3],
            "s": (await service.links.server_path(str(world.standin.guild_id))).split("/")[3],
            "p": (await service.links.person_path(str(world.standin.guild_id), str(world.bob))).split("/")[4],
            "play": (await access.path(service, row, str(world.bob))).split("/")[4],
        }
        before = (row.version, row.moves, len(await service.db.actions(world.game)))
        routes = [
            (route.method, route.resource.canonical)
            for route in world.runner.app.router.routes()
            if route.resource is not None and route.method not in ("HEAD", "OPTIONS")
        ]
        posts = [path for method, path in routes if method == "POST"]
        assert "/activity/api/session" in posts and any(p.startswith("/play/") for p in posts)
        assert any(p.startswith("/activity/api/play/") for p in posts)
        async with aiohttp.ClientSession() as http:
            _query, instance = world.frame_query(world.bob)
            good = {"instance_id": instance, "channel_id": str(world.channel), "guild_id": str(world.standin.guild_id)}
            async with http.post(
                world.base + "/activity/api/session", json=dict(good, code=world.standin.authorize(world.bob))
            ) as answer:
                assert answer.status == 200
                bearer = (await answer.json())["session"]
            headers = {
                "Authorization": f"Bearer {bearer}",
                "X-Play-Token": await access.token(service, row, str(world.bob)),
            }
            for method, canonical in routes:
                url = world.base + filled(canonical, signatures, world, world.game)
                for kind, body in BODIES:
                    async with http.request(method, url, data=body, headers=headers | {"Content-Type": kind}) as a:
                        if method == "POST":
                            assert a.status in (400, 413), (method, canonical, kind, a.status)
                        else:
                            assert a.status < 500, (method, canonical, kind, a.status)
            # a good body labelled as words (as a form posted from another site would be) is refused too
            labelled = [
                (
                    "/activity/api/session",
                    f'{{"code": "{world.standin.authorize(world.bob)}", "instance_id": "{instance}"}}',
                ),
                (await access.path(service, row, str(world.bob)) + "compose", f'{{"moves": {row.moves}, "steps": []}}'),
            ]
            for path, text in labelled:
                async with http.post(
                    world.base + path, data=text, headers=headers | {"Content-Type": "text/plain"}
                ) as a:
                    assert a.status == 400, (path, a.status)
        row = await service.db.game(world.game)
        assert (row.version, row.moves, len(await service.db.actions(world.game))) == before
    finally:
        await close_activity_world(world)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
