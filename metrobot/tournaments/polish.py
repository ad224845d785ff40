"""The seeded local search that improves a split (large fields, or what the exact search's
cap left unfinished), over the same cost as `search` (repeats × BIG + score spread).

Moves: swap two people at different tables, or move one person from a table to a table
one seat smaller (the two tables swap sizes, so the sizes stay as the split rule gave).

1. Repeats: everyone sitting with someone they met before tries every move and takes the
   best one that lowers the cost, until a sweep finds none;
2. kicks: while repeats remain (rarely, in crowded histories), a seeded random swap of
   someone in a repeat, then step 1 again, kept only if the cost went down (`KICKS` tries);
3. spread: everyone tries moves with the nearest tables by points (`WINDOW` each side) and
   takes the best one that lowers the cost, until a sweep finds none (`SWEEPS` at most).

All choices are ordered or drawn from the round's seeded RNG: the same inputs give the
same split. A move is taken only when it lowers the cost, so the result is never worse
than the start.
"""

from __future__ import annotations

import math
import random

from .search import Costs

KICKS = 40
ANNEAL_STEPS = 300  # per person
NEAR = 12  # an annealing swap pairs people at most this many places apart in the points order
WINDOW = 3
SWEEPS = 30


def _gain(costs: Costs, groups: list[list[int]], where: list[int], a: int, b: int | None, target: int) -> float:
    """The cost change of moving `a` to table `target` (and `b` to a's table, if b is given)."""
    w = costs.total
    home = groups[where[a]]
    there = groups[target]
    delta = -sum(w[a][x] for x in home if x != a) + sum(w[a][y] for y in there if y != b)
    if b is not None:
        delta += -sum(w[b][y] for y in there if y != b) + sum(w[b][x] for x in home if x != a)
    return delta


def _best_move(
    costs: Costs, groups: list[list[int]], where: list[int], a: int, tables: list[int]
) -> tuple[float, int | None, int]:
    best: tuple[float, int | None, int] = (-1e-9, None, -1)
    home = where[a]
    for t in tables:
        if t == home:
            continue
        for b in groups[t]:
            d = _gain(costs, groups, where, a, b, t)
            if d < best[0]:
                best = (d, b, t)
        if len(groups[t]) + 1 == len(groups[home]):
            d = _gain(costs, groups, where, a, None, t)
            if d < best[0]:
                best = (d, None, t)
    return best


def _apply(groups: list[list[int]], where: list[int], a: int, b: int | None, t: int) -> None:
    home = where[a]
    groups[home].remove(a)
    groups[t].append(a)
    where[a] = t
    if b is not None:
        groups[t].remove(b)
        groups[home].append(b)
        where[b] = home


def _in_repeats(costs: Costs, groups: list[list[int]]) -> list[int]:
    r = costs.repeats
    return sorted({a for g in groups for a in g for b in g if a != b and r[a][b]})


def _fix_repeats(costs: Costs, groups: list[list[int]], where: list[int], rng: random.Random) -> None:
    every = list(range(len(groups)))
    while True:
        moved = False
        people = _in_repeats(costs, groups)
        rng.shuffle(people)
        for a in people:
            _, b, t = _best_move(costs, groups, where, a, every)
            if t >= 0:
                _apply(groups, where, a, b, t)
                moved = True
        if not moved:
            return


def _spread(costs: Costs, groups: list[list[int]], where: list[int], rng: random.Random) -> None:
    # people are numbered best points first, so a table's best member places it among the tiers
    order = sorted(range(len(groups)), key=lambda t: min(groups[t]) if groups[t] else 0)
    rank = {t: i for i, t in enumerate(order)}
    for _ in range(SWEEPS):
        moved = False
        people = list(range(len(where)))
        rng.shuffle(people)
        for a in people:
            i = rank[where[a]]
            near = order[max(0, i - WINDOW) : i + WINDOW + 1]
            _, b, t = _best_move(costs, groups, where, a, near)
            if t >= 0:
                _apply(groups, where, a, b, t)
                moved = True
        if not moved:
            return


def _anneal(costs: Costs, groups: list[list[int]], where: list[int], rng: random.Random) -> list[list[int]]:
    """Simulated annealing over swaps of people close in the points order (people are
    numbered best first), from a temperature of one point squared down to 1/200 of it; a
    swap that adds a repeat costs BIG and is never taken. Returns the best split seen."""
    n = len(where)
    steps = ANNEAL_STEPS * n
    cost = best = costs.split(groups)
    kept = [list(g) for g in groups], list(where)
    hot, cold = 1.0, 0.005
    for k in range(steps):
        a = rng.randrange(n)
        b = min(n - 1, max(0, a + rng.randint(-NEAR, NEAR)))
        if where[a] == where[b]:
            continue
        delta = _gain(costs, groups, where, a, b, where[b])
        if delta > 0:
            heat = hot * (cold / hot) ** (k / steps)
            if delta > 50 * heat or rng.random() >= math.exp(-delta / heat):
                continue
        _apply(groups, where, a, b, where[b])
        cost += delta
        if cost < best - 1e-9:
            best = cost
            kept = [list(g) for g in groups], list(where)
    groups[:], where[:] = kept
    return groups


def polish(costs: Costs, groups: list[list[int]], rng: random.Random) -> list[list[int]]:
    groups = [list(g) for g in groups]
    where = [0] * len(costs.total)
    for t, g in enumerate(groups):
        for a in g:
            where[a] = t
    _fix_repeats(costs, groups, where, rng)
    for _ in range(KICKS):
        stuck = _in_repeats(costs, groups)
        if not stuck:
            break
        before = costs.split(groups)
        saved = [list(g) for g in groups], list(where)
        a = rng.choice(stuck)
        others = [b for b in range(len(where)) if where[b] != where[a]]
        if not others:
            break
        b = rng.choice(others)
        _apply(groups, where, a, b, where[b])
        _fix_repeats(costs, groups, where, rng)
        if costs.split(groups) >= before - 1e-9:
            groups, where = saved
    _anneal(costs, groups, where, rng)
    _spread(costs, groups, where, rng)
    return [sorted(g) for g in groups]
