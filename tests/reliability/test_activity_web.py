"""The board as a Discord Activity (issue 45): bad input and secrecy.

Bad input: forged, reused and expired codes, a code of someone not in the Activity, an instance
of another channel or server (or none), a missing client secret, forged, altered, expired and
revoked sessions, a watcher's session that tries to play, and hypothesis-made junk bodies: each
is refused with a clear word (JSON), nothing in the database changes, no traceback, and no
code, access token, session or secret in any log line.

Secrecy: the Activity's answers for a person are their play page's (the seat, its JSON and its
pictures are the play page's own); a watcher's are the game page's (never a hand)."""

from __future__ import annotations

import json
import logging

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrobot.i18n import lang
from metrobot.play import access
from metrobot.play.board import plain
from metrobot.web import activitytoken
from tests.web.activity_world import close_activity_world, make_activity_world

from .sizes import scale

pytestmark = pytest.mark.timeout(600)


async def snapshot(world) -> tuple:
    row = await world.service.db.game(world.game)
    return row.version, row.moves, len(await world.service.db.actions(world.game))


async def post_session(http, world, **body) -> tuple[int, dict]:
    async with http.post(world.base + "/activity/api/session", json=body) as answer:
        text = await answer.text()
        try:
            return answer.status, json.loads(text)
        except ValueError:
            raise AssertionError(f"{answer.status}: {text[:300]}") from None


def instance_body(world, user: int, code: str | None = None, channel: int | None = None) -> dict:
    _query, instance = world.frame_query(user, channel)
    return {
        "code": code or world.standin.authorize(user),
        "instance_id": instance,
        "channel_id": str(channel or world.channel),
        "guild_id": str(world.standin.guild_id),
    }


def secrets_of(world, caplog_text: str) -> list[str]:
    """Every secret (the client secret, access tokens, codes) that shows up in the log text."""
    held = [world.auth.client_secret, *world.standin.access_tokens(), *world.standin.used_codes()]
    return [s for s in held if s and s in caplog_text]


async def test_every_bad_way_in_is_refused_and_logged_without_a_secret(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    world = await make_activity_world(tmp_path)
    try:
        before = await snapshot(world)
        async with aiohttp.ClientSession() as http:
            good = instance_body(world, world.bob)
            status, body = await post_session(http, world, **good)
            assert status == 200 and body["seated"] is True
            bearer = body["session"]
            # the same code again, a forged one, an expired one
            assert (await post_session(http, world, **good))[1]["error"] == "code"
            assert (await post_session(http, world, **dict(good, code="forged-code")))[0] == 401
            late = world.standin.authorize(world.bob)
            world.standin.expire_code(late)
            status, body = await post_session(http, world, **dict(good, code=late))
            assert status == 401 and "Close the Activity" in body["message"]
            # someone who is not in the Activity's instance, an instance of another channel, none
            stranger = world.standin.add_member(name="Dee")
            status, body = await post_session(http, world, **dict(good, code=world.standin.authorize(stranger)))
            assert status == 403 and body["error"] == "instance"
            elsewhere = instance_body(world, world.bob, channel=world.other_channel)
            assert (await post_session(http, world, **dict(elsewhere, channel_id=str(world.channel))))[0] == 403
            other_guild = world.standin.add_guild("Other")
            assert (
                await post_session(http, world, **dict(instance_body(world, world.bob), guild_id=str(other_guild)))
            )[0] == 403
            fresh = world.standin.authorize(world.bob)
            status, body = await post_session(http, world, **dict(good, code=fresh, instance_id="i-1-gc-2-3"))
            assert status == 403 and body["error"] == "instance"
            # an instance where no game runs: said so
            status, body = await post_session(
                http, world, **instance_body(world, world.bob, channel=world.other_channel)
            )
            assert status == 404 and body["error"] == "no_game"
            # junk bodies
            for junk in ([], "x", {"code": 5}, {"code": "a", "instance_id": "../../x"}, {"code": "a" * 500}):
                async with http.post(world.base + "/activity/api/session", json=junk) as answer:
                    assert answer.status == 400
            # sessions: forged, altered, expired, another person's seat, a watcher who tries to play
            headers = {"Authorization": f"Bearer {bearer}"}
            async with http.get(world.base + "/activity/api/play/live", headers=headers) as answer:
                assert answer.status == 200
            game, user, until, instance, sig = bearer.split(".")
            for forged in (
                f"{game}.{world.ann}.{until}.{instance}.{sig}",
                f"{game}.{user}.{int(until) + 1}.{instance}.{sig}",
                f"{game}.{user}.{until}.{instance}.{'A' * 24}",
                f"{game}.{user}.{until}.{sig}",  # (a session of before issue 58, without its instance)
                "",
                "junk",
            ):
                async with http.get(
                    world.base + "/activity/api/play/live", headers={"Authorization": f"Bearer {forged}"}
                ) as answer:
                    assert answer.status == 401
            row = await world.service.db.game(world.game)
            old, _ = await activitytoken.issue(world.service, row, user, instance, now=0)
            async with http.get(
                world.base + "/activity/api/view", headers={"Authorization": f"Bearer {old}"}
            ) as answer:
                assert answer.status == 401
            status, body = await post_session(http, world, **instance_body(world, world.cy))
            watcher = {"Authorization": f"Bearer {body['session']}", "Content-Type": "application/json"}
            assert body["seated"] is False
            for what in ("compose", "confirm"):
                async with http.post(
                    world.base + f"/activity/api/play/{what}",
                    headers=watcher,
                    data=json.dumps({"moves": row.moves, "steps": ["x"]}),
                ) as answer:
                    assert answer.status == 404
            # a session dies with the server's key (/server settings web_new_key)
            await world.service.db.web.change_web(str(world.standin.guild_id), public=None, rotate=True)
            async with http.get(world.base + "/activity/api/view", headers=headers) as answer:
                assert answer.status == 401
        assert await snapshot(world) == before
    finally:
        await close_activity_world(world)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not secrets_of(world, caplog.text), "a secret reached the log"
    assert bearer not in caplog.text


async def test_the_secret_check_sees_a_leak(tmp_path, caplog):
    """The check above notices a token in the log (a fault put in on purpose)."""
    caplog.set_level(logging.DEBUG)
    world = await make_activity_world(tmp_path)
    try:
        async with aiohttp.ClientSession() as http:
            assert (await post_session(http, world, **instance_body(world, world.bob)))[0] == 200
        logging.getLogger("metrobot.web").info("exchanged: %s", world.standin.access_tokens()[0])
    finally:
        await close_activity_world(world)
    assert secrets_of(world, caplog.text)


async def test_a_missing_client_secret_is_said_clearly(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    world = await make_activity_world(tmp_path, secret=None)
    try:
        async with aiohttp.ClientSession() as http:
            status, body = await post_session(http, world, **instance_body(world, world.bob))
        assert status == 503 and body["error"] == "setup" and "client secret" in body["message"]
        assert not world.standin.token_exchanges  # (nothing was asked of Discord)
    finally:
        await close_activity_world(world)
    assert any("METROBOT_ACTIVITY_CLIENT_SECRET" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.mark.parametrize("size", [scale(30, 400)])
async def test_junk_sessions_and_bodies(tmp_path, caplog, size):
    caplog.set_level(logging.INFO)
    world = await make_activity_world(tmp_path)
    text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
    value = st.one_of(text, st.integers(), st.none(), st.booleans(), st.lists(text, max_size=3))
    try:
        before = await snapshot(world)
        bodies: list = []
        bearers: list = []

        @settings(max_examples=size, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
        @given(body=st.dictionaries(st.sampled_from(["code", "instance_id", "channel_id", "guild_id", "game"]), value))
        def junk_session(body):
            bodies.append(body)

        @settings(max_examples=size, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
        @given(token=text, path=st.sampled_from(["view", "play/live", "play/seat", "board/0.png"]))
        def junk_bearer(token, path):
            bearers.append(("".join(c for c in token if c.isascii() and c.isprintable()), path))

        junk_session()
        junk_bearer()
        async with aiohttp.ClientSession() as http:
            for body in bodies:
                async with http.post(world.base + "/activity/api/session", json=body) as answer:
                    assert answer.status in (400, 401, 403), (body, answer.status)
            for token, path in bearers:
                headers = {"Authorization": "Bearer " + token.strip()}
                async with http.get(world.base + f"/activity/api/{path}", headers=headers) as answer:
                    assert answer.status == 401, (token, path, answer.status)
        assert await snapshot(world) == before
    finally:
        await close_activity_world(world)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_the_activity_answers_a_person_as_their_play_page_does(tmp_path):
    world = await make_activity_world(tmp_path)
    try:
        row = await world.service.db.game(world.game)
        async with aiohttp.ClientSession(headers={"Accept-Language": "ko"}) as http:
            link = world.base + await access.path(world.service, row, str(world.bob))
            token = await access.token(world.service, row, str(world.bob))
            _status, body = await post_session(http, world, **instance_body(world, world.bob))
            bearer = {"Authorization": f"Bearer {body['session']}"}
            ask = {"moves": row.moves, "steps": []}
            async with (
                http.post(link + "compose", json=ask, headers={"X-Play-Token": token}) as by_link,
                http.post(world.base + "/activity/api/play/compose", json=ask, headers=bearer) as by_activity,
            ):
                assert by_link.status == by_activity.status == 200
                page, framed = await by_link.json(), await by_activity.json()
            assert page == framed  # (the same seat, its steps and targets, in Korean)
            async with (
                http.get(link + page["board"]["picture"]) as a,
                http.get(world.base + "/activity/api/play/" + page["board"]["picture"], headers=bearer) as b,
            ):
                assert a.status == b.status == 200 and await a.read() == await b.read()
            # a watcher reads what the game's page shows, never a hand
            _status, body = await post_session(http, world, **instance_body(world, world.cy))
            async with http.get(
                world.base + "/activity/api/view", headers={"Authorization": f"Bearer {body['session']}"}
            ) as answer:
                view = await answer.json()
            public = await world.service.web_game.game_page(row, lang("ko"))
            assert view["alt"] == plain(public.description) and view["prompt"] == plain(public.prompt)
            assert [s["line"] for s in view["standings"]] == [f"{s.name}: {s.score}" for s in public.standings]
            async with http.get(  # (a Chinese reader's lines take the full-width colon)
                world.base + "/activity/api/view",
                headers={"Authorization": f"Bearer {body['session']}", "Accept-Language": "zh-CN"},
            ) as answer:
                chinese = await answer.json()
            assert [s["line"] for s in chinese["standings"]] == [f"{s.name}：{s.score}" for s in public.standings]
            assert "targets" not in view and "hand" not in view
    finally:
        await close_activity_world(world)
