"""Destination markers: the set of 12 and how they are dealt.

Decision (Board Game Arena's set): res {A,C,D,F}, com {A,B,D,E}, ent {B,C,E,F}: each
letter is on two markers of two different spot types.
"""

from __future__ import annotations

from ..protocol import BadInput
from ..rng import Rng

LETTERS = "ABCDEF"
MARKER_SET: dict[str, tuple[str, ...]] = {
    "res": ("A", "C", "D", "F"),
    "com": ("A", "B", "D", "E"),
    "ent": ("B", "C", "E", "F"),
}
ALL_MARKERS: tuple[tuple[str, str], ...] = tuple(
    (letter, kind) for kind, letters in MARKER_SET.items() for letter in letters
)
KIND_NAMES = {"res": "residential", "com": "commercial", "ent": "entertainment"}


def _parse(spec: str) -> list[tuple[str, str]]:
    return [(item[0], item[2:]) for item in spec.split()]


# Decision: the two-player deal (P2 holds the other marker of every letter).
TWO_PLAYER = (_parse("A-res B-com C-ent D-com E-ent F-res"), _parse("A-com B-ent C-res D-res E-com F-ent"))
STRICT = {
    4: (
        _parse("A-res B-com C-ent"),
        _parse("D-res A-com E-ent"),
        _parse("F-res E-com B-ent"),
        _parse("C-res D-com F-ent"),
    ),
    3: (_parse("A-res D-res B-com C-ent"), _parse("C-res A-com E-com F-ent"), _parse("F-res D-com B-ent E-ent")),
    2: TWO_PLAYER,
}


def deal(n_seats: int, rng: Rng, *, strict: bool = False, advanced: bool = False) -> list[list[tuple[str, str]]]:
    """Hands per seat as (letter, kind) lists.

    Random deals redraw until the constraints hold (rejection sampling keeps every valid
    deal equally likely, unlike repairing a bad draw).
    """
    if advanced:
        # Two people, two companies each, seats alternate: P1 c1, P2 c1, P1 c2, P2 c2.
        p1, p2 = TWO_PLAYER
        return [p1[:3], p2[:3], p1[3:], p2[3:]]
    if n_seats == 2:
        return [list(TWO_PLAYER[0]), list(TWO_PLAYER[1])]
    if strict:
        if n_seats not in STRICT:
            raise BadInput("the strict deal exists for 2-4 players, not {n}", n=n_seats)
        return [list(h) for h in STRICT[n_seats]]
    if n_seats == 4:
        while True:
            by_kind = {k: list(v) for k, v in MARKER_SET.items()}
            for letters in by_kind.values():
                rng.shuffle(letters)
            hands = [[(by_kind[k][i], k) for k in ("res", "com", "ent")] for i in range(4)]
            if all(len({l for l, _ in h}) == 3 for h in hands):
                return hands
    if n_seats == 3:
        while True:
            pool = list(ALL_MARKERS)
            rng.shuffle(pool)
            hands = [pool[i * 4 : (i + 1) * 4] for i in range(3)]
            if all(len({l for l, _ in h}) == 4 and len({k for _, k in h}) == 3 for h in hands):
                return [sorted(h, key=lambda m: m[0]) for h in hands]
    raise BadInput("MetrOmania is for {low}-{high} players, not {n}.", low=2, high=4, n=n_seats)
