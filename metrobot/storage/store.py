"""What the parts of `Database` share (see db.py): the driver, the clause that lets
PostgreSQL skip rows another process has locked, and the small reads of one row.

Each part of `Database` is handed in its constructor what it uses — the driver, or this —
and nothing else of the others: no part reaches into another's state.
"""

from __future__ import annotations

from typing import Any

from .rows import GameRow, game_row
from .sql import Driver


class Store:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        # PostgreSQL may skip rows another process has locked; SQLite has one writer at a time.
        self.skip_locked = " FOR UPDATE SKIP LOCKED" if driver.dialect == "postgres" else ""

    async def row(self, sql: str, *args: Any) -> Any:
        """One row (or None), read again while the database is briefly away (outage.py)."""

        async def read() -> Any:
            async with self.driver.read() as q:
                return await q.fetchone(sql, *args)

        return await self.driver.outage.patiently(read)

    async def one(self, sql: str, *args: Any) -> GameRow | None:
        """One game, read as `row` does (`sql` selects rows.COLUMNS)."""
        r = await self.row(sql, *args)
        return game_row(r) if r else None
