"""What an operator asks of the database: does it answer, how much is owed, what is being played
(a part of `Database`: `db.health`, handed the driver).

Read when Prometheus scrapes `/metrics` and when `/healthz` is asked: small aggregate queries
on indexed columns (the outbox's owed rows have a partial index; games by status are few)."""

from __future__ import annotations

from .faults import DatabaseUnavailable
from .sql import Driver, one_row


class HealthQueries:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver

    async def ping(self) -> bool:
        """True when the database answers a trivial query (raises when it cannot)."""
        async with self.driver.read() as q:
            return (await q.fetchone("SELECT 1")) == (1,)

    async def fault(self) -> str | None:
        """What is wrong with the database (the kind of fault, see faults.py), or None: it
        answers, and takes writes (tried only after writes failed: a full disk, a standby)."""
        try:
            await self.ping()
            if self.driver.outage.writes_failing:
                await self.driver.probe_write()
        except DatabaseUnavailable as exc:
            return exc.kind
        return None

    async def backlog(self, now: float) -> tuple[int, float | None]:
        """(messages owed and due at `now`, when the oldest of them became due) — messages
        held for someone's quiet hours are not yet due and not counted."""
        async with self.driver.read() as q:
            count, oldest = await one_row(
                q,
                "SELECT COUNT(*), MIN(COALESCE(not_before, created_at)) FROM outbox "
                "WHERE delivered_at IS NULL AND (not_before IS NULL OR not_before <= ?)",
                now,
            )
        return int(count), oldest

    async def games_by_status(self) -> dict[tuple[str, str], int]:
        """(status, kind) -> how many games, for the lobbies and the games being played."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT status, game, COUNT(*) FROM games WHERE status IN ('lobby', 'active') GROUP BY status, game"
            )
        return {(status, game): int(n) for status, game, n in rows}
