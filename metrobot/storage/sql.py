"""The two things storage needs from a database engine, so that every query is written
once: run SQL (with `?` placeholders) and group statements in a transaction.

`Driver.transaction()` is one atomic unit (SQLite: BEGIN IMMEDIATE, writers queue;
PostgreSQL: a transaction on a pooled connection, rows locked as they are updated).
`Driver.read()` is for statements that need no transaction.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any, Protocol

from ..metrics import DATABASE_ERRORS

if TYPE_CHECKING:
    from .outage import Outage

Row = tuple[Any, ...]
BIGINT = 2**63  # integers both engines store lie in [-BIGINT, BIGINT)


class Tx(Protocol):
    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchone(self, sql: str, *args: Any) -> Row | None: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Rows changed."""

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class Driver(ABC):
    dialect: str  # "sqlite" | "postgres": which schema script to run
    where: str  # for messages: the file or the server
    outage: Outage  # how the database is doing, as this process sees it (faults, retries, the log)
    own_tables: tuple[str, ...] = ()  # the driver's bookkeeping, made by no migration (never copied)

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    async def schema_version(self, tx: Tx) -> int: ...

    @abstractmethod
    async def set_schema_version(self, tx: Tx, version: int) -> None: ...

    @abstractmethod
    def migrating(self) -> AbstractAsyncContextManager[Tx]:
        """A transaction that only one process at a time may hold (migrations at start)."""

    @abstractmethod
    async def next_results_seq(self, tx: Tx) -> int:
        """The next number in the order results are recorded (unique across processes)."""

    @abstractmethod
    async def probe_write(self) -> None:
        """Show that the database takes writes again (after a fault that stopped only writes),
        changing nothing; raises DatabaseUnavailable when it does not."""

    async def results_renumbered(self, tx: Tx, last: int) -> None:  # noqa: B027 - an optional hook
        """Results were numbered 1..`last` again (a rebuild): the next number follows.
        Nothing to do where the number is computed from the rows (SQLite); a driver with a
        sequence (PostgreSQL) moves it."""


_PLACEHOLDER = re.compile(r"\?")


def numbered(sql: str) -> str:
    """`?` placeholders -> `$1, $2, ...` (PostgreSQL). Our SQL has no `?` inside literals."""
    count = 0

    def number(_: re.Match) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


@asynccontextmanager
async def counted_errors(*kinds: type[BaseException]) -> AsyncIterator[None]:
    """Count the errors of these kinds that leave the block (the metric operators watch)."""
    try:
        yield
    except kinds:
        DATABASE_ERRORS.inc()
        raise
