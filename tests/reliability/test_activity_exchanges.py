"""Bad input, the Activity's code exchange (issue 58): each `POST /activity/api/session` with a
code made the pages exchange it at Discord's `POST /oauth2/token` with the application's
credentials, through a new HTTP session each time and without a limit — anyone could spend the
application's rate limits. The exchanges are limited per address (a bucket, its clock frozen
here) and in number at once, refused in words (429) without asking Discord, and all go through
one HTTP session (one connection, kept alive) for the process."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest

from metrobot.web.discordauth import ExchangeLimit, client_address, networks
from tests.clock import Clock
from tests.web.activity_world import close_activity_world, make_activity_world

pytestmark = pytest.mark.timeout(600)


def junk(world, n: int, code: str = "not-a-real-code") -> dict:
    return {"code": f"{code}-{n}", "instance_id": f"i-{n}-pc-{world.channel}"}


async def post(http, world, body: dict, address: str | None = None) -> tuple[int, dict]:
    headers = {"X-Forwarded-For": address} if address else {}
    async with http.post(world.base + "/activity/api/session", json=body, headers=headers) as answer:
        return answer.status, await answer.json()


async def test_code_exchanges_are_limited_per_address_through_one_session(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    world = await make_activity_world(tmp_path)
    clock = Clock(1000.0)
    world.auth.limit = ExchangeLimit(burst=5, rate=1 / 3, clock=clock)
    world.auth.proxies = networks(["127.0.0.1", "::1"])  # (the test's client stands for a proxy on this machine)
    try:
        async with aiohttp.ClientSession() as http:
            answers = [await post(http, world, junk(world, n), "203.0.113.7") for n in range(12)]
            assert [s for s, _ in answers] == [401] * 5 + [429] * 7
            assert {b["error"] for _, b in answers[5:]} == {"busy"} and "Try again" in answers[-1][1]["message"]
            assert len(world.standin.token_exchanges) == 5  # (the other 7 never reached Discord)
            status, _ = await post(http, world, junk(world, 99), "198.51.100.9")  # another address: its own
            assert status == 401
            clock.advance(3)  # a token back for the first
            assert (await post(http, world, junk(world, 100), "203.0.113.7"))[0] == 401
            assert (await post(http, world, junk(world, 101), "203.0.113.7"))[0] == 429
            # a real sign-in through the same session
            clock.advance(60)
            _query, instance = world.frame_query(world.bob)
            body = {"code": world.standin.authorize(world.bob), "instance_id": instance}
            assert (await post(http, world, body, "198.51.100.9"))[0] == 200
        connections = {e["connection"] for e in world.standin.token_exchanges}
        assert len(world.standin.token_exchanges) == 8 and len(connections) == 1, connections
    finally:
        await close_activity_world(world)
    assert world.auth.http is None  # (closed with the app)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    secret = world.auth.client_secret
    assert secret is not None and secret not in caplog.text


async def test_code_exchanges_at_once_are_limited(tmp_path):
    world = await make_activity_world(tmp_path)
    try:
        world.standin.hold_token_exchanges()  # Discord slow to answer: the exchanges pile up
        async with aiohttp.ClientSession() as http:
            waiting = [asyncio.ensure_future(post(http, world, junk(world, n), f"198.51.100.{n}")) for n in range(4)]
            while len(world.standin.token_exchanges) < 4:
                await asyncio.sleep(0.01)
            refused = [await post(http, world, junk(world, n), f"203.0.113.{n}") for n in range(10, 16)]
            assert {s for s, _ in refused} == {429} and len(world.standin.token_exchanges) == 4
            world.standin.release_token_exchanges()
            assert {s for s, _ in await asyncio.gather(*waiting)} == {401}
            assert (await post(http, world, junk(world, 20), "203.0.113.20"))[0] == 401  # room again
    finally:
        world.standin.release_token_exchanges()
        await close_activity_world(world)


def test_the_address_is_the_peer_or_what_the_operators_proxy_saw():
    """Only a proxy the operator named (METROBOT_TRUSTED_PROXIES) is believed: a private address
    is not one (issue 72: anyone on the same network wrote the header and got a bucket per lie)."""
    local = networks(["127.0.0.1", "::1"])
    assert client_address("8.8.4.4", "198.51.100.1", local) == "8.8.4.4"  # (a header from outside: ignored)
    assert client_address("127.0.0.1", "10.9.9.9, 198.51.100.1", local) == "198.51.100.1"  # (the proxy's own entry)
    assert client_address("::1", "198.51.100.1", local) == "198.51.100.1"
    assert client_address("10.0.0.2", None, local) == "10.0.0.2"
    assert client_address(None, None, local) == "?"
    # a private or loopback peer the operator did not name: its header is its own to write
    assert client_address("10.0.0.2", "198.51.100.1", local) == "10.0.0.2"
    assert client_address("192.168.1.5", "203.0.113.9", local) == "192.168.1.5"
    assert client_address("127.0.0.1", "198.51.100.1") == "127.0.0.1"  # (no proxies named: never believed)
    # a chain of the operator's proxies: the last entry that is not one of them
    chain = networks(["127.0.0.1", "10.1.0.0/16"])
    assert client_address("127.0.0.1", "6.6.6.6, 198.51.100.1, 10.1.2.3", chain) == "198.51.100.1"
    assert client_address("127.0.0.1", " , garbage", chain) == "garbage"  # (what the proxy wrote, as a key)


async def test_a_private_peer_the_operator_did_not_name_cannot_spread_its_exchanges_over_addresses(tmp_path):
    """Without METROBOT_TRUSTED_PROXIES, a client on a private network (here: this machine)
    that writes a new X-Forwarded-For on every request still spends one bucket."""
    world = await make_activity_world(tmp_path)
    clock = Clock(1000.0)
    world.auth.limit = ExchangeLimit(burst=5, rate=1 / 3, clock=clock)
    assert world.auth.proxies == ()  # (the settings' default)
    try:
        async with aiohttp.ClientSession() as http:
            answers = [await post(http, world, junk(world, n), f"203.0.113.{n}") for n in range(8)]
        assert [s for s, _ in answers] == [401] * 5 + [429] * 3
        assert len(world.standin.token_exchanges) == 5
    finally:
        await close_activity_world(world)
