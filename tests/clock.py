"""The tests' one clock: what the service, the rate limits and the searches take as `clock`.

`clock()` reads it; the test moves it (`clock.advance(60)`, or `clock.now = t`), so nothing a
test checks depends on the machine's time. With a `step` it moves by itself at every reading
(a search that must stop at its deadline sees time pass without any being measured);
`readings` counts the readings.

tests/test_scaffolding.py keeps it the only clock class under tests/.
"""

from __future__ import annotations

import datetime as dt

START = 1_000_000.0  # the time a test starts at unless it says otherwise (any fixed time would do)


class Clock:
    """A settable, advanceable time in seconds since the epoch, read by calling it."""

    def __init__(self, now: float = START, *, step: float = 0.0) -> None:
        self.now, self.step, self.readings = float(now), step, 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now

    def advance(self, seconds: float) -> float:
        """Move the time on by `seconds` (and return the new time)."""
        self.now += seconds
        return self.now


def at(*when: int) -> float:
    """The time of a UTC date and time: `at(2031, 3, 3, 8)` is 2031-03-03 08:00 UTC."""
    return dt.datetime(*when, tzinfo=dt.UTC).timestamp()
