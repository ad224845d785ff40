"""Numbers and durations as each language writes them (Babel's data), for the texts people
read: "2.5" is "2,5" in German, "3 hours" is "3시간" in Korean."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.dates import format_timedelta

from ..i18n import Lang


@lru_cache(maxsize=32)
def _known(code: str) -> Locale | None:
    try:
        return Locale.parse(code)
    except (UnknownLocaleError, ValueError):  # (the pseudo-language of the tests)
        return None


def _locale(code: str) -> Locale:
    return _known(code) or Locale.parse("en")


def _form(code: str) -> Literal["long", "narrow"]:
    """Words ("3 hours"); symbols ("3h") for a language Babel does not know, where English
    words would pass for text that bypassed the catalogue."""
    return "long" if _known(code) is not None else "narrow"


def number(value: float, language: Lang, digits: int = 1) -> str:
    """A number with at most `digits` decimals, in the language's way (`Lang.num`)."""
    return language.num(value, digits, trim=True)


def duration(seconds: float, language: Lang) -> str:
    """A duration in words, to the nearest of its largest unit ("3 hours", "45 minutes", "2 days";
    under a minute in seconds, at least "1 second": a quick player's pace is not "60 seconds")."""
    return format_timedelta(
        dt.timedelta(seconds=max(1.0, seconds)),
        threshold=1.5,
        format=_form(language.code),
        locale=_locale(language.code),
    )


def hours_words(hours: float, language: Lang) -> str:
    """A whole number of hours in words ("1 hour", "6 hours")."""
    return format_timedelta(
        dt.timedelta(hours=hours),
        threshold=1000,
        granularity="hour",
        format=_form(language.code),
        locale=_locale(language.code),
    )


def exact_duration(seconds: float, language: Lang) -> str:
    """A duration set by someone, in words and in the largest unit it is a whole number of ("3 days",
    "1 hour", "90 minutes"): a bank clock's terms. Otherwise as `duration` rounds it."""
    units: tuple[tuple[Literal["day", "hour", "minute"], int], ...] = (("day", 86400), ("hour", 3600), ("minute", 60))
    for unit, size in units:
        if seconds >= size and seconds % size == 0:
            return format_timedelta(
                dt.timedelta(seconds=seconds),
                threshold=1000,
                granularity=unit,
                format=_form(language.code),
                locale=_locale(language.code),
            )
    return duration(seconds, language)
