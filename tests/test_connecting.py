"""Reaching Discord at start-up (issue 42; the whole bot against a late stand-in is in
tests/e2e/test_startup.py): which failures are weather and tried again, how each is said in
one line, the growing pause, and a stop while waiting."""

from __future__ import annotations

import errno
import logging
import socket
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from metrobot.discord_app.connecting import describe, patiently, pause, unreachable

KEY = SimpleNamespace(host="discord.com", port=443, ssl=True)


def test_the_pause_doubles_up_to_a_minute():
    assert [pause(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]


def test_what_failed_is_said_in_a_few_words():
    refused = aiohttp.ClientConnectorError(KEY, ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed"))
    dns = aiohttp.ClientConnectorDNSError(KEY, socket.gaierror(socket.EAI_NONAME, "Name or service not known"))
    assert describe(refused) == "cannot connect to discord.com:443 (connection refused)"
    assert describe(dns) == "the name discord.com does not resolve (DNS)"
    assert describe(TimeoutError()) == "no answer in time"
    assert all(unreachable(e) for e in (refused, dns, TimeoutError(), aiohttp.ServerDisconnectedError()))


def _http_error(kind, status: int, reason: str):
    return kind(SimpleNamespace(status=status, reason=reason), {"message": reason, "code": 0})


def test_a_refused_token_or_a_refusal_is_not_weather_but_a_server_error_is():
    assert not unreachable(_http_error(discord.LoginFailure, 401, "Unauthorized"))
    assert not unreachable(_http_error(discord.Forbidden, 403, "Forbidden"))
    server = _http_error(discord.DiscordServerError, 502, "Bad Gateway")
    assert unreachable(server) and describe(server) == "Discord answered 502 Bad Gateway"


async def test_tries_again_one_line_a_try_and_stops_when_asked(caplog):
    tries, waits = [], []

    async def attempt():
        tries.append(1)
        raise aiohttp.ClientConnectorError(KEY, ConnectionRefusedError(errno.ECONNREFUSED, "refused"))

    async def stopped(seconds):
        waits.append(seconds)
        return len(waits) == 3  # asked to stop during the third pause

    with caplog.at_level(logging.WARNING, "metrobot.discord"):
        assert await patiently("logging in", attempt, stopped, clock=lambda: 0.0) is None
    assert len(tries) == 3 and waits == [1, 2, 4]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3 and all("\n" not in line and r.exc_info is None for line, r in zip(lines, caplog.records))
    assert lines[1].startswith("cannot reach Discord (logging in, try 2): cannot connect to discord.com:443")
    assert "; next try in 2 s, at " in lines[1]


async def test_anything_else_is_raised_at_once():
    async def attempt():
        raise _http_error(discord.LoginFailure, 401, "Unauthorized")

    async def never(seconds):
        raise AssertionError("no second try")

    with pytest.raises(discord.LoginFailure):
        await patiently("logging in", attempt, never)
    with pytest.raises(OSError):  # weather, but not to be tried again (the set-up had begun)
        await patiently("logging in", lambda: _raise(OSError("port in use")), never, may_retry=lambda: False)


async def _raise(exc):
    raise exc
