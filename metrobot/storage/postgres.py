"""PostgreSQL (asyncpg): for many servers and several bot processes sharing one database.

Statements are the same as SQLite's (placeholders numbered on the way). A transaction runs
on a pooled connection; the version-checked UPDATE of a game row locks that row, so two
processes writing the same game queue and the second finds the version moved on.
Migrations run under an advisory lock, so processes starting together apply each once.
"""
from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Sequence

from .rows import DatabaseClosed, Duplicate
from .sql import Driver, Row, counted_errors, numbered

MIGRATION_LOCK = 0x6D6574726F  # an arbitrary advisory-lock key: "metro"


class _Tx:
    def __init__(self, conn: Any):
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        import asyncpg

        try:
            return [tuple(r) for r in await self.conn.fetch(numbered(sql), *args)]
        except asyncpg.UniqueViolationError as exc:
            raise Duplicate(str(exc)) from None

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> int:
        import asyncpg

        try:
            status = await self.conn.execute(numbered(sql), *args)
        except asyncpg.UniqueViolationError as exc:
            raise Duplicate(str(exc)) from None
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(numbered(sql), rows)


class PostgresDriver(Driver):
    dialect = "postgres"

    def __init__(self, url: str, *, min_size: int = 2, max_size: int = 10):
        self.url = url
        self.where = url.split("@")[-1]  # host/db, without the password
        self.min_size, self.max_size = min_size, max_size
        self.pool: Any = None

    async def open(self) -> None:
        import asyncpg

        self.pool = await asyncpg.create_pool(self.url, min_size=self.min_size, max_size=self.max_size)

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    @asynccontextmanager
    async def read(self) -> AsyncIterator[_Tx]:
        if self.pool is None:
            raise DatabaseClosed("the database is not open")
        async with counted_errors(*_errors()), self.pool.acquire() as conn:
            yield _Tx(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Tx]:
        if self.pool is None:
            raise DatabaseClosed("the database is not open")
        async with counted_errors(*_errors()), self.pool.acquire() as conn:
            async with conn.transaction():
                yield _Tx(conn)

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[_Tx]:
        async with self.transaction() as tx:
            await tx.execute("SELECT pg_advisory_xact_lock(?)", MIGRATION_LOCK)
            await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            yield tx

    async def schema_version(self, tx: _Tx) -> int:
        row = await tx.fetchone("SELECT MAX(version) FROM schema_version")
        return row[0] or 0 if row else 0

    async def set_schema_version(self, tx: _Tx, version: int) -> None:
        await tx.execute("DELETE FROM schema_version")
        await tx.execute("INSERT INTO schema_version (version) VALUES (?)", version)

    async def next_results_seq(self, tx: _Tx) -> int:
        (seq,) = await tx.fetchone("SELECT nextval('results_seq')")
        return seq

    async def results_renumbered(self, tx: _Tx, last: int) -> None:
        await tx.execute("SELECT setval('results_seq', GREATEST((SELECT last_value FROM results_seq), ?))", last)


def _errors() -> tuple[type[BaseException], ...]:
    """What a failing server or a lost connection raises (counted as database errors)."""
    import asyncpg

    return asyncpg.PostgresError, asyncpg.InterfaceError, OSError
