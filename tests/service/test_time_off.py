"""Quiet hours and time away as plain functions of settings and time: spans of the day in
any zone (daylight saving is the zone's), the away budget over a sliding 30 days."""

from __future__ import annotations

import datetime as dt

import pytest

from metrobot.service.time_off import (
    AWAY_BUDGET,
    DAY,
    away_log_after,
    away_used,
    is_away,
    parse_quiet,
    quiet_until,
    zone_named,
    zones_matching,
)
from metrobot.storage import Person

UTC = dt.UTC


def at(*when: int) -> float:
    return dt.datetime(*when, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    "text, span",
    [
        ("22:00-07:00", (1320, 420)),
        ("22-7", (1320, 420)),
        ("6.30 to 7.45", (390, 465)),
        ("23h15 – 06h00", (1395, 360)),
        ("7-7", None),
        ("25:00-07:00", None),
        ("noon", None),
        ("", None),
    ],
)
def test_quiet_hours_are_read_as_people_write_them(text, span):
    assert parse_quiet(text) == span


def quiet(start: int, end: int, zone: str) -> Person:
    return Person("u", {"quiet": {"start": start, "end": end, "tz": zone}})


def test_quiet_hours_end_by_the_zones_own_clock_across_daylight_saving():
    night = quiet(22 * 60, 7 * 60, "Europe/Amsterdam")
    # Autumn: 23:30 summer time (UTC+2) to 07:00 winter time (UTC+1).
    assert quiet_until(night, at(2026, 10, 24, 21, 30)) == at(2026, 10, 25, 6, 0)
    # Spring: 23:30 winter time to 07:00 summer time.
    assert quiet_until(night, at(2026, 3, 28, 22, 30)) == at(2026, 3, 29, 5, 0)
    assert quiet_until(night, at(2026, 6, 1, 12, 0)) is None  # midday: not quiet
    assert quiet_until(night, at(2026, 6, 1, 4, 59)) == at(2026, 6, 1, 5, 0)  # 06:59 summer time
    # A span that ends in the hour the spring change skips ends when the zone says: just after it.
    gap = quiet(0, 2 * 60 + 30, "Europe/Amsterdam")
    assert quiet_until(gap, at(2026, 3, 29, 0, 30)) == at(2026, 3, 29, 1, 30)
    day = quiet(9 * 60, 17 * 60, "Asia/Seoul")  # a span within a day, in a zone without daylight saving
    assert quiet_until(day, at(2026, 6, 1, 0, 0)) == at(2026, 6, 1, 8, 0)


def test_time_zones_are_found_as_people_type_them():
    assert zone_named("europe/amsterdam") == "Europe/Amsterdam" and zone_named("Atlantis/Capital") is None
    assert "Europe/Amsterdam" in zones_matching("amster") and "Asia/Seoul" in zones_matching("seoul")
    assert len(zones_matching("")) == 25


def test_time_away_counts_over_the_last_30_days():
    now = at(2026, 6, 30)
    person = Person("u", {"away_log": [[now - 40 * DAY, now - 35 * DAY], [now - 32 * DAY, now - 28 * DAY]]})
    assert away_used(person, now) == 2 * DAY  # only what lies in the window
    person.away_until, person.settings["away_since"] = now + 5 * DAY, now - 3 * DAY
    assert is_away(person, now) and away_used(person, now) == 5 * DAY  # the current time away so far
    assert away_log_after(person, now) == [[now - 32 * DAY, now - 28 * DAY], [now - 3 * DAY, now]]
    assert AWAY_BUDGET == 14 * DAY
