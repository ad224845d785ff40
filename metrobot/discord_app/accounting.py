"""What one interaction is, and how it ended, for the metrics: set by the gate as the
interaction comes in (a context variable the handlers' tasks inherit) and marked by the code
that answers a refusal or a failure."""

from __future__ import annotations

import contextvars
import time
from dataclasses import dataclass, field

from ..metrics import ANSWER_SECONDS, INTERACTIONS


@dataclass
class Account:
    """One interaction on its way: what it is, when it came, how it ended (see `mark`)."""

    kind: str
    name: str
    start: float = field(default_factory=time.perf_counter)
    outcome: str = "ok"
    tasks: int = 0

    def done(self) -> None:
        INTERACTIONS.labels(self.kind, self.name, self.outcome).inc()
        ANSWER_SECONDS.labels(self.kind).observe(time.perf_counter() - self.start)


CURRENT: contextvars.ContextVar[Account | None] = contextvars.ContextVar("metrobot_interaction", default=None)


def mark(outcome: str) -> None:
    """How the interaction being handled ended: "refused" (a rule said no) or "failed" (a bug)."""
    account = CURRENT.get()
    if account is not None and account.outcome == "ok":
        account.outcome = outcome
