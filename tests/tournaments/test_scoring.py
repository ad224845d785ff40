"""Tournament points and standings: places scaled by table size with ties split, byes
credited once, skipped seats, tie-breaks in their documented order, knockout and league
standings, duplicate rounds ranked across the field."""

from __future__ import annotations

import dataclasses

import pytest

from metrobot.tournaments.model import Entrant, Round, Rules, Table, TableResult
from metrobot.tournaments.points import BYE_POINTS, table_points, totals
from metrobot.tournaments.scoring import TIEBREAKS, standings, to_drop

from .helpers import play

SWISS = Rules("swiss", table_size=4, min_seats=2, max_seats=5, rounds=5)


def test_places_are_scaled_by_table_size():
    assert table_points(TableResult(1, 1, {"a": 1, "b": 2})) == {"a": 1.0, "b": 0.0}
    assert table_points(TableResult(1, 1, {"a": 1, "b": 2, "c": 3})) == {"a": 1.0, "b": 0.5, "c": 0.0}
    assert table_points(TableResult(1, 1, {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})) == {
        "a": 1.0,
        "b": 0.75,
        "c": 0.5,
        "d": 0.25,
        "e": 0.0,
    }
    assert table_points(TableResult(1, 1, {"a": 1})) == {"a": BYE_POINTS}


def test_shared_places_split_the_positions_they_cover():
    got = table_points(TableResult(1, 1, {"a": 1, "b": 1, "c": 3, "d": 4}))
    assert got == pytest.approx({"a": 5 / 6, "b": 5 / 6, "c": 1 / 3, "d": 0.0})
    assert table_points(TableResult(1, 1, {"a": 1, "b": 1, "c": 2, "d": 3})) == got  # dense ranking alike
    every = table_points(TableResult(1, 1, {"a": 1, "b": 1, "c": 1}))
    assert every == pytest.approx({"a": 0.5, "b": 0.5, "c": 0.5})
    assert sum(table_points(TableResult(1, 1, {"a": 2, "b": 1, "c": 2, "d": 2, "e": 5})).values()) == pytest.approx(2.5)


def test_a_bye_scores_the_average_exactly_once_per_round():
    rounds = [Round(1, (Table(1, ("a", "b")),), ("c", "c")), Round(2, (Table(1, ("a", "c")),), ("b",))]
    results = [TableResult(1, 1, {"a": 1, "b": 2}), TableResult(2, 1, {"c": 1, "a": 2})]
    pts = totals(SWISS, rounds, results)
    assert pts == {"a": 1.0, "b": 0.5, "c": 1.5}
    table = {s.person: s for s in standings(SWISS, [Entrant(p) for p in "abc"], rounds, results, 1)}
    assert table["c"].byes == 1 and table["c"].played == 1


def test_results_for_unknown_tables_are_ignored_and_the_last_result_of_a_table_counts():
    rounds = [Round(1, (Table(1, ("a", "b")),))]
    results = [
        TableResult(1, 1, {"a": 1, "b": 2}),
        TableResult(1, 2, {"a": 1, "b": 2}),
        TableResult(1, 1, {"a": 2, "b": 1}),
    ]
    assert totals(SWISS, rounds, results) == {"a": 0.0, "b": 1.0}


def test_a_skipped_seat_scores_nothing_counts_as_skipped_and_drops_after_enough():
    rounds = [Round(n, (Table(1, ("a", "b", "c")),)) for n in (1, 2, 3)]
    results = [
        TableResult(n, 1, {"a": 1, "b": 2, "c": 3}, skipped=frozenset({"a"} if n < 3 else ())) for n in (1, 2, 3)
    ]
    entrants = [Entrant(p) for p in "abc"]
    table = {s.person: s for s in standings(SWISS, entrants, rounds, results, 1)}
    assert table["a"].points == 1.0 and table["a"].skipped == 2 and table["a"].played == 1
    assert table["b"].points == 1.5  # the others keep the places the game gave them
    assert to_drop(SWISS, entrants, rounds, results) == ["a"]
    assert to_drop(dataclasses.replace(SWISS, skips_to_drop=3), entrants, rounds, results) == []
    assert to_drop(dataclasses.replace(SWISS, skips_to_drop=0), entrants, rounds, results) == []
    gone = [Entrant("a", dropped=3), Entrant("b"), Entrant("c")]
    assert to_drop(SWISS, gone, rounds, results) == []  # already out


def test_standings_follow_points_then_the_tiebreaks_in_order():
    assert TIEBREAKS == ("opponents", "sonneborn_berger", "rating", "coin")
    for seed in range(6):
        game = play(SWISS, 14, seed, mode="rating")
        table = standings(SWISS, game.entrants, game.rounds, game.results, seed)
        keys = [(-s.points, -s.tiebreaks[0], -s.tiebreaks[1], -s.tiebreaks[2], s.tiebreaks[3]) for s in table]
        assert keys == sorted(keys)
        assert [s.rank for s in table] == list(range(1, 15))  # the coin separates everyone
        assert sum(s.points for s in table) == pytest.approx(
            sum(len(t.seats) / 2 for r in game.rounds for t in r.tables)
            + BYE_POINTS * sum(len(r.byes) for r in game.rounds)
        )


def test_last_at_the_top_table_is_worth_what_last_is_anywhere_and_the_tiebreak_rewards_the_stronger_table():
    """Points are points (see points.py): last at the top table scores 0 like last anywhere,
    and winning a lower table 1 like winning the top one. Between two people level on
    points, the one who faced the stronger field ranks first."""
    entrants = [Entrant(p) for p in "abcdefgh"]
    r1 = Round(1, (Table(1, ("a", "b", "c", "d")), Table(2, ("e", "f", "g", "h"))))
    res1 = [TableResult(1, 1, {"a": 1, "b": 2, "c": 3, "d": 4}), TableResult(1, 2, {"e": 1, "f": 2, "g": 3, "h": 4})]
    r2 = Round(2, (Table(1, ("a", "e", "b", "f")), Table(2, ("c", "g", "d", "h"))))
    res2 = [TableResult(2, 1, {"a": 1, "e": 2, "b": 3, "f": 4}), TableResult(2, 2, {"c": 1, "g": 2, "d": 3, "h": 4})]
    assert table_points(res2[0])["f"] == 0.0 and table_points(res2[1])["c"] == 1.0
    pts = totals(SWISS, [r1, r2], res1 + res2)
    assert pts["b"] == pts["g"] == pytest.approx(1.0)
    table = {s.person: s for s in standings(SWISS, entrants, [r1, r2], res1 + res2, 1)}
    # b met a, c, d, then a, e, f (the top tables); g met e, f, h, then c, d, h
    assert table["b"].tiebreaks[0] == pytest.approx(8 / 6) and table["g"].tiebreaks[0] == pytest.approx(4 / 6)
    assert table["b"].rank < table["g"].rank


def test_sonneborn_berger_weighs_whom_you_beat():
    """a and b are level on points and on their opponents' average; a beat x (2 points),
    b beat y (1 point): a ranks first."""
    entrants = [Entrant(p) for p in "abcdxyzw"]

    def duel(n, t, winner, loser):
        return Table(t, (winner, loser)), TableResult(n, t, {winner: 1, loser: 2})

    plays = [
        [("a", "x"), ("b", "y"), ("c", "z"), ("d", "w")],
        [("y", "a"), ("x", "b"), ("w", "c"), ("z", "d")],
        [("a", "c"), ("b", "d"), ("x", "z"), ("w", "y")],
    ]
    rounds, results = [], []
    for n, duels in enumerate(plays, start=1):
        made = [duel(n, t, *d) for t, d in enumerate(duels, start=1)]
        rounds.append(Round(n, tuple(m[0] for m in made)))
        results += [m[1] for m in made]
    table = {s.person: s for s in standings(SWISS, entrants, rounds, results, 1)}
    assert table["a"].points == table["b"].points == 2.0
    assert table["x"].points == 2.0 and table["y"].points == 1.0
    assert table["a"].tiebreaks[0] == table["b"].tiebreaks[0]
    assert table["a"].tiebreaks[1] == pytest.approx(3.0) and table["b"].tiebreaks[1] == pytest.approx(2.0)
    assert table["a"].rank < table["b"].rank


def test_opponent_rating_is_the_third_tiebreak():
    entrants = [
        Entrant("a", rating=1000),
        Entrant("b", rating=1000),
        Entrant("x", rating=2000),
        Entrant("y", rating=1200),
    ]
    rounds = [Round(1, (Table(1, ("a", "x")), Table(2, ("b", "y"))))]
    results = [TableResult(1, 1, {"a": 1, "x": 1}), TableResult(1, 2, {"b": 1, "y": 1})]
    table = {s.person: s for s in standings(SWISS, entrants, rounds, results, 1)}
    assert table["a"].tiebreaks[2] == 2000 and table["b"].tiebreaks[2] == 1200
    assert table["a"].rank < table["b"].rank


def test_a_dropped_persons_results_stand_for_their_opponents():
    entrants = [Entrant("a", dropped=2), Entrant("b"), Entrant("c")]
    rounds = [Round(1, (Table(1, ("a", "b")),), ("c",)), Round(2, (Table(1, ("b", "c")),))]
    results = [TableResult(1, 1, {"a": 1, "b": 2}), TableResult(2, 1, {"b": 1, "c": 2})]
    table = {s.person: s for s in standings(SWISS, entrants, rounds, results, 1)}
    assert table["a"].dropped and table["a"].points == 1.0
    assert table["b"].tiebreaks[0] == pytest.approx((1.0 + 0.5) / 2)


def test_league_counts_each_persons_best_results():
    league = Rules("league", table_size=2, min_seats=2, max_seats=2, best_of=2)
    rounds = [Round(n, (Table(1, ("a", "b")),)) for n in (1, 2, 3)]
    results = [
        TableResult(1, 1, {"a": 1, "b": 2}),
        TableResult(2, 1, {"a": 2, "b": 1}),
        TableResult(3, 1, {"a": 1, "b": 2}),
    ]
    table = {s.person: s for s in standings(league, [Entrant("a"), Entrant("b")], rounds, results, 1)}
    assert table["a"].points == 2.0 and table["a"].extra == {"counted": 2}
    assert table["b"].points == 1.0 and table["b"].played == 3


def test_duplicate_rounds_rank_everyone_across_the_field():
    rules = dataclasses.replace(SWISS, duplicate=True)
    rounds = [Round(1, (Table(1, ("a", "b")), Table(2, ("c", "d"))))]
    results = [
        TableResult(1, 1, {"a": 1, "b": 2}, scores={"a": 30, "b": 20}),
        TableResult(1, 2, {"c": 1, "d": 2}, scores={"c": 25, "d": 10}),
    ]
    assert totals(rules, rounds, results) == pytest.approx({"a": 1.0, "c": 2 / 3, "b": 1 / 3, "d": 0.0})
    assert totals(SWISS, rounds, results) == {"a": 1.0, "c": 1.0, "b": 0.0, "d": 0.0}
    tied = [dataclasses.replace(results[0], scores={"a": 30, "b": 25}), results[1]]
    assert totals(rules, rounds, tied)["b"] == totals(rules, rounds, tied)["c"] == pytest.approx(0.5)


def test_knockout_standings_go_by_round_reached_then_place():
    ko = Rules("knockout", table_size=2, min_seats=2, max_seats=2)
    game = play(ko, 8, 3, mode="rating")
    table = standings(ko, game.entrants, game.rounds, game.results, 3)
    reached = [s.extra["reached"] for s in table]
    assert reached == [3, 3, 2, 2, 1, 1, 1, 1]
    assert [s.extra["place"] for s in table[:2]] == [1, 2]
