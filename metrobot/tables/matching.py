"""Finding tables in a server's queue (issue 63, "find a game"): a pure function of the queue and
the time, `match(queue, now) -> tables`, with no storage and no Discord (tables/find.py stores the
queue and runs it in one transaction; the players' guide, docs/players/finding.md, explains the rule).

The rule, in the order it is applied:

1. **The same game, and a pace that agrees.** Each person waits for one game at one pace: "in one
   sitting", "a few moves a day" or "a move a day". Where the person has a measured median time to
   move (turns/pace.py), it counts too: their pace is the slower of what they chose and what
   they measure (a median above `SITTING_MEDIAN` is not "in one sitting"; above `FEW_MEDIAN` it is
   "a move a day"). People are matched only with people of the same pace.
2. **Player counts that overlap.** Each person names the counts they accept (e.g. 2-4); a table
   of n people has n in everyone's counts.
3. **Awake hours that overlap.** From each person's quiet hours and time zone (their `/me`
   settings; none set: awake all day), the half-hours of today (UTC) they are awake; the people
   of a table must all be awake together for at least `TOGETHER[pace]` (two hours for a sitting,
   one for a few moves a day; a move a day needs none).
4. **Nobody with someone they avoid** (`/me avoid`, either way round).
5. **The longest-waiting first.** In each (server, game, pace), the person who has waited
   longest starts a table: the largest they accept for which enough people wait. For a size,
   they take, in the order they came, everyone who accepts that size and fits with those
   already taken, until the table is full; if too few do, the next size down is tried. If no
   size fills, that person waits on, and the next longest-waiting person starts a table the
   same way. Ties in time are broken by id, so the same queue always gives the same tables.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from zoneinfo import ZoneInfo

from ..i18n import N_

PACES = ("sitting", "few", "day")  # fastest first
PACE_WORDS = {"sitting": N_("in one sitting"), "few": N_("a few moves a day"), "day": N_("a move a day")}
SITTING_MEDIAN = 15 * 60  # seconds: a median time to move at most this plays in one sitting
FEW_MEDIAN = 4 * 3600  # … at most this, a few moves a day; above it, a move a day
SLOTS = 48  # half-hours of a day
ALL_DAY = (1 << SLOTS) - 1
TOGETHER = {"sitting": 4, "few": 2, "day": 0}  # half-hours everyone at a table is awake together


@dataclass(frozen=True)
class Quiet:
    """A person's quiet hours: minutes after midnight in their zone (start may be after end)."""

    start: int
    end: int
    tz: str


@dataclass(frozen=True)
class Seeker:
    """One person in a server's queue seeking a game, as the matching reads them (stored: storage/queue.py
    `QueueEntry`; not the people a game waits for, `GameRow.waiting`)."""

    guild_id: str
    user_id: str
    game: str
    low: int  # the player counts they accept, low..high
    high: int
    pace: str  # one of PACES, as they chose it
    since: float  # when they came: their place in the queue
    channel_id: str = ""  # where a table they start opens
    measured: float | None = None  # their median seconds to move, where they have one
    quiet: Quiet | None = None
    avoids: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Match:
    """People the matching puts together for one game (once stored: a found table, storage/queue.py
    `FoundTable`)."""

    guild_id: str
    game: str
    pace: str
    channel_id: str  # the channel of the person who waited longest
    people: tuple[str, ...]  # in the order they came


def measured_pace(seconds: float) -> str:
    if seconds <= SITTING_MEDIAN:
        return "sitting"
    return "few" if seconds <= FEW_MEDIAN else "day"


def pace_of(person: Seeker) -> str:
    """The pace a person is matched at: what they chose, or slower if their measured median says so."""
    if person.measured is None:
        return person.pace
    return PACES[max(PACES.index(person.pace), PACES.index(measured_pace(person.measured)))]


@lru_cache(maxsize=4096)
def _awake(quiet: Quiet, day: dt.date) -> int:
    zone = ZoneInfo(quiet.tz)
    midnight = dt.datetime.combine(day, dt.time(0), tzinfo=dt.UTC)
    mask = 0
    for slot in range(SLOTS):
        local = (midnight + dt.timedelta(minutes=30 * slot + 15)).astimezone(zone)
        minute = local.hour * 60 + local.minute
        s, e = quiet.start, quiet.end
        asleep = s <= minute < e if s < e else (minute >= s or minute < e)
        if not asleep:
            mask |= 1 << slot
    return mask


def awake(quiet: Quiet | None, now: float) -> int:
    """The half-hours of `now`'s day (UTC) a person is awake, as bits (bit 0: 00:00-00:30 UTC)."""
    if quiet is None:
        return ALL_DAY
    return _awake(quiet, dt.datetime.fromtimestamp(now, dt.UTC).date())


def _order(person: Seeker) -> tuple[float, str]:
    return (person.since, person.user_id)


def match(queue: Iterable[Seeker], now: float) -> list[Match]:
    """The tables the queue makes now (see the module's docstring), in the order they were
    formed: by server, game and pace, then by how long their first person waited."""
    groups: dict[tuple[str, str, str], list[Seeker]] = defaultdict(list)
    for person in queue:
        groups[(person.guild_id, person.game, pace_of(person))].append(person)
    tables = []
    for key in sorted(groups):
        tables += _group(key, sorted(groups[key], key=_order), now)
    return tables


def _group(key: tuple[str, str, str], order: list[Seeker], now: float) -> list[Match]:
    guild_id, game, pace = key
    need = TOGETHER[pace]
    masks = [awake(p.quiet, now) for p in order]
    used = [False] * len(order)
    tables = []
    for i, anchor in enumerate(order):
        if used[i] or masks[i].bit_count() < need:
            continue
        for size in range(anchor.high, max(anchor.low, 2) - 1, -1):
            chosen = _seat(order, masks, used, i, size, need)
            if chosen is not None:
                for j in chosen:
                    used[j] = True
                tables.append(Match(guild_id, game, pace, anchor.channel_id, tuple(order[j].user_id for j in chosen)))
                break
    return tables


def _seat(order: list[Seeker], masks: list[int], used: list[bool], i: int, size: int, need: int) -> list[int] | None:
    """A table of `size` started by order[i]: everyone after them who accepts that size and fits
    with those already taken, in the order they came; None if too few do."""
    anchor = order[i]
    chosen = [i]
    ids = {anchor.user_id}
    avoided = set(anchor.avoids)
    mask = masks[i]
    for j in range(i + 1, len(order)):
        p = order[j]
        if used[j] or not p.low <= size <= p.high or p.user_id in ids:
            continue
        if p.user_id in avoided or not p.avoids.isdisjoint(ids):
            continue
        both = mask & masks[j]
        if both.bit_count() < need:
            continue
        chosen.append(j)
        if len(chosen) == size:
            return chosen
        ids.add(p.user_id)
        avoided |= p.avoids
        mask = both
    return None


def fits(people: list[Seeker], now: float) -> bool:
    """Whether these people could sit at one table by the rule's conditions (1 to 4)."""
    if not people:
        return False
    first = people[0]
    pace = pace_of(first)
    if any(p.guild_id != first.guild_id or p.game != first.game or pace_of(p) != pace for p in people):
        return False
    ids = [p.user_id for p in people]
    if len(set(ids)) != len(ids) or any(not p.avoids.isdisjoint(ids) for p in people):
        return False
    if not max(p.low for p in people) <= len(people) <= min(p.high for p in people):
        return False
    mask = ALL_DAY
    for p in people:
        mask &= awake(p.quiet, now)
    return mask.bit_count() >= TOGETHER[pace]
