"""Round robin.

Tables of 2: the circle method (Berger tables). Everyone active at the start is placed in a
seeded order; with an odd count an empty place is added, and whoever meets it has a bye.
Everyone meets everyone once in n - 1 rounds (n even). Who moves first is chosen round by
round: the one of the two who has moved first less often than second, so nobody's firsts
and seconds drift apart by more than a game or two, and, checked for every field of 2 to
60, the first-seat counts of people with as many games differ by at most 2 after any round.

Tables of 3 to 5: groups of the table size (the table-size rule of `tables`: sizes differ
by at most 1), dealt snake-wise by rating so the groups are even (equal ratings by a seeded
coin). Each group meets at one table every round, with its seats rotated one place each
round, so in a group of K everyone meets everyone from round 1 and, over K rounds, has each
seat once. Why this and not a social-golfer schedule across the whole field: such schedules
(everyone meets everyone exactly once at tables of K) exist only for a few field sizes
(9 at tables of 3, 16 at tables of 4, ...), while groups work for any count and give the
seat fairness a round robin promises. The number of rounds is Rules.rounds, else the size
of the biggest group.

Dropped people are never seated again; a 2-player opponent of a dropped person, or a group
left smaller than the game's minimum, has a bye that round.
"""

from __future__ import annotations

import random

from .knockout import snake
from .model import Entrant, PairingError, Rules
from .tables import split


def starting_order(entrants: list[Entrant], seed: int | str) -> list[str]:
    rnd = random.Random(f"{seed}:round-robin")
    people = sorted(e.id for e in entrants if e.active(1))
    rnd.shuffle(people)
    return people


def total_rounds(rules: Rules, entrants: list[Entrant]) -> int:
    count = sum(1 for e in entrants if e.active(1))
    if rules.table_size == 2:
        return count - 1 if count % 2 == 0 else count
    if rules.rounds:
        return rules.rounds
    sizes, _ = split(count, rules)
    return max(sizes, default=0)


def _circle_pairs(people: list[str | None], number: int) -> list[tuple[str | None, str | None]]:
    n = len(people)
    fixed, rest = people[0], people[1:]
    shift = (number - 1) % (n - 1)
    rest = rest[shift:] + rest[:shift]
    line = [fixed, *rest]
    pairs = [(line[i], line[n - 1 - i]) for i in range(n // 2)]
    return [(b, a) for a, b in pairs] if number % 2 == 0 else pairs


def circle(entrants: list[Entrant], seed: int | str, number: int) -> list[tuple[str | None, str | None]]:
    """Round `number`'s pairings, first mover first (None: the empty place). Who moves first
    is decided round by round from the schedule so far: the one who moved first less often
    than second (then who moved first less often; then by the round's parity)."""
    people: list[str | None] = list(starting_order(entrants, seed))
    if len(people) % 2:
        people.append(None)
    firsts: dict[str | None, int] = dict.fromkeys(people, 0)
    balance: dict[str | None, int] = dict.fromkeys(people, 0)  # firsts - seconds
    pairs: list[tuple[str | None, str | None]] = []
    for r in range(1, number + 1):
        pairs = []
        for a, b in _circle_pairs(people, r):
            if a is not None and b is not None:
                if (balance[b], firsts[b]) < (balance[a], firsts[a]):
                    a, b = b, a
                firsts[a] += 1
                balance[a] += 1
                balance[b] -= 1
            pairs.append((a, b))
    return pairs


def groups(rules: Rules, entrants: list[Entrant], seed: int | str) -> tuple[list[list[str]], list[str]]:
    """The groups (each in its round-1 seat order) and the people left without one."""
    rnd = random.Random(f"{seed}:round-robin-groups")
    starting = sorted((e for e in entrants if e.active(1)), key=lambda e: e.id)
    coin = {e.id: rnd.random() for e in starting}
    ranked = [e.id for e in sorted(starting, key=lambda e: (-e.rating, coin[e.id]))]
    sizes, byes = split(len(ranked), rules)
    seated = ranked[: len(ranked) - byes]
    return snake(seated, sizes), ranked[len(ranked) - byes :]


def pair_round_robin(
    rules: Rules, entrants: list[Entrant], number: int, seed: int | str
) -> tuple[list[tuple[str, ...]], list[str]]:
    """Round `number`'s tables (seats in order) and byes."""
    if number > total_rounds(rules, entrants):
        raise PairingError("the round robin is complete: every round is paired")
    active = {e.id for e in entrants if e.active(number)}
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    if rules.table_size == 2:
        for a, b in circle(entrants, seed, number):
            here = [p for p in (a, b) if p is not None and p in active]
            if len(here) == 2 and rules.min_seats <= 2:
                tables.append((here[0], here[1]))
            else:
                byes += here
    else:
        found, left = groups(rules, entrants, seed)
        byes += [p for p in left if p in active]
        for group in found:
            turn = (number - 1) % len(group)
            here = [p for p in group[turn:] + group[:turn] if p in active]
            if len(here) >= rules.min_seats and len(here) > 1:
                tables.append(tuple(here))
            else:
                byes += here
    if not tables:
        raise PairingError("nobody left to pair in this round robin")
    return tables, sorted(byes)
