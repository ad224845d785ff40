"""When the database goes away: which errors mean "the database is not answering now" (as
opposed to a bug), in one place for both engines, and the one exception they all become.

Transient faults — a PostgreSQL server restarting, stopped, failing over to a standby, a
lost connection, a serialization failure or deadlock; SQLite locked past its busy timeout,
its disk full, its file or file system read-only, a disk I/O error — are raised to the
service as `DatabaseUnavailable(kind)`. The drivers try again where that is safe (see
`outage.py`); what is left is answered by the adapter with a clear word in the person's
language ("the game's database is not answering; nothing was changed — try again in a
minute"), never as a bug, and logged as one line per kind of fault (no traceback).

A fault while a transaction's COMMIT is under way is different: the server may have
committed before the connection was lost. Such a fault says `unsure`, is never replayed
blindly, and the person is told that their change may have been saved (see `db.py`'s
`_write`, which looks whether it was). Everything before COMMIT is safe to run again: the
transaction was rolled back, so nothing of it was stored.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import sqlite3
from contextvars import ContextVar
from typing import Any

# The kinds of fault (metric labels and log words: a small, fixed set).
REFUSED = "connection refused"
LOST = "connection lost"
SHUTTING_DOWN = "server shutting down"
STARTING_UP = "server starting up"
TOO_MANY = "too many connections"
READ_ONLY_SERVER = "read-only server"
SERIALIZATION = "serialization failure"
DEADLOCK = "deadlock"
TIMEOUT = "timeout"
NETWORK = "network error"
LOCKED = "locked"
FULL = "disk full"
READ_ONLY_FILE = "read-only file"
IO_ERROR = "disk I/O error"
CANNOT_OPEN = "cannot open file"
NO_PRIMARY = "no writable server"

# Faults that usually pass within a second or two (a restart, a failover, a busy server):
# worth trying again at once. The others (a full disk, a read-only file, a lock already
# waited for) need an operator, or have already waited as long as is reasonable.
SHORT_LIVED = frozenset(
    {
        REFUSED,
        LOST,
        SHUTTING_DOWN,
        STARTING_UP,
        TOO_MANY,
        READ_ONLY_SERVER,
        NO_PRIMARY,
        SERIALIZATION,
        DEADLOCK,
        NETWORK,
    }
)

# Faults that stop writes while reads go on (a full disk, a standby): an outage of these
# is over only when a write succeeds again, not at the next read.
WRITES_ONLY = frozenset({FULL, READ_ONLY_FILE, IO_ERROR, LOCKED, READ_ONLY_SERVER, NO_PRIMARY})

# What the operator can do about a fault, said once when it starts.
ADVICE = {
    FULL: "the disk holding the database is full: free some space (moves are refused until then)",
    READ_ONLY_FILE: "the database file (or its folder) cannot be written: check its owner and permissions",
    IO_ERROR: "the disk or its file system failed (read-only after an error?): see the kernel log",
    CANNOT_OPEN: "the database file cannot be opened: check that its folder exists and can be written",
    READ_ONLY_SERVER: "the server is a standby: list the primary in METROBOT_DATABASE_URL with "
    "target_session_attrs=read-write",
    NO_PRIMARY: "of the servers in METROBOT_DATABASE_URL, none accepts writes (a standby not yet promoted?)",
    LOCKED: "another process held the database's write lock past the busy timeout",
    TOO_MANY: "the server refuses more connections: raise max_connections or run fewer bot processes",
}


class DatabaseUnavailable(Exception):
    """The database did not answer (the `kind` of fault says why). Nothing was changed,
    unless `unsure`: the connection was lost while a commit was under way, so the change
    may have been saved."""

    def __init__(self, kind: str, *, unsure: bool = False):
        super().__init__(f"database unavailable ({kind})" + (" while committing" if unsure else ""))
        self.kind = kind
        self.unsure = unsure


def kind_of(exc: BaseException) -> str | None:
    """The kind of transient fault `exc` is, or None (not a fault of the database's
    availability: a bug, a constraint, bad SQL — those keep their traceback)."""
    if isinstance(exc, DatabaseUnavailable):
        return exc.kind
    if isinstance(exc, sqlite3.Error):
        return _sqlite_kind(exc)
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return TIMEOUT
    if isinstance(exc, ConnectionRefusedError):
        return REFUSED
    if isinstance(exc, (ConnectionError, EOFError)):
        return LOST
    if isinstance(exc, socket.gaierror) or (isinstance(exc, OSError) and exc.errno in _NETWORK):
        return NETWORK  # (an unknown host name, an unreachable network)
    return _postgres_kind(exc)


_NETWORK = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN, errno.ETIMEDOUT}


def _sqlite_kind(exc: sqlite3.Error) -> str | None:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    return {5: LOCKED, 6: LOCKED, 8: READ_ONLY_FILE, 10: IO_ERROR, 13: FULL, 14: CANNOT_OPEN}.get(primary)


def _postgres_kind(exc: BaseException) -> str | None:
    try:
        import asyncpg
    except ImportError:  # (SQLite only: asyncpg is not needed)
        return None
    errors = asyncpg.exceptions
    if isinstance(exc, errors.CannotConnectNowError):  # "shutting down", "starting up", "in recovery mode"
        return SHUTTING_DOWN if "shutting down" in str(exc) else STARTING_UP
    if isinstance(exc, (errors.AdminShutdownError, errors.CrashShutdownError)):
        return SHUTTING_DOWN
    if isinstance(exc, errors.TooManyConnectionsError):
        return TOO_MANY
    if isinstance(exc, errors.ReadOnlySQLTransactionError):
        return READ_ONLY_SERVER
    if isinstance(exc, errors.SerializationError):
        return SERIALIZATION
    if isinstance(exc, errors.DeadlockDetectedError):
        return DEADLOCK
    if isinstance(exc, (errors.ConnectionDoesNotExistError, errors.PostgresConnectionError)):
        return LOST
    if isinstance(exc, errors.TargetServerAttributeNotMatched):
        return NO_PRIMARY
    if isinstance(exc, errors.InternalClientError):
        # The client found its connection in a state a live one is never in: the server sent
        # an error unasked (e.g. "terminating connection" while it shuts down) and hung up.
        return LOST
    if isinstance(exc, asyncpg.InterfaceError) and any(
        words in str(exc)
        for words in ("connection is closed", "connection was closed", "pool is closing", "pool is closed")
    ):
        return LOST
    return None


# ---------------------------------------------------------------- what a request committed
# The adapter asks, when a request fails, whether something of it was committed before the
# fault (e.g. a move saved, then the composer's next menu could not be read): then it may
# not say "nothing was changed".
_COMMITS: ContextVar[list[Any] | None] = ContextVar("metrobot_commits", default=None)


class Commits:
    """Counts the transactions committed while it is open (in this task and the ones it
    awaits or starts). `first`, if given, is set at the first commit: a confirmation that
    starts background work is acknowledged only once it is recorded (see the adapter's `run`)."""

    def __init__(self, first: asyncio.Event | None = None):
        self._first = first

    def __enter__(self) -> Commits:
        self._count: list[Any] = [0, self._first]
        self._token = _COMMITS.set(self._count)
        return self

    def __exit__(self, *exc: object) -> None:
        _COMMITS.reset(self._token)

    @property
    def count(self) -> int:
        return self._count[0]


def committed() -> None:
    """A transaction of the current request committed (called by the drivers)."""
    counter = _COMMITS.get()
    if counter is not None:
        counter[0] += 1
        if counter[1] is not None:
            counter[1].set()
