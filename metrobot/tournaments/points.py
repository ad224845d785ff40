"""Tournament points: what each table (or each duplicate round) is worth to each person.

A place at a table of n people is worth (n - position) / (n - 1): the winner 1, the last 0,
at any table size, so tables of 3 and 4 in one Swiss round weigh alike. People the game
cannot separate share the positions they cover, averaged (two winners of a table of 4
score (1 + 2/3) / 2 each). A table of one person scores the average, 1/2.

The table a result comes from does not change its worth: last at the top table scores 0,
like last anywhere. Swiss pairs by points, so the top table holds the leaders and its
loser meets weaker people next round; the first tie-break (opponents' points) then ranks
people equal on points by how strong their tables were. A bonus by table tier would feed
on itself (the top table's bonus keeps it on top) and would make points depend on which
floater the pairing search moved, so there is none.

A bye scores the average placing points (1/2), exactly once for each round it is listed in.
A seat the automatic player played all game is "skipped": it scores 0, whatever place the
automatic player reached (an absent person does not climb on the automatic player's play);
the others at that table keep the places the game gave them.

Duplicate rounds (Rules.duplicate, results carrying `scores`): everyone of the round who
played is ranked by score across the whole field, with the same (M - position) / (M - 1)
over the M people ranked; a table without scores falls back to its places.
"""

from __future__ import annotations

from collections import defaultdict

from .model import Round, Rules, TableResult

BYE_POINTS = 0.5


def scaled(order: list[tuple[str, float]]) -> dict[str, float]:
    """Points from a ranking: (person, key) best first (smaller key is better); equal keys
    share the positions they cover, averaged."""
    n = len(order)
    if n == 1:
        return {order[0][0]: BYE_POINTS}
    out: dict[str, float] = {}
    i = 0
    while i < n:
        j = i
        while j + 1 < n and order[j + 1][1] == order[i][1]:
            j += 1
        worth = sum((n - 1 - k) / (n - 1) for k in range(i, j + 1)) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k][0]] = worth
        i = j + 1
    return out


def table_points(result: TableResult, seats: tuple[str, ...] | None = None) -> dict[str, float]:
    """Each seated person's points at one table (skipped seats score 0)."""
    places = result.places if seats is None else {p: result.places[p] for p in seats if p in result.places}
    order = sorted(places.items(), key=lambda kv: (kv[1], kv[0]))
    out = scaled([(p, float(place)) for p, place in order]) if order else {}
    for person in result.skipped:
        if person in out:
            out[person] = 0.0
    return out


def indexed(rounds: list[Round], results: list[TableResult]) -> dict[tuple[int, int], TableResult]:
    """Results by (round, table), only for tables the rounds hold (the last result given wins)."""
    tables = {(r.number, t.number) for r in rounds for t in r.tables}
    return {(res.round, res.table): res for res in results if (res.round, res.table) in tables}


def duplicate_points(rnd: Round, found: dict[tuple[int, int], TableResult]) -> dict[str, float]:
    """Field-wide points of one duplicate round, for the people whose table gave scores."""
    field: list[tuple[str, float]] = []
    for table in rnd.tables:
        res = found.get((rnd.number, table.number))
        if res is None or not res.scores:
            continue
        field += [(p, -res.scores[p]) for p in table.seats if p in res.scores and p not in res.skipped]
    if not field:
        return {}
    field.sort(key=lambda kv: (kv[1], kv[0]))
    return scaled(field)


def points_by_table(
    rules: Rules, rounds: list[Round], results: list[TableResult]
) -> dict[str, list[tuple[int, int, float]]]:
    """person -> [(round, table, points)] for every table with a result (table 0: a bye)."""
    found = indexed(rounds, results)
    out: dict[str, list[tuple[int, int, float]]] = defaultdict(list)
    for rnd in rounds:
        field = duplicate_points(rnd, found) if rules.duplicate else {}
        for table in rnd.tables:
            res = found.get((rnd.number, table.number))
            if res is None:
                continue
            for person, worth in table_points(res, table.seats).items():
                if person in field:
                    worth = field[person]
                out[person].append((rnd.number, table.number, worth))
        for person in dict.fromkeys(rnd.byes):
            out[person].append((rnd.number, 0, BYE_POINTS))
    return out


def totals(rules: Rules, rounds: list[Round], results: list[TableResult]) -> dict[str, float]:
    """Everyone's tournament points (leagues: the best `best_of` results)."""
    out: dict[str, float] = {}
    for person, rows in points_by_table(rules, rounds, results).items():
        worths = sorted((w for _, _, w in rows), reverse=True)
        if rules.format == "league" and rules.best_of is not None:
            worths = worths[: rules.best_of]
        out[person] = sum(worths)
    return out
