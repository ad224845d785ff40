"""League: a season people may join late; a table opens whenever enough of them are free.

`open_tables` seats the free active people (not busy at a table) at as many full tables of
the table size as they fill. When more are free than the tables take, those who have sat
at the fewest tables go first (equal counts by the seeded RNG); the rest wait for the next
call. The chosen people are split by the same search as Swiss with no score groups: the
fewest repeat meetings (people who have met least sit together), then seats balanced by
`seating`.

The director stores each call's tables as a round numbered len(rounds) + 1, tables from 1,
so meetings and seats count for later calls; Entrant.joined is that number for latecomers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .history import history
from .model import Entrant, Round, Rules, Table, TableResult
from .seating import order_tables
from .swiss import split_people


def open_league_tables(
    rules: Rules,
    entrants: list[Entrant],
    rounds: list[Round],
    results: list[TableResult],
    busy: Iterable[str],
    seed: int | str,
) -> list[Table]:
    number = len(rounds) + 1
    busy = set(busy)
    free = sorted(e.id for e in entrants if e.active(number) and e.id not in busy)
    size = rules.table_size
    count = len(free) // size
    if count == 0:
        return []
    hist = history(rounds)
    rng = random.Random(f"{seed}:league:{number}")
    draw = {p: rng.random() for p in free}
    chosen = sorted(free, key=lambda p: (hist.tables[p], draw[p]))[: count * size]
    groups = split_people(sorted(chosen), [size] * count, {}, hist, rng)
    seats = order_tables(groups, hist, rng)
    return [Table(i + 1, s) for i, s in enumerate(seats)]
