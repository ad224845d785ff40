"""A fast, mutable stand-in for a flip-and-write game, for playing out thousands of
rollouts inside one decision.

The engine's values (frozen sheets, JSON-shaped actions, validation on every step) are
right for a game people play, and far too slow to play a game to its end hundreds of
times a second. Here a sheet is a few integers: the marked stations as a bit mask (so
"is this line full" is one AND), the sum of boxed transfer numbers, the empty windows
per line. A move is a small tuple. Everything follows the engine's rules exactly (the
tests replay engine games through it and compare), except the generator behind a
reshuffle, which is Python's: the search only needs the right odds, not the engine's
exact draws.

A move is (way, count): `way` indexes `Board.ways`, a line and, on a ring, a direction;
`count` is the stations crossed (ignored for a transfer). A free ride is (FREE_WAY,
station index) or (FREE_WAY, -1) to let it go.
"""

from __future__ import annotations

import random
from typing import Any

from ..deck import EXPRESS, FREE, RESHUFFLE_CODE, TRANSFER, parse_card
from ..mapdata import MetroMap
from ..sheet import DIRECTIONS, path
from ..state import FINISHED, FlipState

FREE_WAY = -1
_CARDS: dict[str, tuple[str, int]] = {}


def card_of(code: str) -> tuple[str, int]:
    """(kind, value) of a card code, cached: the rollouts look cards up constantly."""
    hit = _CARDS.get(code)
    if hit is None:
        card = parse_card(code)
        hit = _CARDS[code] = (card.kind, card.value)
    return hit


class Board:
    """The map compiled to small integers and bit masks (station i is bit i)."""

    def __init__(self, metro_map: MetroMap):
        self.map = metro_map  # kept so the cache key (its id) cannot be reused while cached
        ids = list(metro_map.stations)
        self.station_ids = ids
        self.index = {sid: i for i, sid in enumerate(ids)}
        self.line_ids = [line.id for line in metro_map.lines]
        self.line_index = {lid: i for i, lid in enumerate(self.line_ids)}
        self.line_mask = [sum(1 << self.index[s] for s in line.stations) for line in metro_map.lines]
        self.high = [line.high for line in metro_map.lines]
        self.low = [line.low for line in metro_map.lines]
        # A way is one line ridden in one direction: (line index, direction, stations in ride order).
        self.ways: list[tuple[int, str | None, tuple[int, ...]]] = []
        self.way_index: dict[tuple[str, str | None], int] = {}
        for li, line in enumerate(metro_map.lines):
            for direction in DIRECTIONS if line.ring else (None,):
                self.way_index[(line.id, direction)] = len(self.ways)
                self.ways.append((li, direction, tuple(self.index[s] for s in path(metro_map, line, direction))))
        self.way_masks = [sum(1 << s for s in set(stations)) for _, _, stations in self.ways]
        self._targets: dict[tuple[int, int, str, int], tuple[int, ...]] = {}
        self.served = [len(metro_map.lines_at(s)) for s in ids]  # the number a transfer boxes
        self.lines_at = [tuple(self.line_index[l] for l in metro_map.lines_at(s)) for s in ids]
        self.line_bits = [sum(1 << li for li in lines) for lines in self.lines_at]  # lines at a station, as bits
        self.special_mask = sum(1 << i for i, s in enumerate(ids) if metro_map.stations[s].special)

    def targets(self, way: int, marks: int, kind: str, value: int) -> tuple[int, ...]:
        """Stations the card may cross on this way, in order (at most its value); the first
        empty station for a transfer.

        Remembered per board: the answer depends only on the marks on the way's own stations,
        and rollouts ask the same few questions hundreds of thousands of times."""
        key = (way, marks & self.way_masks[way], kind, value)
        hit = self._targets.get(key)
        if hit is None:
            if len(self._targets) >= 50_000:
                self._targets.clear()  # bounds the memory; answers are recomputed alike
            hit = self._targets[key] = tuple(self._scan(way, marks, kind, value))
        return hit

    def _scan(self, way: int, marks: int, kind: str, value: int) -> list[int]:
        stations = self.ways[way][2]
        out: list[int] = []
        if kind == EXPRESS:  # every empty station in ride order, hopping over marked ones
            for s in stations:
                if not marks >> s & 1:
                    out.append(s)
                    if len(out) == value:
                        break
            return out
        for s in stations:
            if marks >> s & 1:
                if out:
                    break  # a number card stops at the next marked station
                continue
            out.append(s)
            if kind == TRANSFER or len(out) == value:
                break
        return out

    def to_action(self, move: tuple[int, int], kind: str) -> dict[str, Any]:
        """The engine's JSON action for a move."""
        way, arg = move
        if way == FREE_WAY:
            return {"type": "free", "station": self.station_ids[arg] if arg >= 0 else None}
        li, direction, _ = self.ways[way]
        action: dict[str, Any] = {"type": "transfer" if kind == TRANSFER else "ride", "line": self.line_ids[li]}
        if direction:
            action["dir"] = direction
        if kind != TRANSFER:
            action["count"] = arg
        return action

    def to_move(self, action: dict[str, Any]) -> tuple[int, int]:
        if action["type"] == "free":
            station = action.get("station")
            return (FREE_WAY, self.index[station] if station is not None else -1)
        return (self.way_index[(action["line"], action.get("dir"))], action.get("count", 0))


_BOARDS: dict[int, Board] = {}


def board_for(metro_map: MetroMap) -> Board:
    board = _BOARDS.get(id(metro_map))
    if board is None or board.map is not metro_map:
        if len(_BOARDS) >= 16:
            _BOARDS.clear()
        board = _BOARDS[id(metro_map)] = Board(metro_map)
    return board


class SimSeat:
    """One player's sheet and their part in the current round."""

    __slots__ = ("boxes", "done", "free", "left", "marks", "owed", "owes", "points", "started")
    boxes: int
    done: int  # bit mask of completed lines
    free: list[int]  # empty windows per line
    left: int
    marks: int  # bit mask of marked stations
    owed: int
    owes: bool
    points: int
    started: bool

    def copy(self) -> SimSeat:
        other = SimSeat.__new__(SimSeat)
        other.marks, other.boxes, other.free, other.left = self.marks, self.boxes, self.free[:], self.left
        other.done, other.points = self.done, self.points
        other.owes, other.started, other.owed = self.owes, self.started, self.owed
        return other


class Sim:
    """A whole game in fast form: seats, the face-up card, the pile, the claimed lines."""

    __slots__ = ("board", "card", "claimed", "discard", "draw", "over", "seats", "solo", "special")
    board: Board
    card: str | None  # None once the game is over
    claimed: int  # bit mask of lines someone completed
    discard: list[str]
    draw: list[str]
    over: bool
    seats: list[SimSeat]
    solo: bool
    special: bool

    @classmethod
    def from_state(cls, board: Board, state: FlipState) -> Sim:
        sim = cls.__new__(cls)
        sim.board, sim.solo, sim.special = board, state.solo, state.special
        sim.seats = []
        for p in state.players:
            sheet = state.current_sheet(p)
            seat = SimSeat.__new__(SimSeat)
            seat.marks = sum(1 << board.index[s] for s in sheet.marks)
            seat.boxes = sum(v for v in sheet.marks.values() if isinstance(v, int))
            seat.free = [sum(1 for w in sheet.windows[lid] if w is None) for lid in board.line_ids]
            seat.left = sum(seat.free)
            seat.done = sum(1 << board.line_index[lid] for lid in sheet.completed)
            seat.points = sum(points for _, points in sheet.completed.values())
            pending = state.pending.get(p)
            seat.owes = state.owes(p)
            seat.started = pending is not None
            seat.owed = pending.owed if pending is not None else 0
            sim.seats.append(seat)
        sim.card = state.pile.card
        sim.draw = list(reversed(state.pile.draw))  # top of the pile last, so drawing is pop()
        sim.discard = list(state.pile.discard)
        sim.claimed = 0
        for sheet in state.sheets.values():
            for lid in sheet.completed:
                sim.claimed |= 1 << board.line_index[lid]
        sim.over = state.phase == FINISHED
        return sim

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.board, other.solo, other.special = self.board, self.solo, self.special
        other.seats = [seat.copy() for seat in self.seats]
        other.card, other.draw, other.discard = self.card, self.draw[:], self.discard[:]
        other.claimed, other.over = self.claimed, self.over
        return other

    # --- one step of one player's decision (decision.take_step) ----------------------------
    def act(self, i: int, move: tuple[int, int]) -> int:
        """Apply a legal move of seat i; returns the bit mask of the stations it marked."""
        board, seat = self.board, self.seats[i]
        assert self.card is not None, "seats act only while a card is face up"
        kind, value = card_of(self.card)
        way, arg = move
        if way == FREE_WAY:
            new = 1 << arg if arg >= 0 else 0
            seat.marks |= new
        else:
            li = board.ways[way][0]
            seat.free[li] -= 1
            seat.left -= 1
            new = 0
            if kind == TRANSFER:
                hit = board.targets(way, seat.marks, kind, value)
                if hit:
                    new = 1 << hit[0]
                    seat.boxes += board.served[hit[0]]
            else:
                for s in board.targets(way, seat.marks, kind, value)[:arg]:
                    new |= 1 << s
            seat.marks |= new
        owed = seat.owed - 1 if seat.started else 0
        if self.special and kind != FREE:
            owed += (new & board.special_mask).bit_count()
        if seat.left == 0:
            owed = 0  # extra actions need an empty window
        seat.owed, seat.started, seat.owes = owed, True, owed > 0
        return new

    # --- the end of a round (engine._resolve and Pile.end_round) ---------------------------
    def resolve(self, rnd: random.Random) -> None:
        board = self.board
        claimed = self.claimed
        for seat in self.seats:
            if not seat.started:
                continue
            for li, mask in enumerate(board.line_mask):
                if not seat.done >> li & 1 and mask & seat.marks == mask:
                    seat.done |= 1 << li
                    seat.points += board.high[li] if self.solo or not claimed >> li & 1 else board.low[li]
                    self.claimed |= 1 << li
            seat.started, seat.owed = False, 0
        self.over = not any(seat.left for seat in self.seats)
        self.next_card(rnd)
        for seat in self.seats:
            seat.owes = seat.left > 0 and not self.over

    def next_card(self, rnd: random.Random) -> None:
        card, draw, discard = self.card, self.draw, self.discard
        assert card is not None, "a round ends with its card face up"
        discard.append(card)
        if card == RESHUFFLE_CODE:
            draw.extend(discard)
            discard.clear()
            rnd.shuffle(draw)
        if self.over:
            self.card = None
            return
        if not draw:
            draw.extend(discard)
            discard.clear()
            rnd.shuffle(draw)
        self.card = draw.pop()

    # --- the end of the game (scoring.breakdown and winners) -------------------------------
    def totals(self) -> list[tuple[int, int]]:
        """(score, empty stations) of every seat."""
        n = len(self.board.station_ids)
        out: list[tuple[int, int]] = []
        for seat in self.seats:
            empty = n - seat.marks.bit_count()
            out.append((seat.points + 2 * seat.boxes - (empty if self.solo else empty // 2), empty))
        return out
