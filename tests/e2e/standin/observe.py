"""What a test reads back about the run as a whole: problems, refused requests, the last requests,
and waiting for any change (``wait_until``)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
from collections.abc import Callable
from typing import Any

from .basics import StandInTimeout, Timeouts, _Signal
from .connections import Sessions


class Diagnostics:
    """What went wrong, and waiting for any change (one part of DiscordStandIn: see server.py).

    Every part records here what the fixture's teardown and a timed-out wait report: endpoints
    nobody serves, the stand-in's own errors, requests refused by design, the last requests."""

    def __init__(self, sessions: Sessions, timeouts: Timeouts, changes: _Signal) -> None:
        self.sessions = sessions
        self.timeouts = timeouts
        self.changes = changes  # after every request the bot makes, every message stored, every session change
        self.allow_unknown_endpoints = False
        self.unknown_requests: list[str] = []
        self.internal_errors: list[str] = []
        self.rejections: collections.deque = collections.deque(maxlen=500)
        self.request_log: collections.deque = collections.deque(maxlen=2000)

    def problems(self) -> list[str]:
        """Unknown endpoints hit and stand-in internal errors (empty when all went well)."""
        problems = [f"unknown endpoint: {u}" for u in self.unknown_requests] if not self.allow_unknown_endpoints else []
        return problems + [f"stand-in internal error: {e}" for e in self.internal_errors]

    def lines(self) -> list[str]:
        """The last problems, for a timed-out wait's message."""
        lines = [f"  unknown endpoint: {u}" for u in self.unknown_requests[-5:]]
        lines += [f"  stand-in internal error: {e.splitlines()[0]}" for e in self.internal_errors[-5:]]
        if not self.sessions.connected:
            lines.append("  (no client is connected to the gateway)")
        return lines

    async def wait_until(
        self,
        check: Callable[[], Any],
        timeout: float | None = None,
        *,
        what: str = "a condition",
        poll: float | None = None,
    ) -> Any:
        """The first true value of ``check()`` (a function or a coroutine function), tried now
        and again after every request the bot makes here (a post, an edit, an answer, a DM),
        every message stored and every gateway session's change; with ``poll``, also every
        ``poll`` seconds, for what the stand-in cannot see change (a row in the bot's
        database). Nothing sleeps a fixed time: it returns as soon as ``check()`` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeouts.resolve(timeout)
        while True:
            event = self.changes.next_change()  # (taken before checking: a change meanwhile is not missed)
            got = check()
            if inspect.isawaitable(got):
                got = await got
            if got:
                return got
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInTimeout("\n".join([f"timed out waiting for {what}", *self.lines()]))
            with contextlib.suppress(TimeoutError):  # (asyncio.timeout: see _Signal.wait_for)
                async with asyncio.timeout(remaining if poll is None else min(remaining, poll)):
                    await event.wait()
