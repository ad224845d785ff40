"""The matching of "find a game" (tables/matching.py): its properties over drawn queues, and the
players' guide's examples."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.tables.matching import ALL_DAY, PACES, Match, Quiet, Seeker, awake, fits, match, pace_of
from tests.reliability.sizes import scale

NOW = 1_795_000_000.0  # 2026-11-18, a fixed day
ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney")
PEOPLE = [f"u{i}" for i in range(14)]


@st.composite
def queues(draw) -> list[Seeker]:
    ids = draw(st.lists(st.sampled_from(PEOPLE), unique=True, min_size=0, max_size=len(PEOPLE)))
    out = []
    for uid in ids:
        low = draw(st.integers(2, 5))
        high = draw(st.integers(low, 5))
        quiet = draw(
            st.none()
            | st.builds(
                Quiet,
                st.integers(0, 23).map(lambda h: h * 60),
                st.integers(0, 23).map(lambda h: h * 60 + 30),
                st.sampled_from(ZONES),
            )
        )
        out.append(
            Seeker(
                guild_id=draw(st.sampled_from(("g1", "g2"))),
                user_id=uid,
                game=draw(st.sampled_from(("metromania", "underground"))),
                low=low,
                high=high,
                pace=draw(st.sampled_from(PACES)),
                since=float(draw(st.integers(0, 6))),  # (ties on purpose: broken by id)
                channel_id=draw(st.sampled_from(("c1", "c2"))),
                measured=draw(st.none() | st.sampled_from((60.0, 3000.0, 30000.0))),
                quiet=quiet,
                avoids=frozenset(draw(st.lists(st.sampled_from(PEOPLE), max_size=3))) - {uid},
            )
        )
    return out


def by_id(queue: list[Seeker]) -> dict[str, Seeker]:
    return {p.user_id: p for p in queue}


@settings(max_examples=scale(75, 300), derandomize=True, deadline=None)
@given(queues())
def test_nobody_in_two_tables_and_every_table_fits(queue):
    tables = match(queue, NOW)
    seated = [u for t in tables for u in t.people]
    assert len(seated) == len(set(seated))
    people = by_id(queue)
    for t in tables:
        members = [people[u] for u in t.people]
        assert fits(members, NOW)
        assert {p.guild_id for p in members} == {t.guild_id} and {p.game for p in members} == {t.game}
        assert {pace_of(p) for p in members} == {t.pace}


@settings(max_examples=scale(75, 300), derandomize=True, deadline=None)
@given(queues())
def test_nobody_with_someone_they_avoid(queue):
    people = by_id(queue)
    for t in match(queue, NOW):
        for u in t.people:
            assert not people[u].avoids & set(t.people), (u, t)


@settings(max_examples=scale(75, 300), derandomize=True, deadline=None)
@given(queues(), st.integers(0, 1000))
def test_the_same_queue_gives_the_same_tables(queue, seed):
    shuffled = list(queue)
    random.Random(seed).shuffle(shuffled)
    assert match(shuffled, NOW) == match(queue, NOW) == match(tuple(queue), NOW)


@settings(max_examples=scale(100, 400), derandomize=True, deadline=None)
@given(queues())
def test_the_longest_waiting_compatible_people_first(queue):
    """A table's first person waited longest of its people; and nobody who waited longer than one
    of a table's later people (and not longer than its first), and who was not taken by an earlier
    table, could have sat in that person's place."""
    people = by_id(queue)
    tables = match(queue, NOW)
    order = {p.user_id: (p.since, p.user_id) for p in queue}
    taken: set[str] = set()
    for t in tables:
        first = t.people[0]
        assert all(order[first] <= order[u] for u in t.people)
        assert [order[u] for u in t.people] == sorted(order[u] for u in t.people)
        for newest in t.people[1:]:
            rest = [people[u] for u in t.people if u != newest]
            for p in queue:
                if p.user_id in taken or p.user_id in t.people:
                    continue
                if order[first] < order[p.user_id] < order[newest]:
                    assert not fits([*rest, p], NOW), (t, p.user_id, newest)
        taken |= set(t.people)


@settings(max_examples=scale(50, 200), derandomize=True, deadline=None)
@given(queues())
def test_the_longest_waiting_person_who_can_play_with_anyone_waiting_is_seated(queue):
    """In each group, a pair that fits among the people left would have been seated: nobody is left
    out while two people who could play together (with tables of two) both wait."""
    tables = match(queue, NOW)
    seated = {u for t in tables for u in t.people}
    left = [p for p in queue if p.user_id not in seated]
    for a in left:
        for b in left:
            if a.user_id < b.user_id and a.low == b.low == 2:
                assert not fits([a, b], NOW), (a, b)


def person(uid: str, since: float, pace: str = "few", **kw) -> Seeker:
    base = {"guild_id": "g", "game": "metromania", "low": 2, "high": 4, "channel_id": "c"}
    return Seeker(user_id=uid, since=since, pace=pace, **{**base, **kw})


def test_the_guides_example():
    """docs/players/finding.md's example: Ana (a few moves a day, Berlin, quiet 23:00-07:00),
    Ben (a few moves a day, Tokyo, quiet 23:00-07:00), Cleo (a few moves a day, but her median
    time to move is 9 hours: a move a day), Dev (a few moves a day, New York, quiet 01:00-19:00:
    he is awake at night)."""
    ana = person("ana", 1, quiet=Quiet(23 * 60, 7 * 60, "Europe/Berlin"))
    ben = person("ben", 2, quiet=Quiet(23 * 60, 7 * 60, "Asia/Tokyo"))
    cleo = person("cleo", 3, measured=9 * 3600.0)
    dev = person("dev", 4, quiet=Quiet(1 * 60, 19 * 60, "America/New_York"))
    assert match([ana, ben, cleo, dev], NOW) == [Match("g", "metromania", "few", "c", ("ana", "ben"))]
    # with another who plays a move a day, Cleo has a table too
    eve = person("eve", 5, pace="day", quiet=Quiet(1 * 60, 19 * 60, "America/New_York"))
    assert match([ana, ben, cleo, dev, eve], NOW) == [
        Match("g", "metromania", "day", "c", ("cleo", "eve")),
        Match("g", "metromania", "few", "c", ("ana", "ben")),
    ]


def test_counts_make_the_table_as_large_as_all_accept():
    a, b, c, d = (
        person(u, i, low=lo, high=hi)
        for i, (u, lo, hi) in enumerate([("a", 3, 4), ("b", 2, 4), ("c", 2, 2), ("d", 2, 3)])
    )
    # c accepts only two: not with a; the table is a, b, d (three: d accepts at most three)
    assert match([a, b, c, d], NOW) == [Match("g", "metromania", "few", "c", ("a", "b", "d"))]
    assert match([a, b], NOW) == []  # a wants three at least: waits


def test_awake_hours():
    assert awake(None, NOW) == ALL_DAY
    mask = awake(Quiet(0, 12 * 60, "UTC"), NOW)
    assert mask == ALL_DAY ^ ((1 << 24) - 1)  # awake from 12:00 UTC
    berlin = awake(Quiet(23 * 60, 7 * 60, "Europe/Berlin"), NOW)  # (November: UTC+1) awake 06:00-22:00 UTC
    assert berlin == sum(1 << s for s in range(12, 44))
