"""Reaching Discord at start-up. Discord (or the network, or DNS while a server boots) may
not answer yet when the bot starts: that is weather, not a fault of the bot. Each attempt
that fails is one line in the log — what failed, and when the next try is — and the bot
tries again with a growing pause, in the same process (a service manager restarting it
would only print the same thing again). A token Discord refuses is not weather: that
raises `discord.LoginFailure`, and bot.py says what to do and exits with status 2; any other
refusal (a 4xx) is one line naming the request and what Discord said (`refusal`), never a
traceback.

Once connected, the gateway's own reconnecting (discord.py) takes over."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord

log = logging.getLogger("metrobot.discord")
T = TypeVar("T")

FIRST_PAUSE = 1.0  # seconds before the second try; doubled at each try after that…
LONGEST_PAUSE = 60.0  # …up to a minute


def pause(tries: int) -> float:
    """Seconds to wait after the `tries`-th failed attempt: 1, 2, 4, … 60."""
    return min(LONGEST_PAUSE, FIRST_PAUSE * 2 ** (tries - 1))


def unreachable(exc: BaseException) -> bool:
    """Whether a failure means Discord did not answer (as opposed to answering no)."""
    if isinstance(exc, discord.LoginFailure):
        return False
    if isinstance(exc, discord.DiscordServerError | discord.GatewayNotFound):
        return True  # (Discord's side is down or starting: a 5xx after discord.py's own retries)
    return isinstance(exc, OSError | aiohttp.ClientError | TimeoutError)


def describe(exc: BaseException) -> str:
    """What failed, in a few words (no traceback: the cause is outside the bot)."""
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return f"the name {exc.host} does not resolve (DNS)"
    if isinstance(exc, aiohttp.ClientConnectorError):
        errno = exc.os_error.errno
        cause = os.strerror(errno) if errno else exc.os_error.strerror or type(exc.os_error).__name__
        return f"cannot connect to {exc.host}:{exc.port} ({cause.lower()})"
    if isinstance(exc, discord.DiscordServerError):
        return f"Discord answered {exc.status} {exc.response.reason}"
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def refusal(exc: discord.HTTPException) -> str:
    """A request Discord answered no (a 4xx), in one line: which request, and what Discord said
    (the address without its query; no token is ever in it at start)."""
    response = exc.response
    method, path = getattr(response, "method", "?"), getattr(getattr(response, "url", None), "path", "?")
    said = f"code {exc.code}: {exc.text}" if exc.code else exc.text or getattr(response, "reason", "") or ""
    return f"{method} {path} answered {exc.status}" + (f" ({said})" if said else "")


async def patiently(
    doing: str,
    attempt: Callable[[], Awaitable[T]],
    stopped: Callable[[float], Awaitable[bool]],
    *,
    before_retry: Callable[[], Awaitable[None]] | None = None,
    may_retry: Callable[[], bool] = lambda: True,
    clock: Callable[[], float] = time.time,
) -> T | None:
    """`attempt()` until it works, waiting `pause(tries)` after each failure to reach Discord
    (one log line each); any other failure is raised, and so is every failure once
    `may_retry()` says no. `stopped(seconds)` waits up to that long and says whether the bot
    was asked to stop meanwhile: then None, without trying again."""
    tries = 0
    while True:
        tries += 1
        try:
            return await attempt()
        except Exception as exc:
            if not unreachable(exc) or not may_retry():
                raise
            wait = pause(tries)
            at = time.strftime("%H:%M:%S", time.localtime(clock() + wait))
            log.warning(
                "cannot reach Discord (%s, try %d): %s; next try in %g s, at %s", doing, tries, describe(exc), wait, at
            )
        if before_retry is not None:
            await before_retry()
        if await stopped(wait):
            return None
