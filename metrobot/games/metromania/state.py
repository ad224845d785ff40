"""MetrOmania game state: lines, markers, the turn in progress and the state itself.

Its canonical JSON, the contract the CLI tools, the renderer and tests read, is written and
read back (with its checks) by `canonical.py`.

In memory, lookups the rules need on every tunnel (which line holds a cell, where a vertex
sits on a line) are kept as dictionaries beside the lists they index; they are rebuilt by
`canonical.from_json`, never serialised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..protocol import is_list
from .board import ARROW_BY_CELL, Cell, Vertex

STYLES = ("solid", "dashed")
STATUSES = ("unstarted", "building", "finished", "blocked")
PHASES = ("building", "last_round", "finished")
TUNNELS_PER_LINE = 18
STATION_SUPPLY = 30
CELL_KINDS = ("blank", "res", "com", "ent", "lake", "park")


@dataclass
class Line:
    player: str
    style: str
    vertices: list[Vertex] = field(default_factory=list[Vertex])
    cells: list[Cell] = field(default_factory=list[Cell])
    status: str = "unstarted"
    index: dict[Vertex, int] = field(default_factory=dict[Vertex, int], repr=False, compare=False)

    def copy(self) -> Line:
        return Line(self.player, self.style, self.vertices.copy(), self.cells.copy(), self.status, self.index.copy())

    @property
    def tip(self) -> Vertex:
        return self.vertices[-1]

    def edges_at(self, v: Vertex) -> frozenset[Vertex]:
        """The line's edges at v, each named by its other end."""
        i = self.index[v]
        out: list[Vertex] = []
        if i > 0:
            out.append(self.vertices[i - 1])
        if i + 1 < len(self.vertices):
            out.append(self.vertices[i + 1])
        return frozenset(out)

    @property
    def start_side(self) -> int | None:
        arrow = ARROW_BY_CELL.get(self.cells[0]) if self.cells else None
        return arrow.side if arrow else None


@dataclass
class Marker:
    letter: str
    kind: str
    holder: str
    cell: Cell | None = None


@dataclass
class Turn:
    """What the seat to move has done so far this turn (a turn is several steps)."""

    tunnels: int = 0
    marker: bool = False  # one marker per turn
    started: bool = False  # a line was started this turn (first-turn rule)
    bonus: int | None = None  # line index whose bonus station may be placed now
    ending: bool = False  # the turn is over once the pending bonus is decided
    record: dict[str, Any] = field(default_factory=lambda: {"tunnels": [], "stations": [], "markers": []})

    def copy(self) -> Turn:
        rec: dict[str, Any] = {k: list(v) if is_list(v) else v for k, v in self.record.items()}
        return Turn(self.tunnels, self.marker, self.started, self.bonus, self.ending, rec)


@dataclass
class State:
    seed: int
    rng: int
    options: dict[str, Any]
    players: list[str]
    owners: dict[str, str]
    layout: list[dict[str, int]] | None
    cells: dict[Cell, str]
    lines: list[Line]
    stations: list[Vertex]
    markers: list[Marker]
    scores: dict[str, int]
    phase: str = "building"
    current: int = 0
    turn: Turn = field(default_factory=Turn)
    turns_taken: list[int] = field(default_factory=list[int])
    remaining: list[int] = field(default_factory=list[int])  # seats still owed a last turn
    trigger: str | None = None
    last_turn: dict[str, Any] | None = None
    result: dict[str, Any] | None = None  # breakdown, trips, winners once finished
    occupied: dict[Cell, int] = field(default_factory=dict[Cell, int], repr=False)
    station_set: set[Vertex] = field(default_factory=set[Vertex], repr=False)
    # Set by the look-ahead's steps (`ai/simulate.py`) once every line's status is known to be
    # up to date (a state drawn for a hidden hand may not be: another hand may block or free a
    # line): a next step may then re-check only the lines it can have blocked.
    statuses_known: bool = field(default=False, repr=False, compare=False)

    def copy(self) -> State:
        """A copy that `apply` may change freely; the board's cells are shared (never change)."""
        return State(
            self.seed,
            self.rng,
            self.options,
            self.players,
            self.owners,
            self.layout,
            self.cells,
            [line.copy() for line in self.lines],
            self.stations.copy(),
            [Marker(m.letter, m.kind, m.holder, m.cell) for m in self.markers],
            dict(self.scores),
            self.phase,
            self.current,
            self.turn.copy(),
            self.turns_taken.copy(),
            self.remaining.copy(),
            self.trigger,
            self.last_turn,
            self.result,
            dict(self.occupied),
            set(self.station_set),
        )

    # ------------------------------------------------------------ convenience
    @property
    def n_seats(self) -> int:
        return len(self.players)

    def seat_lines(self, seat: int) -> tuple[int, int]:
        return 2 * seat, 2 * seat + 1

    def line_of(self, seat: int, style: str) -> int:
        return 2 * seat + STYLES.index(style)

    def seat_of(self, player: str) -> int:
        return self.players.index(player)

    @property
    def stations_left(self) -> int:
        return STATION_SUPPLY - len(self.stations)

    def hand(self, player: str) -> list[Marker]:
        return [m for m in self.markers if m.holder == player and m.cell is None]
