"""The table-size rule, round robin, knockout and league pairing."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from itertools import combinations

import pytest

from metrobot.tournaments.history import history
from metrobot.tournaments.knockout import plan, seeding
from metrobot.tournaments.model import Entrant, PairingError, Round, Rules, Table, TableResult
from metrobot.tournaments.pairing import open_tables, pair
from metrobot.tournaments.scoring import standings
from metrobot.tournaments.tables import split

from .helpers import play, seated


def rules(fmt="swiss", size=4, low=2, high=5, **kw) -> Rules:
    return Rules(fmt, table_size=size, min_seats=low, max_seats=high, **kw)


# ---------------------------------------------------------------- table sizes


def legal(count: int, low: int, high: int) -> bool:
    return any(low <= count // t and -(-count // t) <= high for t in range(1, count + 1))


@pytest.mark.parametrize("low, high", [(1, 8), (2, 4), (2, 5), (2, 2), (3, 3), (3, 5), (4, 4)])
def test_sizes_differ_by_one_within_the_limits_with_the_fewest_byes(low, high):
    for size in range(low, high + 1):
        for count in range(1, 90):
            sizes, byes = split(count, rules(size=size, low=low, high=high))
            assert sum(sizes) + byes == count
            if sizes:
                assert max(sizes) - min(sizes) <= 1 and min(sizes) >= low and max(sizes) <= high
            # no split with fewer byes exists
            assert not any(legal(count - b, low, high) for b in range(byes)), (count, size, sizes, byes)
            if legal(count, low, size):
                assert max(sizes) <= size, "a table above the size asked for when none was needed"


def test_table_size_examples():
    assert split(17, rules(size=4)) == ([4, 4, 3, 3, 3], 0)
    assert split(7, rules(size=2, low=2, high=2)) == ([2, 2, 2], 1)
    assert split(7, rules(size=2, low=2, high=4)) == ([3, 2, 2], 0)
    assert split(1, rules(size=2)) == ([], 1)
    assert split(9, rules(size=3, low=3, high=3)) == ([3, 3, 3], 0)
    assert split(10, rules(size=3, low=3, high=3)) == ([3, 3, 3], 1)


# ---------------------------------------------------------------- round robin


@pytest.mark.parametrize("count", range(2, 15))
def test_two_player_round_robin_everyone_meets_everyone_once(count):
    game = play(rules("round_robin", size=2, low=2, high=2), count, count, max_rounds=30)
    assert len(game.rounds) == (count - 1 if count % 2 == 0 else count)
    met = history(game.rounds).met
    assert set(met) == {(a, b) for a, b in combinations(sorted(e.id for e in game.entrants), 2)}
    assert set(met.values()) == {1}
    byes = Counter(p for r in game.rounds for p in r.byes)
    assert set(byes.values()) <= {1} and len(byes) == (count if count % 2 else 0)
    firsts = Counter(t.seats[0] for r in game.rounds for t in r.tables)
    counts = [firsts[e.id] for e in game.entrants]
    assert max(counts) - min(counts) <= 2
    assert "complete" in game.ended


@pytest.mark.parametrize("count, size", [(12, 4), (10, 4), (9, 3), (15, 5), (11, 3)])
def test_group_round_robin_each_group_meets_and_rotates_seats(count, size):
    game = play(rules("round_robin", size=size, low=2, high=5), count, 4, mode="rating", max_rounds=30)
    groups = [set(t.seats) for t in game.rounds[0].tables]
    assert len(game.rounds) == max(len(g) for g in groups)
    for rnd in game.rounds:
        assert [set(t.seats) for t in rnd.tables] == groups
    for table_seats in zip(*[[t.seats for t in r.tables] for r in game.rounds]):
        n = len(table_seats[0])
        for person in table_seats[0]:
            spots = Counter(seats.index(person) for seats in table_seats)
            assert set(spots) == set(range(n)), "each gets each seat once over the group's rounds"
    ratings = {e.id: e.rating for e in game.entrants}
    means = [sum(ratings[p] for p in g) / len(g) for g in groups]
    assert max(means) - min(means) < 200, "snake-dealt groups are even"


def test_round_robin_drop_gives_the_opponent_a_bye():
    game = play(rules("round_robin", size=2, low=2, high=2), 6, 1, drops={"p1": 3}, max_rounds=30)
    for rnd in game.rounds[2:]:
        assert "p1" not in seated(rnd) and "p1" not in rnd.byes
        assert len(rnd.byes) == 1


# ---------------------------------------------------------------- knockout


@pytest.mark.parametrize("count", range(2, 40))
def test_two_player_knockout_is_a_standard_bracket(count):
    ko = rules("knockout", size=2, low=2, high=4)
    game = play(ko, count, count, mode="rating", max_rounds=10)
    size = 1 << math.ceil(math.log2(count))
    assert len(game.rounds) == math.ceil(math.log2(count))
    order = seeding(game.entrants, count)
    first = game.rounds[0]
    assert list(first.byes) == sorted(order[: size - count])
    rest = order[size - count :]
    assert {frozenset(t.seats) for t in first.tables} == {
        frozenset((rest[i], rest[-1 - i])) for i in range(len(rest) // 2)
    }
    assert all(not r.byes for r in game.rounds[1:])
    assert len(game.rounds[-1].tables) == 1 and "decided" in game.ended
    table = standings(ko, game.entrants, game.rounds, game.results, count)
    final = game.rounds[-1].tables[0]
    winner = next(r for r in game.results if r.round == len(game.rounds)).places
    assert table[0].person == min(final.seats, key=lambda p: winner[p])
    assert [s.extra["reached"] for s in table] == sorted((s.extra["reached"] for s in table), reverse=True)


@pytest.mark.parametrize(
    "count, size, advance", [(16, 4, 1), (16, 4, 2), (17, 4, 1), (27, 3, 1), (30, 5, 2), (9, 3, 2)]
)
def test_multi_player_knockout_sends_the_top_through(count, size, advance):
    ko = rules("knockout", size=size, low=2, high=5, advance=advance)
    game = play(ko, count, 2, mode="rating", max_rounds=10)
    assert "decided" in game.ended
    found = {(r.round, r.table): r for r in game.results}
    for before, after in zip(game.rounds, game.rounds[1:]):
        through = set(before.byes)
        for t in before.tables:
            places = found[(before.number, t.number)].places
            through |= (
                set(sorted(t.seats, key=lambda p: places[p])[:advance])
                if len({places[p] for p in t.seats}) == len(t.seats)
                else set()
            )
        people = set(seated(after)) | set(after.byes)
        assert through <= people and len(people) == advance * len(before.tables) + len(before.byes)
    assert len(game.rounds[-1].tables) == 1 and len(game.rounds[-1].tables[0].seats) <= size


def test_knockout_ties_at_the_cut_go_by_score_then_seed():
    ko = rules("knockout", size=4, low=2, high=4, advance=2)
    entrants = [Entrant(f"p{i}", rating=100 - i) for i in range(1, 9)]
    first = pair(ko, entrants, [], [], 1)
    results = []
    for t in first.tables:
        a, b, c, d = sorted(t.seats)
        results.append(TableResult(1, t.number, {a: 1, b: 2, c: 2, d: 4}, scores={a: 9, b: 5, c: 6, d: 1}))
    nxt = pair(ko, entrants, [first], results, 1)
    for t in first.tables:
        a, b, c, d = sorted(t.seats)
        assert a in seated(nxt) and c in seated(nxt) and b not in seated(nxt)
    # without scores, the better seed goes through
    plain = [dataclasses.replace(r, scores={}) for r in results]
    nxt = pair(ko, entrants, [first], plain, 1)
    for t in first.tables:
        a, b, c, d = sorted(t.seats)
        assert b in seated(nxt) and c not in seated(nxt)  # b (lower number) has the higher rating


def test_knockout_waits_for_every_result_and_drops_a_dropped_winner():
    ko = rules("knockout", size=2, low=2, high=2)
    entrants = [Entrant(f"p{i}", rating=10 - i) for i in range(1, 5)]
    first = pair(ko, entrants, [], [], 1)
    with pytest.raises(PairingError):
        pair(ko, entrants, [first], [], 1)
    results = [TableResult(1, t.number, {t.seats[0]: 1, t.seats[1]: 2}) for t in first.tables]
    winner = first.tables[0].seats[0]
    entrants = [dataclasses.replace(e, dropped=2) if e.id == winner else e for e in entrants]
    with pytest.raises(PairingError, match="decided"):  # the other finalist wins by walkover
        pair(ko, entrants, [first], results, 1)
    other = first.tables[1].seats[0]
    assert standings(ko, entrants, [first], results, 1)[0].person == other
    eight = [Entrant(f"p{i}", rating=10 - i) for i in range(1, 9)]
    first = pair(ko, eight, [], [], 1)
    results = [TableResult(1, t.number, {t.seats[0]: 1, t.seats[1]: 2}) for t in first.tables]
    gone = first.tables[0].seats[0]
    eight = [dataclasses.replace(e, dropped=2) if e.id == gone else e for e in eight]
    nxt = pair(ko, eight, [first], results, 1)
    assert gone not in seated(nxt) and len(nxt.tables) == 1 and len(nxt.byes) == 1


def test_knockout_plans():
    two = rules("knockout", size=2, low=2, high=2)
    assert plan(6, two) == ([2, 2], 2)
    assert plan(8, two) == ([2, 2, 2, 2], 0)
    assert plan(2, two) == ([2], 0)
    with pytest.raises(PairingError):
        plan(1, two)
    four = rules("knockout", size=4, low=2, high=4)
    sizes, byes = plan(17, four)
    assert byes == 0 and sizes == [3, 3, 3, 4, 4]


# ---------------------------------------------------------------- league


def test_league_opens_full_tables_among_free_people_least_met_first():
    league = rules("league", size=3, low=2, high=4, best_of=2)
    entrants = [Entrant(f"p{i}") for i in range(1, 11)]
    tables = open_tables(league, entrants, [], [], {"p1", "p2"}, 1)
    assert len(tables) == 2 and all(len(t.seats) == 3 for t in tables)
    assert not {"p1", "p2"} & {p for t in tables for p in t.seats}
    rounds = [Round(1, tuple(tables))]
    # the two who waited go first next time; nobody sits with someone they met when avoidable
    nxt = open_tables(league, entrants, rounds, [], set(), 1)
    seated_now = {p for t in nxt for p in t.seats}
    assert {"p1", "p2"} <= seated_now
    met = history(rounds).met
    assert all(met[(a, b) if a < b else (b, a)] == 0 for t in nxt for a, b in combinations(t.seats, 2))


def test_league_takes_late_joiners_and_waits_for_enough_people():
    league = rules("league", size=4, low=2, high=4)
    entrants = [Entrant("a"), Entrant("b"), Entrant("c"), Entrant("d", joined=2)]
    assert open_tables(league, entrants, [], [], set(), 1) == []
    filler = Round(1, ())
    tables = open_tables(league, entrants, [filler], [], set(), 1)
    assert len(tables) == 1 and set(tables[0].seats) == {"a", "b", "c", "d"}
    with pytest.raises(PairingError):
        open_tables(rules("swiss", rounds=3), entrants, [], [], set(), 1)


def test_bad_rules_refuse():
    for bad in (
        rules(size=6, high=5, rounds=2),
        rules("chess", rounds=2),
        rules("swiss"),
        rules("knockout", advance=4),
    ):
        with pytest.raises(PairingError):
            pair(bad, [Entrant("a"), Entrant("b")], [], [], 1)
    with pytest.raises(PairingError):
        pair(rules(rounds=2), [Entrant("a"), Entrant("a")], [], [], 1)
    with pytest.raises(PairingError):
        pair(rules(rounds=2), [Entrant("a"), Entrant("b")], [Round(2, (Table(1, ("a", "b")),))], [], 1)
