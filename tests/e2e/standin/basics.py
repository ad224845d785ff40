"""Errors, small helpers and the waiting signal the stand-in is built on."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import yarl

from .constants import _PENDING


class StandInTimeout(TimeoutError):
    """A wait on the stand-in ran out of time; the message says what was awaited and what happened."""


class _ApiError(Exception):
    """Raised by REST handlers: becomes a Discord-shaped JSON error answer."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _invalid_form(errors: dict) -> _ApiError:
    return _ApiError(400, 50035, "Invalid Form Body", errors)


def _put_error(errors: dict, path: Sequence[str | int], code: str, message: str) -> None:
    node = errors
    for part in path:
        node = node.setdefault(str(part), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _iso(ts: float | None = None) -> str:
    return datetime.datetime.fromtimestamp(time.time() if ts is None else ts, datetime.UTC).isoformat()


def _json_dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def point_discord_at(api_base: str, gateway_url: str) -> Callable[[], None]:
    """Point this process's discord.py at a stand-in; returns a function restoring the old values.

    Sets ``discord.http.Route.BASE`` (REST, e.g. ``http://127.0.0.1:PORT/api/v10``) and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (``ws://127.0.0.1:PORT/``). A bot running as
    a subprocess does the same from ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``.
    """
    import discord.gateway
    import discord.http

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


class Address:
    """Where the stand-in listens (known once it has started): the parts that hand out URLs
    (attachments, the gateway's) read it when they need it."""

    def __init__(self) -> None:
        self.port: int | None = None

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise RuntimeError("the stand-in is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + "/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"


class Timeouts:
    """How long waits last: ``default`` for a test's waits (``timeout=None``), ``session`` for an
    interaction or a user's message waiting for a client to be connected."""

    def __init__(self, default: float, session: float) -> None:
        self.default = default
        self.session = session

    def resolve(self, timeout: float | None) -> float:
        return self.default if timeout is None else timeout


class _Signal:
    """Level-triggered change notification: waiters re-check their condition after every change.

    ``notify()`` wakes everybody currently waiting; nothing is polled and nothing sleeps."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    def next_change(self) -> asyncio.Event:
        """The event the next ``notify()`` sets (take it before checking: a change meanwhile is not missed)."""
        return self._event

    async def wait_for(self, check: Callable[[], Any], timeout: float, describe: Callable[[], str]) -> Any:
        """Return the first value of ``check()`` that is not ``_PENDING`` (checked now and on every notify)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result is not _PENDING:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInTimeout(describe())
            event = self._event
            # (asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation
            # that comes as the event fires, and the loop would then wait out its whole timeout)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await event.wait()
