"""Waking the bots when a process that cannot reach Discord commits something owed.

A play page served by `python -m metrobot web` commits a move and its outbox items as every
move does; that process has no Discord connection, so it hands the items over (`hand_over`:
its own claim on them is let go, so any bot may take them at once) and wakes the bots:

* PostgreSQL: `NOTIFY metrobot_owed, '<server id>'` — delivered to every listening process
  when the hand-over commits (the notice is part of its transaction). Each bot keeps one
  connection of its own that LISTENs (`listen_owed`), and sweeps the outbox when the server
  named is on one of its shards. The connection is made again when it is lost, and a sweep
  follows (notices sent meanwhile are lost; the items are not).
* SQLite (one machine, no notices between processes): the listening bot asks every
  `SQLITE_WAKE` seconds whether anything handed over is waiting — one read of the outbox's
  small index of undelivered items — and sweeps when something is.

Either way nothing is lost when a bot sleeps through it: what is owed stays owed, and the
turn clock's tick delivers it too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("metrobot.storage")

CHANNEL = "metrobot_owed"
SQLITE_WAKE = 0.25  # seconds between two looks for handed-over items (SQLite only)
RECONNECT = 2.0  # seconds before the listening connection is made again
HANDED_OVER = "delivered_at IS NULL AND claim IS NULL AND not_before IS NULL"

Wake = Callable[[str], None]  # called with the server's id ("" when unknown: any bot)


class WakeQueries:
    driver: Any

    async def hand_over(self, ids: list[int], guild_id: str | None) -> None:
        """Let go of this process's claim on these outbox items and wake the bots."""
        if not ids:
            return
        marks = ",".join("?" * len(ids))
        async with self.driver.transaction() as tx:
            await tx.execute(f"UPDATE outbox SET claim = NULL WHERE id IN ({marks}) AND delivered_at IS NULL", *ids)
            if self.driver.dialect == "postgres":
                await tx.execute("SELECT pg_notify(?, ?)", CHANNEL, guild_id or "")

    async def listen_owed(self, wake: Wake) -> Listener:
        """Call `wake(server id)` whenever something is handed over, until `close()`."""
        listener = _PostgresListener(self.driver.url, wake) if self.driver.dialect == "postgres" else None
        listener = listener or _SQLitePoller(self, wake)
        await listener.start()
        return listener


class Listener:
    async def start(self) -> None: ...

    async def close(self) -> None: ...


class _PostgresListener(Listener):
    def __init__(self, url: str, wake: Wake):
        self.url, self.wake = url, wake
        self.conn: Any = None
        self._task: asyncio.Task | None = None
        self._closed = False

    async def start(self) -> None:
        self._task = asyncio.create_task(self._keep())

    async def _keep(self) -> None:
        import asyncpg

        while not self._closed:
            lost = asyncio.Event()
            try:
                self.conn = await asyncpg.connect(self.url, timeout=5.0)
                self.conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
                await self.conn.add_listener(CHANNEL, self._heard)
                self.wake("")  # (anything handed over while nobody listened)
                await lost.wait()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for handed-over messages failed (%s); trying again", type(exc).__name__)
            await asyncio.sleep(RECONNECT)

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self.wake(payload)

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        if self.conn is not None and not self.conn.is_closed():
            try:
                await self.conn.close(timeout=2.0)
            except Exception:
                self.conn.terminate()


class _SQLitePoller(Listener):
    def __init__(self, db: Any, wake: Wake):
        self.db, self.wake = db, wake
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(SQLITE_WAKE)
            try:
                async with self.db.driver.read() as q:
                    found = await q.fetchone(f"SELECT 1 FROM outbox WHERE {HANDED_OVER} LIMIT 1")
            except asyncio.CancelledError:
                raise
            except Exception:
                continue  # (a busy or missing database: the next look, or the turn clock, finds it)
            if found:
                self.wake("")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
