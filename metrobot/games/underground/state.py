"""On the Underground game state: the colours, the turn in progress and the state itself.

Its canonical JSON (the contract is in engine.py) is written and read back, with its
checks, by `canonical.py`.

In memory, what the rules ask on every step (which colours sit in a gap, how many pieces
of a colour meet at a station) is kept in dictionaries beside the track lists they are
derived from; `canonical.from_json` rebuilds them, they are never serialised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board

COLOURS = ("red", "black", "yellow", "blue", "purple", "pink", "orange", "green", "brown", "white", "grey")
SUPPLY = {c: (20 if i < 5 else 15) for i, c in enumerate(COLOURS)}
SYMBOLS = ("suitcase", "umbrella", "bowler", "teapot")  # connection tiles, two of each
PHASES = ("playing", "last_round", "finished")
LEGS = ("express", "standard")
BREAKDOWN_KEYS = ("national_rail", "terminus", "connections", "loops", "passenger", "start")
SCORED_KEYS = ("national_rail", "terminus", "connections", "enclosed")


@dataclass
class Colour:
    owner: str
    track: list[int] = field(default_factory=list[int])  # gap ids in placement order
    deg: dict[str, int] = field(
        default_factory=dict[str, int], repr=False, compare=False
    )  # derived: pieces at a station

    def copy(self) -> Colour:
        return Colour(self.owner, self.track.copy(), self.deg.copy())


@dataclass
class Turn:
    """What the seat to move has done so far this turn (a turn is several steps)."""

    step: int = 0  # build steps taken: placements and forgone placements, 0-4
    placements: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])  # {colour, gap, kind} this turn
    forgone: int = 0
    build_done: bool = False
    pending: dict[str, Any] | None = None  # {"kind": leg, "options": [...]}: a route the player must choose

    def copy(self) -> Turn:
        return Turn(self.step, [dict(p) for p in self.placements], self.forgone, self.build_done, self.pending)

    def to_json(self, player: str) -> dict[str, Any]:
        return {
            "player": player,
            "step": self.step,
            "placements": [dict(p) for p in self.placements],
            "forgone": self.forgone,
            "build_done": self.build_done,
            "pending_route": copy_pending(self.pending),
        }


def copy_pending(p: dict[str, Any] | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "kind": p["kind"],
        "options": [dict(o, colours=list(o["colours"]), path=list(o["path"])) for o in p["options"]],
    }


@dataclass
class State:
    board: Board
    seed: int
    rng: int
    players: list[str]
    options: dict[str, Any]
    start_player: str
    colours: dict[str, Colour]
    tokens: dict[str, int]
    breakdown: dict[str, dict[str, int]]
    scored: dict[str, dict[str, list[str]]]
    tiles: dict[str, str]  # connection station -> symbol
    draw: list[str]  # top first
    row: list[str]
    discard: list[str]
    at: str  # the passenger's station (its last one once it has left the board)
    trips: list[dict[str, Any]]
    gone: bool = False
    current: int = 0
    turn: Turn = field(default_factory=Turn)
    turn_count: int = 0
    phase: str = "playing"
    winners: list[str] | None = None
    # derived from the tracks: colours in each gap, in the order laid (not compared: a state rebuilt
    # from its JSON lists them in the canonical colour order, and is the same state)
    occ: dict[int, list[str]] = field(default_factory=dict[int, list[str]], repr=False, compare=False)
    last_turn: dict[str, Any] | None = None  # {player, placements, forgone} of the turn before this one

    def copy(self) -> State:
        """A copy `apply` may change freely. Trips are append-only records, shared.

        Copied on write, since a copy is made on every step and most of a state stays as it
        was: the colours, what each colour has scored and the colours in each gap are
        shared with the original, and the code that changes them (`add_piece`,
        `record_score`) puts a fresh object in this state's dictionary first, never
        changing a shared one in place."""
        return State(
            self.board,
            self.seed,
            self.rng,
            self.players,
            self.options,
            self.start_player,
            dict(self.colours),  # (copied on write)
            dict(self.tokens),
            {p: dict(b) for p, b in self.breakdown.items()},
            dict(self.scored),  # (copied on write)
            self.tiles,
            self.draw.copy(),
            self.row.copy(),
            self.discard.copy(),
            self.at,
            self.trips.copy(),
            self.gone,
            self.current,
            self.turn.copy(),
            self.turn_count,
            self.phase,
            None if self.winners is None else list(self.winners),
            dict(self.occ),  # (copied on write)
            self.last_turn,  # replaced whole, never changed in place
        )

    # ------------------------------------------------------------ convenience
    @property
    def player(self) -> str:
        return self.players[self.current]

    def score(self, player: str) -> int:
        return sum(self.breakdown[player][k] for k in BREAKDOWN_KEYS)

    def scores(self) -> dict[str, int]:
        return {p: self.score(p) for p in self.players}

    def colours_of(self, player: str) -> list[str]:
        return [c for c, col in self.colours.items() if col.owner == player]

    def pieces_left(self, colour: str) -> int:
        return SUPPLY[colour] - len(self.colours[colour].track)

    def add_piece(self, colour: str, gap: int) -> None:
        # A copy of the colour and of the gap's list: they may be shared with other states.
        col = self.colours[colour] = self.colours[colour].copy()
        col.track.append(gap)
        for st in self.board.ends[gap]:
            col.deg[st] = col.deg.get(st, 0) + 1
        self.occ[gap] = [*self.occ.get(gap, ()), colour]

    def record_score(self, colour: str, key: str, what: str) -> None:
        """Note that `colour` has scored `what` (a station or a symbol) under `key`."""
        # A copy of the colour's record: it may be shared with other states.
        scored = self.scored[colour] = {k: list(v) for k, v in self.scored[colour].items()}
        scored[key].append(what)
