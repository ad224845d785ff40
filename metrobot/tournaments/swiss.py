"""Swiss rounds for tables of 2 to 5.

Round 1 is a seeded shuffle. Later rounds split the people by the search in `search`
(fewest repeat meetings, then the look-ahead, then score groups: consecutive points top
tables first, floaters where repeats force them), exact for small fields, then the local
search in `polish`; seats are ordered by `seating`. Tables are numbered from the top: the
highest average points first.

Byes (only when the table-size rule needs them): to people who have had the fewest byes,
so nobody gets a second before everyone active has had one; among those, the lowest in the
standings.
"""

from __future__ import annotations

import random

from .history import History, history
from .model import Entrant, PairingError, Round, Rules, Table, TableResult
from .polish import polish
from .scoring import standings
from .search import EXACT_PEOPLE, MATCHING_PEOPLE, Costs, Exact, Lookahead, feasible, matching
from .seating import order_tables
from .tables import sizes_for, split


def active_people(entrants: list[Entrant], number: int) -> list[str]:
    return sorted({e.id for e in entrants if e.active(number)})


def choose_byes(people: list[str], count: int, hist: History, order: dict[str, int]) -> list[str]:
    """`count` byes: fewest byes had first, then the lowest in the standings."""
    if count <= 0:
        return []
    ranked = sorted(people, key=lambda p: (hist.byes[p], -order.get(p, len(order))))
    return ranked[:count]


SEAT_WEIGHT = 0.001  # below any difference in points² the spread can have, so it only breaks ties
SEAT_LIMIT = 0.5  # two people both 2 or more first seats ahead of the least: worth a half-point float


def build_costs(people: list[str], points: dict[str, float], hist: History, two_player: bool = False) -> Costs:
    """Pair costs. The spread also carries the seats: two people who have both moved first
    more often than the least in the field cost SEAT_WEIGHT × the smaller excess² (a tie-break),
    and SEAT_LIMIT more when both are 2 or more ahead (only one at a table moves first, so a
    table of people all owed a later seat would push someone's first-seat count 3 ahead).

    2-player tables weigh seats as chess Swiss weighs colours, above score groups (below
    repeats): two people both a whole first seat ahead of their fair share (or both behind)
    are a seat conflict, one of whom would drift further; the repeats matrix holds
    m² × (4n + 1) + conflicts, so no number of conflicts outweighs one repeat."""
    n = len(people)
    repeats = [[0] * n for _ in range(n)]
    spread = [[0.0] * n for _ in range(n)]
    firsts = [hist.firsts(p) for p in people]
    least = min(firsts, default=0)
    excess = [f - least for f in firsts]
    beyond_share = [hist.first_excess(p) for p in people]
    scale = 4 * n + 1 if two_player else 1
    for i, a in enumerate(people):
        pa = points.get(a, 0.0)
        for j in range(i + 1, n):
            b = people[j]
            m = hist.meetings(a, b)
            conflict = two_player and (
                (beyond_share[i] >= 1 and beyond_share[j] >= 1) or (beyond_share[i] <= -1 and beyond_share[j] <= -1)
            )
            repeats[i][j] = repeats[j][i] = m * m * scale + int(conflict)
            ahead = min(excess[i], excess[j])
            d = (pa - points.get(b, 0.0)) ** 2 + SEAT_WEIGHT * ahead**2 + (SEAT_LIMIT if ahead >= 2 else 0.0)
            spread[i][j] = spread[j][i] = d
    return Costs(repeats, spread)


def lookahead_check(people: list[str], byes: list[str], hist: History, rules: Rules) -> Lookahead:
    """For a candidate split of `people`: can the next round (same people, byes included) be
    paired without a repeat? (approximately: anyone may take the next round's byes)."""
    everyone = people + byes
    n = len(everyone)
    base: list[int] = []
    for i, a in enumerate(everyone):
        mask = 0
        for j, b in enumerate(everyone):
            if i != j and hist.meetings(a, b) == 0:
                mask |= 1 << j
        base.append(mask)
    sizes, nbyes = split(n, rules)

    def check(groups: list[list[int]]) -> bool | None:
        allowed = list(base)
        for g in groups:
            bits = 0
            for i in g:
                bits |= 1 << i
            for i in g:
                allowed[i] &= ~bits
        return feasible(allowed, sizes, nbyes)

    return check


def split_people(
    people: list[str],
    sizes: list[int],
    points: dict[str, float],
    hist: History,
    rng: random.Random,
    lookahead: Lookahead | None = None,
) -> list[list[str]]:
    """People (best first) split into tables of `sizes` by the search (see `search`): tables
    of 2 by an exact minimum-cost matching (no look-ahead: the next round's matching almost
    always exists); else exact when the branch and bound finishes within its cap; else the local search from the exact search's best and
    from consecutive score groups, the better of the two (fewest repeats, then passing the
    look-ahead, then the spread)."""
    costs = build_costs(people, points, hist, two_player=max(sizes, default=0) == 2)
    if set(sizes) == {2} and len(people) <= MATCHING_PEOPLE:
        return [[people[i] for i in g] for g in matching(costs)]
    starts: list[list[list[int]]] = []
    if len(people) <= EXACT_PEOPLE:
        exact = Exact(costs, sizes, lookahead)
        found = exact.run()
        if found is not None and exact.finished:
            return [[people[i] for i in g] for g in found]
        if found is not None:
            starts.append(found)
    groups: list[list[int]] = []
    at = 0
    for size in sorted(sizes, reverse=True):
        groups.append(list(range(at, at + size)))
        at += size
    starts.append(groups)
    done = [polish(costs, start, rng) for start in starts]

    def key(split: list[list[int]]) -> tuple[int, bool, float]:
        cost = costs.split(split)
        fails = lookahead is not None and len(done) > 1 and lookahead(split) is False
        return int(cost // costs.big), fails, cost

    best = min(done, key=key)
    return [[people[i] for i in g] for g in best]


def numbered(groups: list[list[str]], points: dict[str, float], order: dict[str, int]) -> list[list[str]]:
    """Top table first: the highest average points, then the best-placed member."""
    return sorted(
        groups, key=lambda g: (-sum(points.get(p, 0.0) for p in g) / len(g), min(order.get(p, len(order)) for p in g))
    )


def pair_swiss(
    rules: Rules, entrants: list[Entrant], rounds: list[Round], results: list[TableResult], seed: int | str
) -> Round:
    number = len(rounds) + 1
    if rules.rounds is not None and number > rules.rounds:
        raise PairingError(f"the Swiss is over: all {rules.rounds} rounds are paired")
    people = active_people(entrants, number)
    sizes, nbyes = split(len(people), rules)
    if not sizes:
        raise PairingError(f"{len(people)} people left: too few for a table of {rules.min_seats}")
    hist = history(rounds)
    table = standings(rules, entrants, rounds, results, seed)
    order = {s.person: i for i, s in enumerate(table)}
    points = {s.person: s.points for s in table}
    byes = choose_byes(people, nbyes, hist, order)
    seated = sorted((p for p in people if p not in byes), key=lambda p: order.get(p, len(order)))
    rng = random.Random(f"{seed}:swiss:{number}")
    if not rounds:
        shuffled = sorted(seated)
        rng.shuffle(shuffled)
        groups: list[list[str]] = []
        at = 0
        for size in sizes_for(len(shuffled), len(sizes)):
            groups.append(shuffled[at : at + size])
            at += size
    else:
        more = rules.rounds is None or number < rules.rounds
        look = lookahead_check(seated, byes, hist, rules) if more and len(seated) <= EXACT_PEOPLE else None
        groups = numbered(split_people(seated, sizes, points, hist, rng, look), points, order)
    seats = order_tables(groups, hist, rng)
    return Round(number, tuple(Table(i + 1, s) for i, s in enumerate(seats)), tuple(sorted(byes)))
