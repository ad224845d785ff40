"""Pairing properties over whole tournaments: 4 to 64 people, tables of 2 to 5, up to 7
rounds, every format, with people dropping out, drawn by hypothesis (derandomized, as the
suite configures it). Each round: every active person seated exactly once (or given a bye
where the format gives one), no table below the game's minimum or above its maximum, table
sizes by the rule of `tables` with the fewest byes, byes fairly spread, dropped people never
seated again, seats balanced; and the same inputs always give the same rounds.

The split search here runs with a smaller work cap than the bot's (these properties hold
whatever the cap; the search's quality has its own tests in test_swiss.py) so the everyday
run stays short; METROBOT_RELIABILITY=full draws many more tournaments.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from metrobot.tournaments import polish, search
from metrobot.tournaments.history import history
from metrobot.tournaments.model import Round, Rules, TableResult
from metrobot.tournaments.tables import split
from tests.reliability.sizes import scale

from .helpers import check_round_shape, play, seated


@pytest.fixture(autouse=True, scope="module")
def small_search():
    saved = search.WORK, polish.ANNEAL_STEPS
    search.WORK, polish.ANNEAL_STEPS = 20_000, 30
    yield
    search.WORK, polish.ANNEAL_STEPS = saved


@st.composite
def tournaments(draw, formats=("swiss", "round_robin", "knockout", "league")):
    fmt = draw(st.sampled_from(formats))
    size = draw(st.integers(2, 5))
    low = draw(st.sampled_from(sorted({1, 2, size})))
    high = draw(st.integers(size, 6))
    count = draw(st.integers(4, 64))
    rounds = draw(st.integers(1, 7))
    advance = draw(st.integers(1, size - 1))
    rules = Rules(
        format=fmt,
        table_size=size,
        min_seats=low,
        max_seats=high,
        rounds=rounds if fmt in ("swiss", "round_robin") or fmt == "league" else None,
        advance=advance,
        best_of=draw(st.sampled_from([None, 2])),
    )
    width = len(str(count))
    drops = draw(st.dictionaries(st.integers(1, count).map(lambda i: f"p{i:0{width}d}"), st.integers(2, 7), max_size=3))
    seed = draw(st.integers(0, 10_000))
    return rules, count, seed, drops


def check_common(game) -> None:
    for rnd in game.rounds:
        check_round_shape(game.rules, rnd)
        active = {e.id for e in game.entrants if e.active(rnd.number)}
        assert set(seated(rnd)) | set(rnd.byes) <= active, "someone inactive (dropped) was paired"


def check_swiss(game) -> None:
    rules = game.rules
    had = Counter()
    for rnd in game.rounds:
        active = sorted(e.id for e in game.entrants if e.active(rnd.number))
        assert set(seated(rnd)) | set(rnd.byes) == set(active), "an active person was left out"
        sizes, byes = split(len(active), rules)
        assert sorted((len(t.seats) for t in rnd.tables), reverse=True) == sizes
        assert len(rnd.byes) == byes
        assert max(sizes) - min(sizes) <= 1
        if rnd.byes:
            others = [had[p] for p in active if p not in rnd.byes]
            assert max(had[p] for p in rnd.byes) <= min(others, default=99), "a second bye before everyone had one"
        had.update(rnd.byes)


def check_seats(game) -> None:
    """Nobody in one seat more than ceil(R/K) + 1 times (K: the smallest table they sat at,
    since the split may make tables smaller than asked); first-seat counts of people who sat
    at a table in every round differ by at most 2."""
    sat = defaultdict(list)
    for rnd in game.rounds:
        for t in rnd.tables:
            for i, p in enumerate(t.seats):
                sat[p].append((len(t.seats), i))
    for p, rows in sat.items():
        smallest = min(n for n, _ in rows)
        most = max(Counter(i for _, i in rows).values())
        assert most <= math.ceil(len(rows) / smallest) + 1, (p, rows)
    full = [rows for rows in sat.values() if len(rows) == len(game.rounds)]
    firsts = [sum(1 for _, i in rows if i == 0) for rows in full]
    if len(firsts) > 1:
        assert max(firsts) - min(firsts) <= 2, firsts


def check_round_robin(game) -> None:
    if game.rules.table_size != 2:
        return
    met = history(game.rounds).met
    assert max(met.values(), default=1) == 1, "two people met twice in a 2-player round robin"


def check_knockout(game) -> None:
    for rnd in game.rounds:
        for t in rnd.tables:
            assert len(t.seats) <= game.rules.table_size
            assert len(t.seats) > game.rules.advance or len(rnd.tables) == 1


def check_league(game) -> None:
    for rnd in game.rounds:
        assert all(len(t.seats) == game.rules.table_size for t in rnd.tables)


CHECKS = {
    "swiss": [check_swiss, check_seats],
    "round_robin": [check_round_robin, check_seats],
    "knockout": [check_knockout],
    "league": [check_league],
}


def _case(fmt, size, count, rounds, low=2, high=5, advance=1, drops=None, seed=1):
    return (
        Rules(fmt, table_size=size, min_seats=low, max_seats=high, rounds=rounds, advance=advance),
        count,
        seed,
        drops or {},
    )


@settings(max_examples=scale(40, 400), suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
@example(_case("swiss", 4, 64, 7, drops={"p07": 3, "p40": 5}))
@example(_case("swiss", 5, 37, 7, low=3))
@example(_case("swiss", 3, 23, 7, high=3, drops={"p01": 2}))
@example(_case("swiss", 2, 31, 7, high=2))
@example(_case("round_robin", 4, 30, None))
@example(_case("knockout", 4, 50, None, advance=2))
@example(_case("league", 3, 40, 7))
def test_every_round_seats_everyone_once_within_the_limits(case):
    rules, count, seed, drops = case
    game = play(rules, count, seed, drops=drops, max_rounds=7)
    assert game.rounds or game.ended, "no round and no reason"  # e.g. 4 people, a knockout at tables of exactly 3
    check_common(game)
    for check in CHECKS[rules.format]:
        check(game)


@settings(max_examples=scale(6, 60), suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_the_same_inputs_give_the_same_rounds(case):
    rules, count, seed, drops = case
    first = play(rules, count, seed, drops=drops, max_rounds=scale(3, 7))
    again = play(rules, count, seed, drops=drops, max_rounds=scale(3, 7))
    assert first.rounds == again.rounds and first.results == again.results
    assert [Round.from_json(r.to_json()) for r in first.rounds] == first.rounds
    assert [TableResult.from_json(r.to_json()) for r in first.results] == first.results
    assert Rules.from_json(rules.to_json()) == rules
