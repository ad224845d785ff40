"""Knockout: single elimination, the top `advance` of each table go through.

Seeding: by rating at the start, best first (equal ratings by a seeded coin). Every round
re-seeds the people still in by that seeding and deals them snake-wise over the round's
tables (2-player: the best seed left meets the worst, 1 v N, 2 v N-1, ...); when tables
differ in size, the top seeds get the smaller ones.

How many tables and byes: the fewest rounds to a final of one table (at most the table
size, at least the game's minimum), preferring plans whose later rounds need no byes, then
the fewest byes now, then the fewest (so the fullest) tables. Byes go to the top seeds. For 2-player tables this is the standard
bracket: 6 people give byes to seeds 1 and 2, then 3 v 6 and 4 v 5, then 4 people, then a
final. A table is never smaller than `advance` + 1 (or the game's minimum).

Ties at the cut (people sharing the last place that goes through) are broken by the game's
score when the result has one, then by seed. Nobody advances from the final; it is
decided when the final's result is in (pair then raises PairingError). Dropped people never
go through; their past tables stand.
"""

from __future__ import annotations

import random
from functools import cache

from .model import Entrant, PairingError, Round, Rules, Table, TableResult
from .tables import sizes_for

INF = 10**6


def seeding(entrants: list[Entrant], seed: int | str) -> list[str]:
    """Everyone who starts (active in round 1), best seed first."""
    rnd = random.Random(f"{seed}:knockout-seeding")
    starting = sorted((e for e in entrants if e.active(1)), key=lambda e: e.id)
    coin = {e.id: rnd.random() for e in starting}
    return [e.id for e in sorted(starting, key=lambda e: (-e.rating, coin[e.id]))]


def _bounds(rules: Rules) -> tuple[int, int, int, int]:
    low = max(rules.min_seats, rules.advance + 1)
    final_low = max(rules.min_seats, 2)
    return low, rules.table_size, rules.advance, final_low


@cache
def _rounds_left(count: int, low: int, high: int, advance: int, final_low: int, byes_ok: bool) -> int:
    """The fewest rounds from `count` people to a decided knockout (INF: impossible)."""
    if count == 1:
        return 0
    if final_low <= count <= high:
        return 1
    best = INF
    for tables in range(1, count // low + 1):
        if byes_ok:
            seated = min(count, tables * high)
        else:
            seated = count
            if not tables * low <= count <= tables * high:
                continue
        nxt = advance * tables + count - seated
        if nxt < count:
            best = min(best, 1 + _rounds_left(nxt, low, high, advance, final_low, byes_ok))
    return best


def plan(count: int, rules: Rules) -> tuple[list[int], int]:
    """(table sizes, smallest first; byes) for a round with `count` people still in."""
    low, high, advance, final_low = _bounds(rules)
    if count <= 1:
        raise PairingError("the knockout is decided")
    if count <= high:
        if count < final_low:
            raise PairingError(f"{count} people left: too few for a final table")
        return [count], 0
    best: tuple[tuple[int, bool, int, int], list[int], int] | None = None
    for byes in range(count):
        seated = count - byes
        for tables in range(1, seated // low + 1):
            sizes = sizes_for(seated, tables)
            if sizes[-1] < low or sizes[0] > high:
                continue
            nxt = advance * tables + byes
            if nxt >= count:
                continue
            clean = _rounds_left(nxt, low, high, advance, final_low, False)
            left = clean if clean < INF else _rounds_left(nxt, low, high, advance, final_low, True)
            if left >= INF:
                continue
            key = (1 + left, clean >= INF, byes, tables)
            if best is None or key < best[0]:
                best = (key, sorted(sizes), byes)
    if best is None:
        raise PairingError(f"{count} people cannot be seated at tables of {low} to {high}")
    return best[1], best[2]


def snake(people: list[str], sizes: list[int]) -> list[list[str]]:
    """Deal people (best first) over tables snake-wise: 1 2 3 3 2 1 1 2 3 ..., skipping full tables."""
    tables: list[list[str]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i, forward = 0, True
    for person in people:
        while True:
            lane = order if forward else order[::-1]
            if i >= len(lane):
                i, forward = 0, not forward
                continue
            t = lane[i]
            i += 1
            if len(tables[t]) < sizes[t]:
                tables[t].append(person)
                break
    return tables


def _goes_through(result: TableResult, seats: tuple[str, ...], advance: int, rank: dict[str, int]) -> list[str]:
    placed = [p for p in seats if p in result.places]
    placed.sort(key=lambda p: (result.places[p], -result.scores.get(p, 0.0), rank.get(p, len(rank))))
    return placed[:advance]


def progress(
    rules: Rules,
    entrants: list[Entrant],
    rounds: list[Round],
    results: list[TableResult],
    seed: int | str,
    strict: bool = True,
) -> tuple[list[str], dict[str, tuple[int, int]], bool]:
    """(people still in, best seed first; person -> (round reached, place there; 0: went through,
    had a bye or is still playing); decided). A table without result raises PairingError when
    `strict` (pairing), else its people count as still in (standings during a round)."""
    order = seeding(entrants, seed)
    rank = {p: i for i, p in enumerate(order)}
    found = {(r.round, r.table): r for r in results}
    reached: dict[str, tuple[int, int]] = {}
    still = list(order)
    decided = False
    for rnd in rounds:
        through: set[str] = set(rnd.byes)
        for person in rnd.byes:
            reached[person] = (rnd.number, 0)
        final = len(rnd.tables) == 1 and not rnd.byes and len(rnd.tables[0].seats) <= rules.table_size
        for table in rnd.tables:
            res = found.get((rnd.number, table.number))
            if res is None:
                if strict:
                    raise PairingError(f"round {rnd.number} is not finished (table {table.number} has no result)")
                through.update(table.seats)
                for person in table.seats:
                    reached[person] = (rnd.number, 0)
                continue
            for person in table.seats:
                reached[person] = (rnd.number, res.places.get(person, len(table.seats)))
            if not final:
                won = _goes_through(res, table.seats, rules.advance, rank)
                through.update(won)
                for person in won:
                    reached[person] = (rnd.number, 0)
        decided = final and all((rnd.number, t.number) in found for t in rnd.tables)
        still = [p for p in order if p in through]
    if decided:
        still = []
    return still, reached, decided


def pair_knockout(
    rules: Rules, entrants: list[Entrant], rounds: list[Round], results: list[TableResult], seed: int | str
) -> tuple[list[list[str]], list[str]]:
    """This round's tables (people, best seed first, not yet seated in order) and byes."""
    number = len(rounds) + 1
    still, _, decided = progress(rules, entrants, rounds, results, seed)
    if decided:
        raise PairingError("the knockout is decided: its final has a result")
    active = {e.id for e in entrants if e.active(number)}
    people = [p for p in still if p in active]
    sizes, byes = plan(len(people), rules)
    return snake(people[byes:], sizes), people[:byes]


def as_round(number: int, groups: list[list[str]], byes: list[str]) -> Round:
    return Round(number, tuple(Table(i + 1, tuple(g)) for i, g in enumerate(groups)), tuple(byes))
