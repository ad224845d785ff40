"""When people are not to be disturbed: quiet hours and time away, as plain functions of a
person's settings and the time (so they can be tested against any clock).

Quiet hours are a span of the day in the person's own time zone (an IANA name, read with
`zoneinfo`: daylight saving is the zone's), e.g. 22:00–07:00; what would wake them waits
until the span ends. Time away is a period during which their turn clocks stop; a person
may be away at most AWAY_BUDGET in any AWAY_WINDOW, so that no game stalls for ever.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from ..storage import Person

DAY = 24 * 3600
AWAY_WINDOW = 30 * DAY
AWAY_BUDGET = 14 * DAY
_QUIET = re.compile(r"^\s*(\d{1,2})(?:[:.h](\d{2}))?\s*[-–—to ]+\s*(\d{1,2})(?:[:.h](\d{2}))?\s*$")


@lru_cache(maxsize=1)
def zones() -> frozenset[str]:
    return frozenset(available_timezones())


def zone_named(name: str) -> str | None:
    """The IANA zone a typed name means (case ignored), None if there is none."""
    name = str(name).strip()
    if name in zones():
        return name
    folded = {z.casefold(): z for z in zones()}
    return folded.get(name.casefold())


def zones_matching(typed: str, limit: int = 25) -> list[str]:
    """Zones for autocomplete: every word typed in the name ("amster" → Europe/Amsterdam)."""
    words = str(typed).casefold().replace("/", " ").replace("_", " ").split()
    found = sorted(z for z in zones() if all(w in z.casefold().replace("_", " ") for w in words))
    return found[:limit]


def parse_quiet(text: str) -> tuple[int, int] | None:
    """ "22:00-07:00", "22-7", "22.30 to 6.45" → (start, end) in minutes after midnight;
    None when the text is not such a span (or starts where it ends)."""
    m = _QUIET.match(str(text))
    if not m:
        return None
    h1, m1, h2, m2 = (int(g) if g else 0 for g in m.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        return None
    start, end = h1 * 60 + m1, h2 * 60 + m2
    return (start, end) if start != end else None


def clock_text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def quiet_until(person: Person, now: float) -> float | None:
    """If `now` lies in the person's quiet hours, when they end (a timestamp), else None."""
    quiet = person.settings.get("quiet")
    if not quiet:
        return None
    zone = ZoneInfo(quiet["tz"])
    local = dt.datetime.fromtimestamp(now, zone)
    minute = local.hour * 60 + local.minute
    start, end = quiet["start"], quiet["end"]
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    day = local.date() if minute < end else local.date() + dt.timedelta(days=1)
    # A wall-clock time the zone skips (a spring-forward gap) is read as the zone does
    # (PEP 495): the moment after the gap.
    return dt.datetime.combine(day, dt.time(end // 60, end % 60), tzinfo=zone).timestamp()


def quiet_end(people: list[Person], now: float) -> float | None:
    """The latest end of these people's quiet hours, if any of them is in quiet hours now."""
    ends = [t for t in (quiet_until(p, now) for p in people) if t is not None]
    return max(ends) if ends else None


def is_away(person: Person, now: float) -> bool:
    return person.away_until is not None and person.away_until > now


def away_used(person: Person, now: float) -> float:
    """Seconds of time away in the AWAY_WINDOW before now (the current time away up to now)."""
    since = now - AWAY_WINDOW
    periods = [tuple(p) for p in person.settings.get("away_log", [])]
    if is_away(person, now):
        periods.append((person.settings.get("away_since", now), now))
    return sum(max(0.0, min(end, now) - max(start, since)) for start, end in periods)


def away_log_after(person: Person, now: float) -> list[list[float]]:
    """The record of time away, with the current one closed at `now`, older ones dropped."""
    periods = [list(p) for p in person.settings.get("away_log", []) if p[1] > now - AWAY_WINDOW]
    if person.away_until is not None:
        periods.append([person.settings.get("away_since", now), min(now, person.away_until)])
    return periods
