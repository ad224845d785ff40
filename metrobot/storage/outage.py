"""How the database is doing, as this process sees it: trying again where it is safe, and
telling the operator about an outage without flooding the log.

**Trying again.** A fault that usually passes in a second or two (a restart, a failover,
a busy server: `faults.SHORT_LIVED`) is tried again for up to `RETRY_SECONDS` — getting a
connection and beginning a transaction (nothing was sent yet), and, through `patiently`, a
whole read or a whole transaction that failed before its COMMIT (it was rolled back).
Once an outage has lasted longer than that, operations try once and fail at once: people
get their answer quickly instead of each waiting out the retries.

**The log.** The first fault of each kind says so in one line (with what the operator can
do about it); while the outage lasts, one line a minute says how many operations failed so
far; the first success after it says how long it lasted and what failed (after a fault
that stops only writes — a full disk, a standby — the first successful write). No
tracebacks: these faults are expected, not bugs.

**Metrics.** `metrobot_database_unavailable_total{kind}` counts operations given up,
`metrobot_database_retries_total{kind}` faults absorbed by trying again, and
`metrobot_database_available` is 0 during an outage.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from ..metrics import DATABASE_AVAILABLE, DATABASE_RETRIES, DATABASE_UNAVAILABLE
from .faults import ADVICE, SHORT_LIVED, WRITES_ONLY, DatabaseUnavailable

log = logging.getLogger("metrobot.storage")
T = TypeVar("T")

RETRY_SECONDS = 1.5  # how long one operation keeps trying a short-lived fault
FIRST_PAUSE, LONGEST_PAUSE = 0.05, 0.4
REPORT_EVERY = 60.0  # seconds between the "still unavailable" lines of a long outage

# Set while `patiently` runs an operation: the failures inside it are its to count.
_PATIENT: ContextVar[bool] = ContextVar("metrobot_patient", default=False)
# When a request's answer can't wait any longer for the database (see `answer_within`).
_DEADLINE: ContextVar[float | None] = ContextVar("metrobot_db_deadline", default=None)


@contextmanager
def answer_within(seconds: float) -> Iterator[None]:
    """The database may keep this request waiting for at most `seconds` in all (getting a
    connection, trying again, each statement): for the answers that cannot be deferred (a
    box that opens, autocomplete). Past it, the operation fails as a `timeout` fault. Only
    the waiting for the database is limited, not the work done with what it answered."""
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def time_left(longest: float) -> float:
    """How long the next wait for the database may be: `longest`, or less near the deadline."""
    deadline = _DEADLINE.get()
    return longest if deadline is None else max(0.01, min(longest, deadline - time.monotonic()))


class Outage:
    def __init__(self, where: str, clock: Callable[[], float] = time.monotonic):
        self.where, self.clock = where, clock
        self.since: float | None = None  # when the current outage began (None: none)
        self.failed: collections.Counter[str] = collections.Counter()
        self.retried: collections.Counter[str] = collections.Counter()
        self._reported = 0.0

    @property
    def lasting(self) -> bool:
        """An outage has gone on for longer than retrying is worth: try once, fail fast."""
        return self.since is not None and self.clock() - self.since > RETRY_SECONDS

    def fault(self, kind: str, *, retrying: bool) -> None:
        """A fault of `kind`: tried again (`retrying`), or an operation given up."""
        now = self.clock()
        new = kind not in self.failed and kind not in self.retried
        if self.since is None:
            self.since = self._reported = now
            DATABASE_AVAILABLE.set(0)
        (self.retried if retrying else self.failed)[kind] += 1
        (DATABASE_RETRIES if retrying else DATABASE_UNAVAILABLE).labels(kind).inc()
        if new:
            advice = ADVICE.get(kind)
            log.warning(
                "database unavailable (%s) at %s%s; people are told to try again in a minute",
                kind,
                self.where,
                f": {advice}" if advice else "",
            )
        elif not retrying and now - self._reported >= REPORT_EVERY:
            self._reported = now
            log.warning(
                "database still unavailable after %.0f s (%s); %d operations failed so far",
                now - self.since,
                _kinds(self.failed),
                sum(self.failed.values()),
            )

    @property
    def current(self) -> str | None:
        """The fault of the outage going on (the one that failed most operations), or None."""
        if self.since is None:
            return None
        return (self.failed or self.retried).most_common(1)[0][0]

    @property
    def writes_failing(self) -> bool:
        """An outage of a kind that stops writes only (reads say nothing about its end)."""
        return self.since is not None and any(kind in WRITES_ONLY for kind in self.failed | self.retried)

    def ok(self, wrote: bool) -> None:
        """An operation succeeded (`wrote`: and it stored something): an outage, if there
        was one, is over."""
        if self.since is None or (self.writes_failing and not wrote):
            return
        took = self.clock() - self.since
        failed, retried = sum(self.failed.values()), sum(self.retried.values())
        log.warning(
            "database answering again after %.1f s: %d operations failed meanwhile%s, %d retried",
            took,
            failed,
            f" ({_kinds(self.failed)})" if failed else "",
            retried,
        )
        self.since = None
        self.failed.clear()
        self.retried.clear()
        DATABASE_AVAILABLE.set(1)

    def gave_up(self, exc: DatabaseUnavailable) -> None:
        """An operation failed for good (counted once: by the outermost caller that tries)."""
        if not _PATIENT.get():
            self.fault(exc.kind, retrying=False)

    async def patiently(
        self,
        attempt: Callable[[], Awaitable[T]],
        safe: Callable[[DatabaseUnavailable], bool] = lambda exc: not exc.unsure,
    ) -> T:
        """`attempt()` (a whole read, or a whole transaction), run again while it fails with a
        short-lived fault that `safe` says may be run again (by default: any fault before
        COMMIT), for up to RETRY_SECONDS."""
        deadline = self.clock() + time_left(RETRY_SECONDS)
        pause = FIRST_PAUSE
        outermost = not _PATIENT.get()
        token = _PATIENT.set(True)
        try:
            while True:
                try:
                    return await attempt()
                except DatabaseUnavailable as exc:
                    if exc.kind not in SHORT_LIVED or not safe(exc) or self.lasting or self.clock() + pause > deadline:
                        if outermost:  # (an enclosing `patiently` may still try again: it counts)
                            self.fault(exc.kind, retrying=False)
                        raise
                    self.fault(exc.kind, retrying=True)
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
        finally:
            _PATIENT.reset(token)


def _kinds(counts: collections.Counter[str]) -> str:
    return ", ".join(f"{kind}: {n}" for kind, n in counts.most_common())
