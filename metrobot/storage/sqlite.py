"""SQLite (aiosqlite): the zero-set-up default. One connection serves every coroutine of
the process; a transaction must not interleave with another coroutine's statements, so
all access takes one lock. Writers of several processes queue on SQLite's own lock
(BEGIN IMMEDIATE, busy_timeout).

A full disk, a file (or file system) that became read-only, a disk I/O error or a lock
held past the busy timeout become `DatabaseUnavailable` (see `faults.py`): the transaction
is rolled back whole (SQLite's own guarantee; we only make sure the connection is left
outside any transaction), and the next one works again once the cause is gone."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .faults import IO_ERROR, DatabaseUnavailable, committed, kind_of
from .outage import Outage
from .rows import DatabaseClosed, Duplicate
from .sql import Driver, Row, Tx, counted_errors, one_row

BUSY_TIMEOUT_MS = 5000
# synchronous=FULL syncs the WAL at every commit: a move the bot has acknowledged survives a
# power cut, not only a crash of the process (NORMAL would only promise the latter). A commit
# costs one fsync (about 6 ms on the reference machine). The test suite runs with NORMAL
# (tests/conftest.py): no test cuts the power, and a killed process loses nothing either way.
SYNCHRONOUS = "FULL"
SQLITE_IOERR_WRITE = 10 | 3 << 8


class _Tx:
    def __init__(self, conn: aiosqlite.Connection):
        self.conn = conn
        self.wrote = False  # a statement that changes something succeeded

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            async with self.conn.execute(sql, args) as cur:
                rows = [tuple(r) for r in await cur.fetchall()]
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from None
        self.wrote |= sql.lstrip()[:6].upper() not in ("SELECT", "PRAGMA")
        return rows

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            cur = await self.conn.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            raise Duplicate(str(exc)) from None
        self.wrote = True
        return cur.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)
        self.wrote = True


class SQLiteDriver(Driver):
    dialect = "sqlite"

    def __init__(self, path: str | Path):
        self.path = self.where = str(path)
        self.conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.outage = Outage(self.path)

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            # Another process (a second bot, a CLI) holding the write lock: wait, don't fail.
            await self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            # WAL lets readers go on while a move is written; synchronous: see SYNCHRONOUS.
            await self._enter_wal()
            await self.conn.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            await self.conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            # aiosqlite's worker thread would otherwise keep a failed process alive (hung,
            # so that nothing restarts it).
            await self.close()
            raise

    async def _enter_wal(self) -> None:
        """Switch a new file to WAL. SQLite does not wait on its busy handler for this, so
        two processes creating the same file at once can get "database is locked": try
        again for as long as a busy wait would."""
        conn = self.conn
        assert conn is not None, "called by open, once connected"
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        pause = 0.01
        while True:
            try:
                async with conn.execute("PRAGMA journal_mode=WAL") as cur:
                    row = await cur.fetchone()
                    assert row is not None, "the pragma answers with the mode"
                    mode = row[0]
                if mode == "wal" or self.path == ":memory:":
                    return
                problem: Exception = sqlite3.OperationalError(f"journal mode stayed {mode!r}")
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e):
                    raise
                problem = e
            if time.monotonic() > deadline:
                raise problem
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.2)

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
            self.conn = None

    @asynccontextmanager
    async def read(self) -> AsyncIterator[_Tx]:
        if self.conn is None:
            raise DatabaseClosed("the database is not open")
        async with self._lock, counted_errors(sqlite3.Error, ValueError, DatabaseUnavailable):
            tx = _Tx(self.conn)
            try:
                yield tx
            except Exception as exc:
                self._failed(exc)
        self.outage.ok(wrote=tx.wrote)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Tx]:
        if self.conn is None:
            raise DatabaseClosed("the database is not open")
        async with self._lock, counted_errors(sqlite3.Error, ValueError, DatabaseUnavailable):
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
            except asyncio.CancelledError:
                # Cancelled (a stop) while SQLite began: the BEGIN still runs on aiosqlite's
                # thread, and the one connection every coroutine shares would stay inside a
                # transaction. Statements run there in order: a ROLLBACK queued after it ends it.
                await asyncio.shield(self._rollback(queued=True))
                raise
            except Exception as exc:
                self._failed(exc)
            tx = _Tx(self.conn)
            try:
                yield tx
            except BaseException as exc:
                await asyncio.shield(self._rollback())
                if isinstance(exc, Exception):
                    self._failed(exc)
                raise
            try:
                await self.conn.execute("COMMIT")
            except Exception as exc:
                await self._rollback()
                # An I/O error after the commit's frames were written (syncing them) may leave
                # the transaction there at the next start. A write that failed, or any other
                # error: it is not (the commit's last frame marks it, and was never written).
                self._failed(
                    exc, unsure=kind_of(exc) == IO_ERROR and getattr(exc, "sqlite_errorcode", 0) != SQLITE_IOERR_WRITE
                )
        committed()
        self.outage.ok(wrote=tx.wrote)

    async def probe_write(self) -> None:
        async with self.transaction() as tx:  # (the same value: a page written, nothing changed)
            await tx.execute(f"PRAGMA user_version = {await self.schema_version(tx)}")

    async def _rollback(self, *, queued: bool = False) -> None:
        """Leave the connection outside any transaction (SQLite may have rolled back already,
        e.g. after a full disk; `queued`: a BEGIN may still be waiting on aiosqlite's thread,
        so roll back whatever the connection says now)."""
        if self.conn is not None and (queued or self.conn.in_transaction):
            # (what failed the transaction may fail this too: SQLite rolls back at once)
            with contextlib.suppress(sqlite3.Error):
                await self.conn.execute("ROLLBACK")

    def _failed(self, exc: Exception, *, unsure: bool = False) -> None:
        kind = kind_of(exc)
        if kind is None:
            raise exc
        fault = DatabaseUnavailable(kind, unsure=unsure)
        self.outage.gave_up(fault)
        raise fault from None

    def migrating(self):
        return self.transaction()  # BEGIN IMMEDIATE already lets one writer at a time in

    async def schema_version(self, tx: Tx) -> int:
        (version,) = await one_row(tx, "PRAGMA user_version")
        return version

    async def set_schema_version(self, tx: Tx, version: int) -> None:
        await tx.execute(f"PRAGMA user_version = {int(version)}")

    async def next_results_seq(self, tx: Tx) -> int:
        (seq,) = await one_row(tx, "SELECT COALESCE(MAX(seq), 0) + 1 FROM results")  # writers are serial
        return seq
