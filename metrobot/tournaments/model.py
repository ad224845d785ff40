"""A tournament as plain data: its rules, the people in it, its rounds and their results.

Pure and JSON-friendly (no I/O, no Discord, no game internals), so pairing and scoring are
functions of these values alone and a stored tournament replays: the same rules, entrants,
seed and results always give the same next round and the same standings (as lichess keeps
`SwissPairing` and `SwissScoring` apart from the director that runs rounds).

The contract between the pure part and the rest (the director, storage, the Discord side,
the simulation tool):

    pairing.pair(rules, entrants, rounds, results, seed) -> Round
        the next round: tables (seats in order: seats[0] moves first) and byes; only active
        entrants are seated; raises PairingError when no legal round exists (e.g. too few
        people left for one table, or a knockout already decided).
    pairing.open_tables(rules, entrants, rounds, results, busy, seed) -> list[Table]
        leagues only: the tables to open now among the free (not busy) active entrants.
    scoring.standings(rules, entrants, rounds, results, seed) -> list[Standing]
        everyone ranked by tournament points, then the documented tie-breaks.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

FORMATS = ("swiss", "round_robin", "knockout", "league")


class PairingError(Exception):
    """No round can be paired from these values (the director tells the host why)."""


@dataclass(frozen=True)
class Rules:
    """What a tournament is, fixed when it is created."""

    format: str  # one of FORMATS
    table_size: int  # seats a table should have
    min_seats: int  # the game's fewest players: no table is ever smaller
    max_seats: int  # the game's most players: no table is ever larger
    rounds: int | None = None  # swiss: how many; round robin and knockout: derived (None); league: None
    advance: int = 1  # knockout: the top `advance` of each table go through
    best_of: int | None = None  # league: each person's best K results count (None: all)
    duplicate: bool = False  # every table of a round gets the same deal (a game that allows it)
    skips_to_drop: int = 2  # rounds a person's seat was played by the automatic player all game; 0: never

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        return cls(**data)


@dataclass(frozen=True)
class Entrant:
    """One person signed up."""

    id: str  # the person's id (a Discord user id)
    rating: float = 0.0  # their rating in the game at the start (seeding, a tie-break)
    joined: int = 1  # the round they joined in (leagues take people late)
    dropped: int | None = None  # the first round they are not paired for (dropped or removed); None: active

    def active(self, round_number: int) -> bool:
        return self.joined <= round_number and (self.dropped is None or round_number < self.dropped)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entrant:
        return cls(**data)


@dataclass(frozen=True)
class Table:
    number: int  # 1.. within its round
    seats: tuple[str, ...]  # person ids in seat order: seats[0] moves first

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seats": list(self.seats)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        return cls(int(data["number"]), tuple(data["seats"]))


@dataclass(frozen=True)
class Round:
    number: int  # 1..
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()  # people not seated this round who score a bye

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "tables": [t.to_json() for t in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        return cls(int(data["number"]), tuple(Table.from_json(t) for t in data["tables"]), tuple(data.get("byes", ())))


@dataclass(frozen=True)
class TableResult:
    """How one table ended: each person's place by the game's own ranking (1 = best; people
    the game cannot separate share a place). `scores` (optional) holds each person's game
    score: a duplicate round ranks everyone of the round by it across the whole field, and a
    knockout breaks a tie at the cut with it."""

    round: int
    table: int
    places: dict[str, int]
    skipped: frozenset[str] = frozenset()  # seats the automatic player played all game
    scores: dict[str, float] = field(default_factory=dict[str, float])  # person -> the game's score (optional)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "round": self.round,
            "table": self.table,
            "places": dict(self.places),
            "skipped": sorted(self.skipped),
        }
        if self.scores:
            data["scores"] = dict(self.scores)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableResult:
        return cls(
            int(data["round"]),
            int(data["table"]),
            {k: int(v) for k, v in data["places"].items()},
            frozenset(data.get("skipped", ())),
            {k: float(v) for k, v in data.get("scores", {}).items()},
        )


@dataclass(frozen=True)
class Standing:
    person: str
    rank: int  # 1.. (people equal on points and every tie-break share a rank)
    points: float  # tournament points
    tiebreaks: tuple[float, ...] = ()  # in the order scoring.TIEBREAKS names them
    played: int = 0
    byes: int = 0
    skipped: int = 0
    dropped: bool = False
    extra: dict[str, Any] = field(default_factory=dict[str, Any])  # format-specific (knockout: round reached)

    def picture_row(self, name: str) -> dict[str, Any]:
        """The row the standings picture draws (render/standings.py), with the person's name."""
        return {
            "rank": self.rank,
            "name": name,
            "points": self.points,
            "tiebreaks": list(self.tiebreaks[:3]),
            "played": self.played,
            "byes": self.byes,
            "skipped": self.skipped,
            "dropped": self.dropped,
        }
