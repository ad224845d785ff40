"""Waiting for what the bot did, never for a while: the waits tests share.

A test that sleeps "long enough" for the bot is slow on a quiet machine and flaky on a busy
one; a test that polls every 50 ms waits 25 ms a time for nothing. These wait for the event
itself, and return the moment it happened:

* ``await standin.wait_until(check, timeout=None, *, what=..., poll=None)`` (the stand-in,
  ``standin/observe.py``): until ``check()`` (plain or async) is true, checked again after
  every request the bot makes to the stand-in (a post, an edit, an answer, a DM) and, with
  ``poll``, every ``poll`` seconds (for what the stand-in does not see: the bot's database).
* ``await owed(database, channel=None, *, posts=False, excluding=())``: how many messages
  and edits the bot owes now and has not delivered (its games' outbox and the tournaments';
  what waits for someone's quiet hours is not owed yet), read from the SQLite file or the
  ``postgresql://`` database.
* ``await delivered(standin, database, channel=None, *, posts=False, timeout=30)``: until
  ``owed`` is 0: every post, edit and DM the bot committed is out (of one channel, or all of
  them; ``posts``: the channel posts only, e.g. a turn post a person reads the board off).
* ``await quiet(standin, database, bot=None, *, excluding=(), timeout=30)``: until the bot is
  done: nothing owed (but in the channels ``excluding`` names, where posts stay owed on
  purpose) and, for a bot in the test's process, no interaction still being handled (its
  gate drained) and no background work (a tournament's director). What a test checks did
  *not* happen (nothing posted twice, no public answer) is checked after this, not after a
  sleep.

A ``python bot.py`` process is seen only through the stand-in and its database, which is
what ``delivered`` and ``quiet`` read (with a short ``poll``: the bot marks a message
delivered just after the stand-in answered it).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

POLL = 0.02  # seconds: how often the database is read again while the stand-in sees nothing

GAMES = "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND (not_before IS NULL OR not_before <= ?)"
TOURNAMENTS = "SELECT COUNT(*) FROM tournament_outbox WHERE delivered_at IS NULL"


async def owed(
    database: str,
    channel: int | str | None = None,
    *,
    posts: bool = False,
    excluding: Iterable[int | str] = (),
    now: float | None = None,
) -> int:
    """Messages and edits owed now and not delivered (of `channel`'s games, or all; `posts`:
    only the channel posts, not edits or DMs; `excluding`: not those of these channels, whose
    posts stay owed on purpose: the bot may not post there, or the channel was deleted)."""
    at = time.time() if now is None else now
    games, args = GAMES, [at]
    if channel is not None:
        games, args = games + " AND channel_id = ?", [*args, str(channel)]
    others = [str(c) for c in excluding]
    if others:
        games, args = games + f" AND channel_id NOT IN ({', '.join('?' * len(others))})", [*args, *others]
    if posts:
        games += " AND target = 'channel' AND kind = 'post'"
    queries = [(games, args)]
    if channel is None and not posts:
        queries.append((TOURNAMENTS, []))
    if database.startswith("postgresql://"):  # (the database-fault suite)
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            return sum([await conn.fetchval(_numbered(sql), *args) for sql, args in queries])
        finally:
            await conn.close()
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        return sum(conn.execute(sql, args).fetchone()[0] for sql, args in queries)
    except sqlite3.OperationalError as exc:  # (no such table: the bot has not made its database yet)
        if "no such table" in str(exc):
            return 0
        raise
    finally:
        conn.close()


def _numbered(sql: str) -> str:
    parts = sql.split("?")
    return "".join(p + (f"${i}" if i < len(parts) else "") for i, p in enumerate(parts, 1))


async def delivered(
    standin: Any, database: str, channel: int | str | None = None, *, posts: bool = False, timeout: float = 30.0
) -> None:
    """Until the bot owes nothing due now (of `channel`, or anywhere; `posts`: no channel post)."""

    async def done() -> bool:
        return await owed(database, channel, posts=posts) == 0

    where = f" to channel {channel}" if channel is not None else ""
    what = "the posts" if posts else "what"
    await standin.wait_until(done, timeout, what=f"{what} the bot owes{where} to be delivered", poll=POLL)


async def quiet(
    standin: Any, database: str, bot: Any = None, *, excluding: Iterable[int | str] = (), timeout: float = 30.0
) -> None:
    """Until the bot owes nothing (`excluding` these channels, see `owed`) and, for `bot` (a
    bot in this process), handles no interaction and runs no background work (a tournament's
    director after a game's end)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout

    async def done() -> bool:
        if bot is not None:
            await bot.gate.drain(max(0.0, deadline - loop.time()))
            background = set(getattr(bot, "_background", ()))
            if background:
                await asyncio.wait(background, timeout=max(0.01, deadline - loop.time()))
            if bot.gate.in_flight or getattr(bot, "_background", None):
                return False
        return await owed(database, excluding=excluding) == 0

    await standin.wait_until(done, timeout, what="the bot to be done (nothing owed, nothing in flight)", poll=POLL)
