"""Splitting people into tables of given sizes at the least cost: the search under Swiss
and league pairing.

A split's cost is lexicographic: first the repeat meetings (each pair at one table who
already shared m tables costs m², so a third meeting weighs more than two second ones),
then, for a round with more rounds after it, whether the next round could still be paired
without any repeat (the one-round look-ahead), then the score spread (the sum over tables
of the squared point differences of every pair at the table: zero when everyone at a
table has the same points; with no history to avoid, it is least for consecutive score
groups, top tables first). Repeats and spread are one number, repeats × BIG + spread, with
BIG above any spread a round can have.

Tables of 2 (up to `MATCHING_PEOPLE`) are a minimum-cost perfect matching, exact in
polynomial time (`matching`). Other small fields (`EXACT_PEOPLE` or fewer) are searched
exactly by branch and bound: the first free person (best points first) opens a table, its mates are tried cheapest first,
and a partial split that already costs as much as the best complete one is abandoned.
Complete splits are checked by the look-ahead; the search keeps the cheapest split that
passes it and the cheapest that fails, and the fewest repeats win before the look-ahead
does. The work is capped (`WORK`, `LOOKAHEADS`) so a round always returns; within the
caps the result is exact. Larger fields, and anything the cap left unfinished, go to the
seeded local search in `polish`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

EXACT_PEOPLE = 24
MATCHING_PEOPLE = 64  # tables of 2 up to this many people: an exact minimum-cost matching
WORK = 300_000  # people tried at a table, in one exact search
LOOKAHEADS = 400  # complete splits checked by the look-ahead, in one exact search
FEASIBLE_NODES = 20_000  # steps of one look-ahead check


@dataclass
class Costs:
    """The pair costs of one round, over people 0..n-1 (best points first)."""

    repeats: list[list[int]]  # m² for a pair who shared m tables
    spread: list[list[float]]  # (points_i - points_j)²
    big: float = 1.0
    total: list[list[float]] = field(default_factory=list[list[float]])

    def __post_init__(self) -> None:
        n = len(self.repeats)
        widest = max((max(row) for row in self.spread), default=0.0)
        self.big = 1.0 + widest * n * (n - 1) / 2  # above any round's spread, whatever the table sizes
        self.total = [[self.repeats[i][j] * self.big + self.spread[i][j] for j in range(n)] for i in range(n)]

    def table(self, members: list[int]) -> float:
        t = self.total
        return sum(t[a][b] for i, a in enumerate(members) for b in members[i + 1 :])

    def split(self, groups: list[list[int]]) -> float:
        return sum(self.table(g) for g in groups)


def feasible(allowed: list[int], sizes: list[int], byes: int, limit: int = FEASIBLE_NODES) -> bool | None:
    """Can people 0..n-1 sit at tables of `sizes` (and `byes` alone) so that every pair at a
    table is allowed (bit j of allowed[i])? None when the step limit ran out first."""
    n = len(allowed)
    steps = 0

    def grow(members: int, candidates: int, need: int, free: int, left: tuple[int, ...], byes: int) -> bool | None:
        nonlocal steps
        if need == 0:
            return place(free & ~members, left, byes)
        while candidates:
            steps += 1
            if steps > limit:
                return None
            low = candidates & -candidates
            j = low.bit_length() - 1
            candidates &= ~low
            got = grow(members | low, candidates & allowed[j], need - 1, free, left, byes)
            if got is not False:
                return got
        return False

    def place(free: int, left: tuple[int, ...], byes: int) -> bool | None:
        if not free:
            return True
        low = free & -free
        i = low.bit_length() - 1
        rest = free & ~low
        unknown = False
        if byes:
            got = place(rest, left, byes - 1)
            if got:
                return True
            unknown |= got is None
        for size in sorted(set(left), reverse=True):
            k = left.index(size)
            got = grow(low, rest & allowed[i], size - 1, free, left[:k] + left[k + 1 :], byes)
            if got:
                return True
            unknown |= got is None
            if steps > limit:
                return None
        return None if unknown else False

    if sum(sizes) + byes != n:
        return False
    return place((1 << n) - 1, tuple(sorted(sizes, reverse=True)), byes)


def matching(costs: Costs) -> list[list[int]]:
    """Tables of 2 for people 0..n-1 (n even) at the least total cost: Edmonds' blossom
    algorithm (networkx), on integer weights so that it is exact."""
    import networkx as nx

    n = len(costs.total)
    scaled = [[round(c * 1_000_000) for c in row] for row in costs.total]
    top = 1 + max((max(row) for row in scaled), default=0)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, top - scaled[i][j]) for i in range(n) for j in range(i + 1, n))
    pairs = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted(sorted(p) for p in pairs)


# Can the round after a candidate split be paired? (None: the check ran out of steps)
Lookahead = Callable[[list[list[int]]], bool | None]


class Exact:
    """Branch and bound over splits of people 0..n-1 into tables of `sizes`."""

    def __init__(self, costs: Costs, sizes: list[int], lookahead: Lookahead | None = None) -> None:
        self.costs, self.sizes, self.lookahead = costs, sorted(sizes, reverse=True), lookahead
        self.work, self.checks = 0, 0
        self.best_pass: tuple[float, list[list[int]]] | None = None
        self.best_fail: tuple[float, list[list[int]]] | None = None
        self.finished = True

    def bound(self) -> float:
        bound = float("inf")
        if self.best_pass is not None:
            bound = self.best_pass[0]
        if self.best_fail is not None:
            reps = int(self.best_fail[0] // self.costs.big)
            bound = min(bound, (reps + 1) * self.costs.big)
        return bound - 1e-9

    def leaf(self, cost: float, groups: list[list[int]]) -> None:
        snapshot = [list(g) for g in groups]
        ok = True
        if self.lookahead is not None and self.checks < LOOKAHEADS:
            self.checks += 1
            ok = self.lookahead(snapshot) is not False  # a check that ran out of steps does not count against
        if ok:
            if self.best_pass is None or cost < self.best_pass[0]:
                self.best_pass = (cost, snapshot)
        elif self.best_fail is None or cost < self.best_fail[0]:
            self.best_fail = (cost, snapshot)

    def run(self) -> list[list[int]] | None:
        n = len(self.costs.total)
        self._dfs(list(range(n)), tuple(self.sizes), 0.0, [])
        options = [b for b in (self.best_pass, self.best_fail) if b is not None]
        if not options:
            return None
        big = self.costs.big
        # fewest repeats first, then passing the look-ahead, then the spread
        return min(options, key=lambda b: (int(b[0] // big), b is not self.best_pass, b[0]))[1]

    def _options(
        self, first: int, others: list[int], sizes: tuple[int, ...], room: float
    ) -> list[tuple[float, tuple[int, ...], tuple[int, ...]]]:
        """The tables `first` can open (cost, members, sizes left) costing less than `room`."""
        w = self.costs.total
        out: list[tuple[float, tuple[int, ...], tuple[int, ...]]] = []
        for size in sorted(set(sizes), reverse=True):
            k = sizes.index(size)
            rest_sizes = sizes[:k] + sizes[k + 1 :]
            need, last = size - 1, len(others)

            def grow(start: int, members: list[int], cost: float) -> None:
                if len(members) > need:  # noqa: B023 - used within this iteration
                    out.append((cost, tuple(members), rest_sizes))  # noqa: B023 - used within this iteration
                    return
                for idx in range(start, last - (need - len(members))):  # noqa: B023 - used within this iteration
                    j = others[idx]
                    self.work += 1
                    wj = w[j]
                    add = cost + sum(wj[m] for m in members)
                    if add < room:
                        members.append(j)
                        grow(idx + 1, members, add)
                        members.pop()

            grow(0, [first], 0.0)
        out.sort(key=lambda o: o[0])
        return out

    def _dfs(self, free: list[int], sizes: tuple[int, ...], cost: float, groups: list[list[int]]) -> None:
        self.work += 4  # a node costs about as much as trying four people
        if not free:
            self.leaf(cost, groups)
            return
        if self.work >= WORK:
            self.finished = False
            return
        first, others = free[0], free[1:]
        for extra, members, rest_sizes in self._options(first, others, sizes, self.bound() - cost):
            if cost + extra >= self.bound():
                break
            if self.work >= WORK:
                self.finished = False
                return
            taken = set(members)
            groups.append(list(members))
            self._dfs([p for p in others if p not in taken], rest_sizes, cost + extra, groups)
            groups.pop()
