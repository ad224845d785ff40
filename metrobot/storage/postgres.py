"""PostgreSQL (asyncpg): for many servers and several bot processes sharing one database.

Statements are the same as SQLite's (placeholders numbered on the way). A transaction runs
on a pooled connection; the version-checked UPDATE of a game row locks that row, so two
processes writing the same game queue and the second finds the version moved on.
Migrations run under an advisory lock, so processes starting together apply each once.

The URL may name several servers (libpq's multi-host form, which asyncpg reads):
`postgresql://user:pw@db1:5432,db2:5432/metrobot?target_session_attrs=read-write` connects
to whichever of them accepts writes, so that after a standby is promoted new connections
find it without a restart. Transient faults (a restart, a failover, a lost connection)
become `DatabaseUnavailable` and are tried again where that is safe (see `faults.py`,
`outage.py`); no attempt to connect or to get a pooled connection waits longer than a few
seconds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from .faults import DEADLOCK, LOST, READ_ONLY_SERVER, SERIALIZATION, DatabaseUnavailable, committed, kind_of
from .outage import Outage, time_left
from .rows import DatabaseClosed, Duplicate
from .sql import Driver, Row, counted_errors, numbered

T = TypeVar("T")
MIGRATION_LOCK = 0x6D6574726F  # an arbitrary advisory-lock key: "metro"
CONNECT_TIMEOUT = 5.0  # one attempt to connect (to every host of a multi-host URL in turn)
ACQUIRE_TIMEOUT = 10.0  # waiting for a pooled connection (a busy pool, or one being made)
COMMAND_TIMEOUT = 30.0  # one statement (a hung server, or a COMMIT waiting for a synchronous standby)
# Errors the server answered a COMMIT with: it rolled back. Any other fault during a COMMIT
# (the connection lost, a timeout, the server shutting down while waiting for a standby)
# leaves it unknown whether the transaction was committed.
ROLLED_BACK = frozenset({SERIALIZATION, DEADLOCK, READ_ONLY_SERVER})


class _Tx:
    def __init__(self, conn: Any):
        self.conn = conn
        self.lost_writing = False  # a statement that changes rows failed (it may have committed by itself)
        self.wrote = False  # a statement that changes rows succeeded

    async def _run(self, writes: bool, statement: Awaitable[T]) -> T:
        import asyncpg

        try:
            result = await statement
            self.wrote |= writes
            return result
        except asyncpg.UniqueViolationError as exc:
            raise Duplicate(str(exc)) from None
        except Exception:
            self.lost_writing = writes
            raise

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        writes = sql.lstrip()[:6].upper() != "SELECT"
        return [tuple(r) for r in await self._run(writes, self.conn.fetch(numbered(sql), *args, timeout=_timeout()))]

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> int:
        status = await self._run(True, self.conn.execute(numbered(sql), *args, timeout=_timeout()))
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._run(True, self.conn.executemany(numbered(sql), rows, timeout=_timeout()))


def _timeout() -> float:
    return time_left(COMMAND_TIMEOUT)


class PostgresDriver(Driver):
    dialect = "postgres"
    own_tables = ("schema_version",)  # (SQLite keeps its version in `PRAGMA user_version`)

    def __init__(self, url: str, *, min_size: int = 2, max_size: int = 10):
        self.url = url
        self.where = url.split("@")[-1]  # host/db, without the password
        self.min_size, self.max_size = min_size, max_size
        self.pool: Any = None
        self.outage = Outage(self.where)

    async def open(self) -> None:
        import asyncpg

        # `min_size` connections are made at once, but no floor is kept: asyncpg would try to
        # restore it in the background while the server is away, logging a traceback each time;
        # connections are made again when they are next needed instead.
        self.pool = await asyncpg.create_pool(
            self.url,
            min_size=0,
            init_size=self.min_size,
            max_size=self.max_size,
            timeout=CONNECT_TIMEOUT,
            command_timeout=COMMAND_TIMEOUT,
        )

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    async def _connection(self, begin: bool) -> tuple[Any, Any]:
        """A pooled connection (and its transaction begun, if `begin`), tried again while
        the server is briefly away: nothing was sent yet, so trying again is always safe."""

        async def once() -> tuple[Any, Any]:
            if self.pool is None:
                raise DatabaseClosed("the database is not open")
            try:
                conn = await self.pool.acquire(timeout=time_left(ACQUIRE_TIMEOUT))
            except Exception as exc:
                raise await self._fault(exc) or exc from exc
            try:
                transaction = conn.transaction() if begin else None
                if transaction is not None:
                    await transaction.start()
            except Exception as exc:
                await self._release(conn)
                raise await self._fault(exc) or exc from exc
            return conn, transaction

        return await self.outage.patiently(once)

    async def _release(self, conn: Any) -> None:
        try:
            # (a connection whose statement timed out first waits for its cancellation: not
            # longer than the request may wait, else it is closed instead)
            await self.pool.release(conn, timeout=time_left(ACQUIRE_TIMEOUT))
        except Exception as exc:  # (a connection lost meanwhile: the pool has dropped it)
            if kind_of(exc) is None:
                raise

    async def _fault(
        self, exc: BaseException, *, committing: bool = False, writing: bool = False
    ) -> DatabaseUnavailable | None:
        """The DatabaseUnavailable that `exc` is, or None (not a fault of availability)."""
        kind = kind_of(exc)
        if kind is None:
            return None
        if kind == READ_ONLY_SERVER and self.pool is not None:
            # A standby (or a demoted primary): every pooled connection is made again, to
            # whichever server accepts writes now.
            await self.pool.expire_connections()
        return DatabaseUnavailable(kind, unsure=(committing or writing) and kind not in ROLLED_BACK)

    async def _failed(self, exc: BaseException, conn: Any, *, committing: bool = False, writing: bool = False) -> None:
        fault = await self._fault(exc, committing=committing, writing=writing)
        if fault is None:
            raise exc
        if fault.kind == LOST:
            _terminate(conn)
        self.outage.gave_up(fault)
        raise fault from None

    @asynccontextmanager
    async def read(self) -> AsyncIterator[_Tx]:
        async with counted_errors(*_errors()):
            conn, _ = await self._connection(begin=False)
            tx = _Tx(conn)
            try:
                yield tx
            except Exception as exc:
                # (each statement commits by itself here: one lost while writing may have)
                await self._failed(exc, conn, writing=tx.lost_writing)
            finally:
                await self._release(conn)
        self.outage.ok(wrote=tx.wrote)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Tx]:
        async with counted_errors(*_errors()):
            conn, transaction = await self._connection(begin=True)
            tx = _Tx(conn)
            try:
                try:
                    yield tx
                except BaseException as exc:
                    await _rollback(transaction, conn)
                    if isinstance(exc, Exception):
                        await self._failed(exc, conn)  # (before COMMIT: nothing was stored)
                    raise
                try:
                    await transaction.commit()
                except Exception as exc:
                    await self._failed(exc, conn, committing=True)
            finally:
                await self._release(conn)
        committed()
        self.outage.ok(wrote=tx.wrote)

    async def probe_write(self) -> None:
        async with self.read() as q:
            (read_only,) = await q.fetchone("SHOW transaction_read_only")
        if read_only == "on":  # (a standby: the pool connects again, to whichever server takes writes)
            fault = await self._fault(_ReadOnly())
            self.outage.gave_up(fault)
            raise fault
        self.outage.ok(wrote=True)

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


def _terminate(conn: Any) -> None:
    """Close a connection found broken, rather than give it back to the pool."""
    import asyncpg

    try:
        if not conn.is_closed():
            conn.terminate()
    except asyncpg.InterfaceError:  # (closed already: asyncpg has handed it back to the pool itself)
        pass


def _ReadOnly() -> Exception:
    import asyncpg

    return asyncpg.ReadOnlySQLTransactionError("the server accepts no writes")


async def _rollback(transaction: Any, conn: Any) -> None:
    """Roll back after a failure. If even that fails (the connection is gone, or in no state to
    go on), the connection is closed: the server rolls back what it had, and the failure that
    matters is the one being handled."""
    try:
        await transaction.rollback()
    except Exception:
        _terminate(conn)


def _errors() -> tuple[type[BaseException], ...]:
    """What a failing server or a lost connection raises (counted as database errors)."""
    import asyncpg

    return asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError, DatabaseUnavailable
