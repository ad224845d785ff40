"""What past rounds say about each person: who met whom, who sat where, who had a bye.

Computed from the rounds alone (the tables as paired, whatever their results), so a
dropped person's past tables keep counting for the people they met.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .model import Round


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    met: Counter[tuple[str, str]] = field(
        default_factory=Counter[tuple[str, str]]
    )  # (a, b) with a < b -> tables shared
    seats: dict[str, Counter[int]] = field(
        default_factory=lambda: defaultdict(Counter[int])
    )  # person -> seat index -> times
    byes: Counter[str] = field(default_factory=Counter[str])  # person -> byes had
    tables: Counter[str] = field(default_factory=Counter[str])  # person -> tables sat at
    share: dict[str, float] = field(
        default_factory=dict[str, float]
    )  # person -> first seats a fair share gives (1/size a table)

    def meetings(self, a: str, b: str) -> int:
        return self.met.get(pair_key(a, b), 0)

    def firsts(self, person: str) -> int:
        return self.seats[person][0] if person in self.seats else 0

    def first_excess(self, person: str) -> float:
        """First seats had beyond a fair share (negative: fewer)."""
        return self.firsts(person) - self.share.get(person, 0)


def history(rounds: list[Round]) -> History:
    out = History()
    for rnd in rounds:
        for table in rnd.tables:
            seats = table.seats
            for i, person in enumerate(seats):
                out.seats[person][i] += 1
                out.tables[person] += 1
                out.share[person] = out.share.get(person, 0) + 1 / len(seats)
                for other in seats[i + 1 :]:
                    out.met[pair_key(person, other)] += 1
        for person in set(rnd.byes):
            out.byes[person] += 1
    return out
