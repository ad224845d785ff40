"""Swiss: repeat meetings (the issue's 16 people, tables of 4, 4 rounds: never a repeat; in
general never more repeats than an exhaustive search finds), score groups, byes, dropped
and late people."""

from __future__ import annotations

import dataclasses
import time

import pytest

from metrobot.tournaments.history import history
from metrobot.tournaments.model import Entrant, PairingError, Round, Rules, Table, TableResult
from metrobot.tournaments.pairing import pair
from metrobot.tournaments.scoring import standings
from tests.reliability.sizes import scale

from .helpers import play, seated

SWISS_16 = Rules("swiss", table_size=4, min_seats=2, max_seats=5, rounds=4)


def repeats(rounds: list[Round]) -> int:
    return sum(m - 1 for m in history(rounds).met.values() if m > 1)


@pytest.mark.parametrize("mode", ["random", "rating"])
def test_sixteen_people_at_tables_of_4_never_meet_twice_in_4_rounds(mode):
    for seed in range(scale(12, 100)):
        game = play(SWISS_16, 16, seed, mode=mode)
        assert len(game.rounds) == 4
        assert repeats(game.rounds) == 0, f"seed {seed}: {[r.to_json() for r in game.rounds]}"


def partitions(people: list[str], sizes: list[int]):
    """Every split of `people` into tables of `sizes` (exhaustive, for small fields)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    from itertools import combinations

    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in partitions(others, left):
                yield [(first, *mates), *tail]


def repeat_cost(groups, met) -> int:
    return sum(
        met.get((a, b) if a < b else (b, a), 0) ** 2 for g in groups for i, a in enumerate(g) for b in g[i + 1 :]
    )


@pytest.mark.parametrize("count, size, rounds", [(6, 2, 5), (7, 3, 5), (8, 4, 5), (9, 3, 6), (8, 2, 7), (9, 4, 5)])
def test_no_round_has_more_repeats_than_an_exhaustive_search(count, size, rounds):
    """Each round's repeat cost (a pair meeting for the m+1-th time costs m²) is the least
    any split of the same people into the same table sizes has."""
    rules = Rules("swiss", table_size=size, min_seats=2, max_seats=5, rounds=rounds)
    for seed in range(scale(3, 12)):
        game = play(rules, count, seed)
        for i, rnd in enumerate(game.rounds[1:], start=1):
            met = history(game.rounds[:i]).met
            got = repeat_cost([t.seats for t in rnd.tables], met)
            people = sorted(seated(rnd))
            best = min(repeat_cost(p, met) for p in partitions(people, [len(t.seats) for t in rnd.tables]))
            assert got == best, (seed, rnd.number, got, best)


def test_round_2_puts_people_level_on_points_together():
    """After round 1 of 16 at tables of 4 the four winners never met: the top table is theirs,
    and so on down (score groups, top table first)."""
    game = play(dataclasses.replace(SWISS_16, rounds=2), 16, 5, max_rounds=1)
    table = {s.person: s.points for s in standings(game.rules, game.entrants, game.rounds, game.results, 5)}
    nxt = pair(SWISS_16, game.entrants, game.rounds, game.results, 5)
    averages = [sum(table[p] for p in t.seats) / 4 for t in nxt.tables]
    assert averages == sorted(averages, reverse=True)
    winners = {p for res in game.results for p, place in res.places.items() if place == 1}
    if len(winners) == 4:
        assert set(nxt.tables[0].seats) == winners


def test_byes_go_to_those_without_one_lowest_first():
    """7 people, tables of exactly 2: one bye a round, never a second one before everyone
    has had one, and the first goes to the lowest in the standings."""
    rules = Rules("swiss", table_size=2, min_seats=2, max_seats=2, rounds=7)
    game = play(rules, 7, 3)
    byes = [r.byes for r in game.rounds]
    assert all(len(b) == 1 for b in byes)
    assert len({b[0] for b in byes}) == 7
    for i, rnd in enumerate(game.rounds[1:], start=1):
        table = standings(rules, game.entrants, game.rounds[:i], game.results, 3)
        without = [s.person for s in table if s.person not in {b[0] for b in byes[:i]}]
        assert rnd.byes[0] == without[-1]


def test_dropped_people_are_never_paired_and_their_results_stand():
    rules = dataclasses.replace(SWISS_16, rounds=5)
    game = play(rules, 16, 7, drops={"p03": 2, "p11": 4})
    for rnd in game.rounds[1:]:
        assert "p03" not in seated(rnd) and "p03" not in rnd.byes
    for rnd in game.rounds[3:]:
        assert "p11" not in seated(rnd)
    table = {s.person: s for s in standings(rules, game.entrants, game.rounds, game.results, 7)}
    assert table["p03"].played == 1 and table["p03"].dropped
    assert table["p11"].played == 3
    # whoever met p03 in round 1 still has p03 among their opponents
    first = next(t for t in game.rounds[0].tables if "p03" in t.seats)
    mate = next(p for p in first.seats if p != "p03")
    assert table[mate].played == 5 - (1 if any(mate in r.byes for r in game.rounds) else 0)


def test_late_joiners_are_paired_from_their_round():
    entrants = [Entrant(f"p{i:02d}", joined=1 if i <= 12 else 3) for i in range(1, 17)]
    rules = dataclasses.replace(SWISS_16, rounds=4)
    rounds: list[Round] = []
    results: list[TableResult] = []
    for number in range(1, 5):
        rnd = pair(rules, entrants, rounds, results, 1)
        expected = {e.id for e in entrants if e.active(number)}
        assert set(seated(rnd)) | set(rnd.byes) == expected
        rounds.append(rnd)
        results += [TableResult(number, t.number, {p: i + 1 for i, p in enumerate(t.seats)}) for t in rnd.tables]


def test_a_finished_swiss_and_too_few_people_refuse():
    game = play(SWISS_16, 16, 1)
    with pytest.raises(PairingError):
        pair(SWISS_16, game.entrants, game.rounds, game.results, 1)
    with pytest.raises(PairingError):
        pair(SWISS_16, [Entrant("a")], [], [], 1)


def test_an_unplayed_table_still_pairs_and_keeps_its_meetings():
    """A round whose table has no result (the director never pairs such a round, but a
    crash could leave one) counts its meetings and gives no points."""
    entrants = [Entrant(f"p{i}") for i in range(1, 9)]
    rules = Rules("swiss", table_size=4, min_seats=2, max_seats=4, rounds=3)
    first = Round(1, (Table(1, ("p1", "p2", "p3", "p4")), Table(2, ("p5", "p6", "p7", "p8"))))
    nxt = pair(rules, entrants, [first], [TableResult(1, 1, {"p1": 1, "p2": 2, "p3": 3, "p4": 4})], 1)
    for t in nxt.tables:
        assert len(set(t.seats) & {"p1", "p2", "p3", "p4"}) == 2


def test_the_exact_search_is_quick_for_sixteen():
    """Not a timing assertion on the machine (see bench/tournament_pairing.py): the search's
    own work counter stays under its cap, so the result is exact, not cut short."""
    from metrobot.tournaments import search
    from metrobot.tournaments.swiss import build_costs, lookahead_check

    game = play(dataclasses.replace(SWISS_16, rounds=3), 16, 2)
    hist = history(game.rounds)
    table = standings(SWISS_16, game.entrants, game.rounds, game.results, 2)
    people = [s.person for s in table]
    exact = search.Exact(
        build_costs(people, {s.person: s.points for s in table}, hist),
        [4, 4, 4, 4],
        lookahead_check(people, [], hist, SWISS_16),
    )
    started = time.process_time()
    assert exact.run() is not None
    assert exact.finished and exact.work < search.WORK, (exact.work, time.process_time() - started)
