"""Standings: everyone ranked by tournament points (see `points`), then the tie-breaks.

The tie-breaks, in order (`TIEBREAKS`):

1. `opponents`: the points of the people met, averaged per opponent met (one table of 4 is
   3 opponents; a bye none): who faced the stronger field ranks first.
2. `sonneborn_berger`: a multi-player Sonneborn-Berger: at every table, for every opponent,
   the head-to-head share (1 placed above them, 1/2 level, 0 below; 0 against everyone at
   a skipped seat) times that opponent's points, summed and divided by the opponents at the
   table (so tables of 3 and 4 weigh alike), then summed over tables.
3. `rating`: the opponents' average rating at the start, per opponent met.
4. `coin`: a coin drawn from the tournament's seed, so no two people are ever level.

Points and tie-breaks of a dropped person's opponents keep counting everything the dropped
person played. People level on points and every tie-break share a rank (only possible
without the coin, which always separates).

Knockout: ranked by the round reached (still in first, unless they dropped), then the
place at the last table they sat at, then the tie-breaks. League: points are each person's best `best_of` results.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any

from .knockout import progress
from .model import Entrant, Round, Rules, Standing, TableResult
from .points import BYE_POINTS, indexed, points_by_table

TIEBREAKS = ("opponents", "sonneborn_berger", "rating", "coin")


def coin(people: list[str], seed: int | str) -> dict[str, float]:
    rnd = random.Random(f"{seed}:coin")
    return {p: rnd.random() for p in sorted(people)}


def skipped_rounds(rounds: list[Round], results: list[TableResult]) -> Counter[str]:
    """person -> rounds in which the automatic player played their seat all game."""
    out: Counter[str] = Counter()
    for res in indexed(rounds, results).values():
        for person in res.skipped:
            if person in res.places:
                out[person] += 1
    return out


def to_drop(rules: Rules, entrants: list[Entrant], rounds: list[Round], results: list[TableResult]) -> list[str]:
    """People still in whose skipped rounds reached `skips_to_drop` (0: never): the director
    drops them before pairing the next round."""
    if rules.skips_to_drop <= 0:
        return []
    skips = skipped_rounds(rounds, results)
    return sorted(e.id for e in entrants if e.dropped is None and skips[e.id] >= rules.skips_to_drop)


def _head_to_head(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def standings(
    rules: Rules, entrants: list[Entrant], rounds: list[Round], results: list[TableResult], seed: int | str
) -> list[Standing]:
    rows = points_by_table(rules, rounds, results)
    found = indexed(rounds, results)
    rating = {e.id: e.rating for e in entrants}
    people = sorted({e.id for e in entrants} | set(rows))
    counted: dict[str, list[float]] = {}
    points: dict[str, float] = {}
    for person in people:
        worths = sorted((w for _, _, w in rows.get(person, ())), reverse=True)
        if rules.format == "league" and rules.best_of is not None:
            worths = worths[: rules.best_of]
        counted[person] = worths
        points[person] = sum(worths)

    opp_points: dict[str, float] = defaultdict(float)
    opp_count: Counter[str] = Counter()
    opp_rating: dict[str, float] = defaultdict(float)
    berger: dict[str, float] = defaultdict(float)
    played: Counter[str] = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            res = found.get((rnd.number, table.number))
            if res is None:
                continue
            seated = [p for p in table.seats if p in res.places]
            for person in seated:
                others = [o for o in seated if o != person]
                if person not in res.skipped:
                    played[person] += 1
                if not others:
                    continue
                opp_count[person] += len(others)
                opp_points[person] += sum(points.get(o, 0.0) for o in others)
                opp_rating[person] += sum(rating.get(o, 0.0) for o in others)
                if person not in res.skipped:
                    mine = res.places[person]
                    berger[person] += sum(
                        _head_to_head(mine, res.places[o]) * points.get(o, 0.0) for o in others
                    ) / len(others)
    byes = Counter(p for rnd in rounds for p in dict.fromkeys(rnd.byes))
    skips = skipped_rounds(rounds, results)
    coins = coin(people, seed)
    dropped = {e.id for e in entrants if e.dropped is not None}

    knock = progress(rules, entrants, rounds, results, seed, strict=False)[1] if rules.format == "knockout" else {}

    def tiebreaks(person: str) -> tuple[float, ...]:
        n = opp_count[person]
        return (
            round(opp_points[person] / n, 9) if n else 0.0,
            round(berger[person], 9),
            round(opp_rating[person] / n, 9) if n else 0.0,
            coins[person],
        )

    breaks = {p: tiebreaks(p) for p in people}

    def key(person: str) -> tuple[float, ...]:
        level = (-breaks[person][0], -breaks[person][1], -breaks[person][2], breaks[person][3])
        if rules.format == "knockout":
            reached, place = knock.get(person, (0, 0))
            if place == 0 and person in dropped:
                place = 10**6  # dropped while still in: out, below those who played on
            return (-reached, place, -round(points[person], 9), *level)
        return (-round(points[person], 9), *level)

    ordered = sorted(people, key=key)
    out: list[Standing] = []
    for i, person in enumerate(ordered):
        rank = out[-1].rank if out and key(ordered[i - 1]) == key(person) else i + 1
        extra: dict[str, Any] = {}
        if rules.format == "knockout":
            reached, place = knock.get(person, (0, 0))
            extra = {"reached": reached, "place": place}
        elif rules.format == "league":
            extra = {"counted": len(counted[person])}
        out.append(
            Standing(
                person=person,
                rank=rank,
                points=round(points[person], 9),
                tiebreaks=breaks[person],
                played=played[person],
                byes=byes[person],
                skipped=skips[person],
                dropped=person in dropped,
                extra=extra,
            )
        )
    return out


__all__ = ["BYE_POINTS", "TIEBREAKS", "coin", "skipped_rounds", "standings", "to_drop"]
