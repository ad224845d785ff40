"""Bad input to the play page (issue 44): forged, altered, revoked, another seat's, a seat given
up and ended games' links; missing, wrong and another seat's tokens; stale positions; junk
step codes, junk JSON and junk headers. Whatever comes in, the answer is a 404 (the link opens
nothing: not a word of the game), a 400 (the token, the body or a step is refused) or a 409 (the
game has moved on: the position as it is now), never a 500 and never a traceback; nothing in
the database changes except by a legal move confirmed with its token."""

from __future__ import annotations

import json
import logging
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrobot.play import access
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.wiring import GameService

from .sizes import scale

pytestmark = pytest.mark.timeout(1800)
GUILD = "740000000000000001"
ANN, BOB, CY = "840000000000000001", "840000000000000002", "840000000000000003"
RUNNING, ENDED, LEFT = "940000000000000001", "940000000000000002", "940000000000000003"
JUNK = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), JUNK),
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(JUNK, inner, max_size=5)),
    max_leaves=12,
)


async def world():
    db = await Database(":memory:").open()
    service = GameService(db, seeds=fixed_seeds(4), images=False)
    service.web_base = "http://127.0.0.1"
    for channel, kind in ((RUNNING, "underground"), (ENDED, "metromania"), (LEFT, "flipwrite")):
        await service.lobby.new_game(channel, GUILD, ANN, "Ann", kind, {}, 2)
        await service.lobby.join(channel, BOB, "Bob")
        await service.lobby.start(channel, ANN)
    await service.lobby.abort(ENDED, ANN, manager=True)
    await service.lobby.leave(LEFT, BOB)
    return db, service


def parts(path: str) -> tuple[str, str, str]:
    _, _, game, user, sig, _ = path.split("/")
    return game, user, sig


async def state_of(db) -> list:
    """What must not change: every game's version, its log's length, the servers' rows."""
    rows = [await db.open_game(c) or await db.last_game(c) for c in (RUNNING, ENDED, LEFT)]
    return [(r.id, r.version, r.status, len(await db.actions(r.id))) for r in rows] + [await db.people.server(GUILD)]


async def test_links_tokens_positions_and_steps_that_do_not_fit(caplog):
    db, service = await world()
    caplog.set_level(logging.INFO)
    try:
        async with TestClient(TestServer(make_app(service))) as client:
            row = await db.open_game(RUNNING)
            mover = row.waiting[0]
            other = BOB if mover == ANN else ANN
            good = await access.path(service, row, mover)
            theirs = await access.path(service, row, other)
            game, user, sig = parts(good)
            html = await (await client.get(good)).text()
            token = re.search(r'name="play-token" content="([^"]+)"', html).group(1)
            their_token = re.search(
                r'name="play-token" content="([^"]+)"', await (await client.get(theirs)).text()
            ).group(1)
            moves = int(re.search(r'"moves": (\d+)', html).group(1))
            code = re.search(r'"targets": \[\{"code": "([^"]+)"', html).group(1)
            before = await state_of(db)

            async def status(method: str, path: str, body=None, headers=None) -> int:
                answer = await client.request(method, path, json=body, headers=headers or {}, allow_redirects=False)
                text = await answer.text()
                if answer.status == 404:
                    assert "Ann" not in text and "Bob" not in text, path
                return answer.status

            altered = sig[:-1] + ("A" if sig[-1] != "A" else "B")
            # links that open nothing
            for path in (
                f"/play/{game}/{user}/{'A' * 24}/",
                f"/play/{game}/{user}/{altered}/",
                f"/play/{game}/{other}/{sig}/",  # another seat with this seat's signature
                f"/play/{int(game) + 50}/{user}/{sig}/",
                f"/play/{game}/{CY}/{sig}/",
            ):
                for tail in ("", "live", "moved?since=0", "picture/0-en-off-W10.png"):
                    assert await status("GET", path + tail) == 404, path + tail
                assert (
                    await status("POST", path + "compose", {"moves": moves, "steps": []}, {"X-Play-Token": token})
                    == 404
                )
            for channel, person in ((ENDED, ANN), (LEFT, BOB)):  # a game over, a seat given up
                ended = await db.open_game(channel) or await db.last_game(channel)
                path = await access.path(service, ended, person)
                assert await status("GET", path) == 404, channel
            # tokens
            post = good + "compose"
            assert await status("POST", post, {"moves": moves, "steps": [code]}) == 400
            assert await status("POST", post, {"moves": moves, "steps": [code]}, {"X-Play-Token": "x" * 24}) == 400
            assert await status("POST", post, {"moves": moves, "steps": [code]}, {"X-Play-Token": their_token}) == 400
            assert (
                await status("POST", good + "confirm", {"moves": moves, "steps": [code]}, {"X-Play-Token": ""}) == 400
            )
            # positions and steps
            h = {"X-Play-Token": token}
            assert await status("POST", post, {"moves": moves + 1, "steps": [code]}, h) == 409
            assert await status("POST", good + "confirm", {"moves": moves + 3, "steps": [code]}, h) == 409
            for steps in (["junk"], [code, "junk"], [code] * 3, ["p:red:999999"], [""], ["x" * 201], [1], "p:red:1"):
                for tail in ("compose", "confirm"):
                    assert await status("POST", good + tail, {"moves": moves, "steps": steps}, h) == 400, (tail, steps)
            assert await status("POST", good + "confirm", {"moves": moves, "steps": []}, h) == 400
            assert (
                await status("POST", good + "compose", {"moves": moves, "steps": [], "typed": "no such step"}, h) == 400
            )
            # not this person's turn: the other seat composes nothing and plays nothing
            th = {"X-Play-Token": their_token}
            assert await status("POST", theirs + "compose", {"moves": moves, "steps": [code]}, th) == 400
            assert await status("POST", theirs + "confirm", {"moves": moves, "steps": [code]}, th) == 400
            # ↶ Take back: no move of theirs to take back, steps where none belong, no token
            assert await status("POST", good + "takeback", {"moves": moves, "steps": []}, h) == 400
            assert await status("POST", good + "takeback", {"moves": moves, "steps": [code]}, h) == 400
            assert await status("POST", good + "takeback", {"moves": moves, "steps": []}) == 400
            assert await status("POST", theirs + "takeback", {"moves": moves, "steps": []}, th) == 400
            # what became of a position: junk positions are refused, a real one changes nothing
            for since in ("", "x", "-1", "1" * 19, "1.5"):
                assert await status("GET", good + f"moved?since={since}") == 400, since
            assert await status("GET", good + f"moved?since={moves}") == 200
            # a GET where a POST belongs, and the reverse
            assert await status("GET", post) == 404
            assert await status("GET", good + "takeback") == 404
            assert await status("POST", good, {"moves": moves}, h) == 404
            assert await state_of(db) == before

            # hypothesis-made bodies and headers: 400 or 409, nothing played
            seen = {"requests": 0}

            @settings(
                max_examples=scale(200, 3000), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
            )
            @given(
                tail=st.sampled_from(["compose", "confirm"]),
                body=st.one_of(
                    JSONISH,
                    st.fixed_dictionaries(
                        {"moves": st.one_of(st.just(moves), st.integers(-5, 10**20), JSONISH)},
                        optional={
                            "steps": st.one_of(st.lists(JUNK, max_size=20), JSONISH),
                            "typed": JSONISH,
                            "again": JSONISH,
                        },
                    ),
                ),
                raw=st.one_of(st.none(), st.binary(max_size=200), st.just(b"x" * 9000)),
                token_given=st.one_of(st.just(token), st.just(None), JUNK),
                content_type=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]),
            )
            def make(tail, body, raw, token_given, content_type):
                runs.append((tail, body, raw, token_given, content_type))

            runs: list = []
            make()
            for tail, body, raw, token_given, content_type in runs:
                headers = {"Content-Type": content_type}
                if token_given is not None and token_given.isascii() and token_given.isprintable():
                    headers["X-Play-Token"] = token_given
                data = raw if raw is not None else json.dumps(body).encode()
                answer = await client.post(good + tail, data=data, headers=headers)
                await answer.read()
                seen["requests"] += 1
                assert answer.status in (200, 400, 409), (tail, body, raw, answer.status)
                if tail == "confirm":
                    assert answer.status != 200, (body, raw)
            assert seen["requests"] >= scale(200, 3000) * 0.9
        assert await state_of(db) == before
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    finally:
        service.painter.close()
        await db.close()


async def test_a_revoked_link_opens_nothing():
    db, service = await world()
    try:
        async with TestClient(TestServer(make_app(service))) as client:
            row = await db.open_game(RUNNING)
            path = await access.path(service, row, ANN)
            html = await (await client.get(path)).text()
            token = re.search(r'name="play-token" content="([^"]+)"', html).group(1)
            await service.links.web_settings(GUILD, manager=True, public=None, rotate=True)
            assert (await client.get(path)).status == 404
            answer = await client.post(
                path + "compose", json={"moves": 0, "steps": []}, headers={"X-Play-Token": token}
            )
            assert answer.status == 404
            fresh = await access.path(service, row, ANN)
            assert fresh != path and (await client.get(fresh)).status == 200
    finally:
        service.painter.close()
        await db.close()
