"""Who sits where at a table: seats[0] moves first.

Each table's order is the one that keeps everyone's seat counts most even: it minimises,
over the people at the table, the sum of squares of how often each has sat in each seat
(so a seat someone has had twice costs more than one they had once), with the first seat
weighing double and the last one and a half (moving first or last is what people notice).
Equal orders are chosen between by the round's seeded RNG. Tables are independent once
the people at them are chosen, so this is exact per table (at most 5! orders).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

from .history import History

FIRST_WEIGHT, LAST_WEIGHT = 2.0, 1.5


def _weight(i: int, n: int) -> float:
    if i == 0:
        return FIRST_WEIGHT
    return LAST_WEIGHT if i == n - 1 else 1.0


def order_table(people: list[str], hist: History, rng: random.Random) -> tuple[str, ...]:
    n = len(people)
    counts = [hist.seats.get(p, Counter()) for p in people]
    best, best_cost = None, None
    perms = list(permutations(range(n)))
    rng.shuffle(perms)
    for perm in perms:
        # seat i holds people[perm[i]]; (c + 1)^2 - c^2 = 2c + 1 is what one more sitting adds
        cost = sum(_weight(i, n) * (2 * counts[j][i] + 1) for i, j in enumerate(perm))
        if best_cost is None or cost < best_cost - 1e-9:
            best, best_cost = perm, cost
    assert best is not None
    return tuple(people[j] for j in best)


def order_tables(groups: list[list[str]], hist: History, rng: random.Random) -> list[tuple[str, ...]]:
    return [order_table(sorted(g), hist, rng) for g in groups]
