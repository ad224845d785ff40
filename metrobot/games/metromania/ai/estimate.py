"""Where the points are: a quick estimate of what a seat will score, for its players.

The score of a MetrOmania company comes from a few places, and each has a term here:
- finishing lines. Station points are halved with one line unfinished and lost with
  both, and only a finished line gets a bonus station. A line is worth FINISH when done
  and less the further it still has to dig to an end arrow it may use (TEMPO a tunnel:
  the building phase is short, often 8-10 turns); a line that can no longer reach one
  is worth DEAD.
- destination markers. An unplaced marker costs 6 at the end. Its estimate is that loss
  softened by the best spot of its kind one of the seat's lines can still run along on
  its way to an end arrow: the longer the detour (and the further away: the game may
  end first), the less it is worth going there. Only one marker goes down a turn, so no
  more markers count than the turns the seat's lines still need.
- stations at placed markers. A placed marker no station touches also costs 6; while
  its line is unfinished, the bonus station (or an intermediate one) can still cure it.
- the stations already scored (1 point per spot a station touches), weighted by how
  likely the seat's lines are to finish.
- trips are left to the end: a finished game is judged by its real score. Routes need
  several lines to meet where both markers of a letter lie; a one-step estimate could
  not plan them (the strong player finds them by playing games out).

Distances are counted in tunnels by breadth-first search over city vertices, through
edges that have a free flanking cell the seat may dig (not lake or park; a spot only of a
kind the seat still holds a marker of). The search ignores the rules that forbid acute
turns except on the first tunnel, and a line's own later growth: it is an estimate.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from .. import rules
from ..board import (
    ARROWS,
    CELLS_AT,
    CITY_CELLS,
    CORNERS,
    DIRS,
    TOUCHING,
    VERTICES,
    Arrow,
    Cell,
    Vertex,
    direction,
    flanks,
    in_city,
    side_distance,
    turn,
)
from ..state import TUNNELS_PER_LINE, State

UNPLACED = 6  # what an unplaced or untouched marker costs at the end (rules: impossible trip)


@dataclass(frozen=True)
class Weights:
    finish: float = 10.0  # a finished line
    tempo: float = 1.4  # one tunnel still to dig before a line finishes
    dead: float = -12.0  # a line that can no longer finish
    detour: float = 1.0  # one tunnel of detour to drop a marker
    far: float = 0.75  # one tunnel before the line reaches the spot (the game may end first)
    cure: float = 0.7  # chance that an untouched marker on an unfinished line gets a station
    cure_finished: float = 0.1  # ... on a finished line (only another line can bring one)
    pace: bool = True  # one marker a turn: no more markers count than turns are left
    trip: float = 0.0  # a letter's trip worth by how many of its placed markers the seat's lines pass


WEIGHTS = Weights()
# Each city vertex's neighbours a tunnel may reach, by vertex number (the place in
# `VERTICES`): the searches run on small integers, which index a list where a vertex
# would be hashed.
Graph = list[tuple[int, ...]]
Dist = list[int | None]  # tunnels to each city vertex, by number; None: out of reach
INF = 10**6


# ---------------------------------------------------------------- static geometry
def _city_edges() -> dict[Vertex, tuple[tuple[Vertex, Cell, Cell], ...]]:
    """For every city vertex, its city neighbours with the edge's two flanking cells."""
    out: dict[Vertex, tuple[tuple[Vertex, Cell, Cell], ...]] = {}
    for v in VERTICES:
        out[v] = tuple((w, *flanks(v, w)) for w in ((v[0] + dq, v[1] + dr) for dq, dr in DIRS) if in_city(w))
    return out


EDGES = _city_edges()
VERTEX_ID: dict[Vertex, int] = {v: i for i, v in enumerate(VERTICES)}
_EDGE_IDS: tuple[tuple[tuple[int, Cell, Cell], ...], ...] = tuple(
    tuple((VERTEX_ID[w], c1, c2) for w, c1, c2 in EDGES[v]) for v in VERTICES
)


def _opening() -> tuple[tuple[tuple[tuple[int, Cell, Cell], ...], tuple[int, ...], tuple[Cell, ...] | None], ...]:
    """Per vertex number: its edges, all its neighbours' numbers, and the cells whose being
    free opens every one of its edges (each edge has one of them beside it), else None."""
    out: list[tuple[tuple[tuple[int, Cell, Cell], ...], tuple[int, ...], tuple[Cell, ...] | None]] = []
    for v, edges in zip(VERTICES, _EDGE_IDS, strict=True):
        cells = CELLS_AT[v]
        opens_all = all(c1 in cells or c2 in cells for _, c1, c2 in edges)
        out.append((edges, tuple(w for w, _, _ in edges), cells if opens_all else None))
    return tuple(out)


_OPENING = _opening()
END_ARROWS = tuple(a for a in ARROWS if a.kind == "end")
# A spot's corners and the (ordered) edges along it, as vertex numbers.
CORNER_IDS: dict[Cell, tuple[int, ...]] = {c: tuple(VERTEX_ID[v] for v in CORNERS[c]) for c in CITY_CELLS}
SPOT_EDGES: dict[Cell, tuple[tuple[int, int], ...]] = {
    c: tuple((a, b) for a in CORNER_IDS[c] for b in CORNER_IDS[c] if a != b) for c in CITY_CELLS
}


def diggable(s: State, seat: int) -> frozenset[Cell]:
    """Free city cells the seat could put a tunnel on (spots: of a kind it still holds)."""
    player = s.players[seat]
    kinds = frozenset([m.kind for m in s.markers if m.holder == player and m.cell is None] + ["blank"])
    # The board's cells of those kinds, kept for the last few boards and sets of kinds (every
    # estimator asks: each greedy step); then only the occupied ones are taken away.
    key = (id(s.cells), kinds)
    found = _OF_KINDS.get(key)
    if found is None or found[0] is not s.cells:
        cells = s.cells
        found = _OF_KINDS[key] = (cells, frozenset([c for c in CITY_CELLS if cells[c] in kinds]))
        if len(_OF_KINDS) > 16:
            _OF_KINDS.clear()
    return found[1].difference(s.occupied)


# For `diggable`: (the board, its city cells of a set of kinds), by the board's identity (the
# board is held, so its identity is not given to another meanwhile) and the kinds.
_OF_KINDS: dict[tuple[int, frozenset[str]], tuple[dict[Cell, str], frozenset[Cell]]] = {}


def _open_at(i: int, free: frozenset[Cell]) -> tuple[int, ...]:
    edges, every, cells = _OPENING[i]
    if cells is not None and free.issuperset(cells):
        return every
    return tuple([w for w, c1, c2 in edges if c1 in free or c2 in free])


def open_graph(free: frozenset[Cell]) -> Graph:
    """City edges with a flanking cell in `free`: the graph the searches walk."""
    # This runs for every estimator (each greedy step), and a seat's free cells change by a
    # cell or two from one of its steps to the next: the last few graphs made are kept
    # (`_RECENT`), and from one whose free cells differ by a few, only the vertices at a cell
    # that changed are worked out again (a vertex's edges depend on its own cells alone).
    for i, (known, graph) in enumerate(_RECENT):
        changed = known ^ free
        if len(changed) <= _FEW_CHANGES:
            graph = list(graph)
            for v in {v for c in changed for v in CORNER_IDS[c]}:
                graph[v] = _open_at(v, free)
            del _RECENT[i]
            _RECENT.insert(0, (free, graph))
            return graph
    # List comprehensions, not generators. A vertex whose every cell is free keeps all its
    # edges (the common case, one subset test); the others are filtered edge by edge.
    graph = [
        every
        if cells is not None and free.issuperset(cells)
        else tuple([w for w, c1, c2 in edges if c1 in free or c2 in free])
        for edges, every, cells in _OPENING
    ]
    _RECENT.insert(0, (free, graph))
    del _RECENT[_KEPT:]
    return graph


# The graphs last made, newest first, with their free cells (a seat's, mostly: one for each
# seat of a rollout). A graph is never changed once made: a changed one is a new list.
_RECENT: list[tuple[frozenset[Cell], Graph]] = []
_KEPT = 4
_FEW_CHANGES = 8


def bfs(sources: Iterable[int], start: int, avoid: Collection[Vertex], graph: Graph) -> Dist:
    """Tunnels to every city vertex reachable without `avoid` from the nearest of the
    sources (vertex numbers, each `start` tunnels away), by vertex number."""
    dist: Dist = [None] * len(VERTICES)
    seen = bytearray(len(VERTICES))
    for v in avoid:
        i = VERTEX_ID.get(v)  # a line's start apex is no city vertex
        if i is not None:
            seen[i] = 1
    frontier: list[int] = []
    for i in sources:
        dist[i] = start
        seen[i] = 1
        frontier.append(i)
    d = start
    while frontier:  # level by level: every vertex of a level is `d` tunnels away
        d += 1
        found: list[int] = []
        for i in frontier:
            for w in graph[i]:
                if not seen[w]:
                    seen[w] = 1
                    dist[w] = d
                    found.append(w)
        frontier = found
    return dist


def end_arrows_for(s: State, start_side: int | None) -> list[Arrow]:
    """Free end arrows a line that started on `start_side` may finish on (side rule)."""
    free = [a for a in END_ARROWS if a.cell not in s.occupied]
    if start_side is None:
        return free
    preferred = [a for a in free if side_distance(a.side, start_side) >= 2]
    return preferred or free


def end_distances(s: State, start_side: int | None, avoid: Collection[Vertex], graph: Graph) -> Dist:
    """Tunnels from each city vertex to the end of the line, the finishing tunnel included."""
    seeds = [VERTEX_ID[v] for a in end_arrows_for(s, start_side) for v in a.inner if v not in avoid]
    return bfs(seeds, 1, avoid, graph)


# ---------------------------------------------------------------- one line, seen from its tip
class LineOutlook:
    """What a building line can still reach: tunnels from its tip to every vertex (`near`)
    and to the end (`to_end`), honouring the no-acute-turn rule on the first tunnel."""

    __slots__ = ("_avoid", "_graph", "_near", "end_map", "first", "left", "li", "spots", "tip", "tip_id", "to_end")

    def __init__(self, s: State, li: int, free: frozenset[Cell], graph: Graph, end_map: Dist):
        line = s.lines[li]
        self.li = li
        self.left = TUNNELS_PER_LINE - len(line.cells)
        self.end_map = end_map
        tip = line.tip
        prev = line.vertices[-2] if len(line.vertices) >= 2 else None
        sharp_ok = tip in s.station_set or prev is None or not in_city(prev)
        first: dict[int, int] = {}  # the vertices (numbers) one tunnel from the tip
        for w, c1, c2 in EDGES.get(tip, ()):
            if w in line.index or not ((c1 in free and c1 not in s.occupied) or (c2 in free and c2 not in s.occupied)):
                continue
            if not sharp_ok and prev is not None and turn(direction(prev, tip), direction(tip, w)) == 2:
                continue
            first[VERTEX_ID[w]] = 1
        tip_id = VERTEX_ID.get(tip)
        self.tip, self.tip_id, self.first = tip, tip_id, first
        self.spots: dict[Cell, tuple[int, int]] = {}
        self._near: Dist | None = None
        self._avoid, self._graph = line.index, graph
        best = min((1 + d for d in (end_map[w] for w in first) if d is not None), default=INF)
        for a in END_ARROWS:  # finishing right from the tip
            if (
                tip in a.inner
                and a.cell not in s.occupied
                and tip_id is not None
                and end_map[tip_id] == 1
                and (sharp_ok or prev is None or turn(direction(prev, tip), direction(tip, a.apex)) != 2)
            ):
                best = 1
        self.to_end = best

    @property
    def near(self) -> Dist:
        """Tunnels from the tip to every vertex, by number (searched only when markers ask)."""
        if self._near is None:
            self._near = bfs(self.first, 1, self._avoid, self._graph)
            if self.tip_id is not None:
                self._near[self.tip_id] = 0
        return self._near

    def spot(self, cell: Cell) -> tuple[int, int]:
        """(tunnels to finish by way of `cell`, tunnels to reach it), cached."""
        found = self.spots.get(cell)
        if found is None:
            near = self.near
            reach = INF
            for i in CORNER_IDS[cell]:
                d = near[i]
                if d is not None and d < reach:
                    reach = d
            found = self.spots[cell] = (self.via(cell), reach)
        return found

    def via(self, cell: Cell) -> int:
        """Tunnels to finish the line running along one edge of `cell` (INF: impossible)."""
        near, end_map, tip, first = self.near, self.end_map, self.tip_id, self.first
        best = INF
        for a, b in SPOT_EDGES[cell]:
            if a == tip and b not in first:
                continue  # an acute turn at the tip
            da = near[a]
            if da is not None:
                db = end_map[b]
                if db is not None and da + 1 + db < best:
                    best = da + 1 + db
        return best


# ---------------------------------------------------------------- the whole seat
class Estimator:
    """Estimates for one seat. Distance maps to the end arrows come from the position the
    estimator was made for and are reused for positions one or a few steps on (digging
    one tunnel changes them little); the tip's own search is redone and cached per tip."""

    def __init__(self, s: State, seat: int, weights: Weights = WEIGHTS):
        self.seat = seat
        self.w = weights
        self.free = diggable(s, seat)
        self.graph = open_graph(self.free)
        self.end_maps: dict[tuple[int, int | None], Dist] = {}
        self.outlooks: dict[tuple[int, Vertex, int], LineOutlook] = {}
        self.spot_lists: dict[tuple[str, Cell | None], list[Cell]] = {}
        self.base = s

    def end_map(self, s: State, li: int, start_side: int | None) -> Dist:
        key = (li, start_side)
        found = self.end_maps.get(key)
        if found is None:
            # The parent position's line: the children only add vertices at its tip.
            found = end_distances(self.base, start_side, self.base.lines[li].index, self.graph)
            self.end_maps[key] = found
        return found

    def outlook(self, s: State, li: int) -> LineOutlook:
        line = s.lines[li]
        key = (li, line.tip, len(line.cells))
        found = self.outlooks.get(key)
        if found is None:
            found = LineOutlook(s, li, self.free, self.graph, self.end_map(s, li, line.start_side))
            self.outlooks[key] = found
        return found

    def unstarted_to_end(self, s: State, li: int) -> int:
        """Tunnels for a line not yet started: the best start it may use, then to the end."""
        best = INF
        for arrow in rules.allowed_arrows(s, li, "start"):
            end_map = self.end_map(s, li, arrow.side)
            for v in arrow.inner:
                d = end_map[VERTEX_ID[v]]
                if d is not None and 1 + d < best:
                    best = 1 + d
        return best

    # ------------------------------------------------------------ the estimate
    def value(self, s: State, horizon: int | None = None, *, shaping: bool = True) -> float:
        """Estimated final score of the seat in position s. `horizon` caps the tunnels
        the seat may still dig (its last turn), None when the game goes on. Without
        `shaping`, points only: the worth of finishing lines in itself is left out."""
        w = self.w
        seat = self.seat
        player = s.players[seat]
        if s.phase == "finished":
            # The real score, with the line terms every other estimate carries.
            done = sum(1 for li in s.seat_lines(seat) if s.lines[li].status == "finished")
            return s.scores[player] + (done * w.finish + (2 - done) * w.dead if shaping else 0)
        total = 0.0
        shape = 0.0  # the part of `total` that is not points
        finishing = 0.0  # expected number of finished lines (for station points)
        to_dig = 0  # tunnels still to dig to finish the lines that can be finished
        outlooks: list[LineOutlook] = []
        for li in s.seat_lines(seat):
            line = s.lines[li]
            if line.status == "finished":
                shape += w.finish
                finishing += 1
                continue
            if line.status == "unstarted":
                d = self.unstarted_to_end(s, li)
                left = TUNNELS_PER_LINE
            elif line.status == "blocked":
                d, left = INF, 0
            else:
                o = self.outlook(s, li)
                outlooks.append(o)
                d, left = o.to_end, o.left
            if horizon is not None:
                left = min(left, horizon)
            if d <= left:
                to_dig += d
                shape += w.finish - w.tempo * d
                finishing += max(0.3, 1 - 0.04 * d) if horizon is None else 1
            else:
                shape += w.dead
        total += s.scores[player] * finishing / 2

        # Markers still in hand: the best spot of their kind on some line's way, each
        # spot counted once per kind.
        taken: set[Cell] = set()
        gains: list[float] = []
        placed = {m.letter: m.cell for m in s.markers if m.cell is not None}
        for m in sorted((m for m in s.markers if m.holder == player), key=lambda m: (m.kind, m.letter)):
            if m.cell is not None:
                if not any(v in s.station_set for v in CORNERS[m.cell]):
                    li = s.occupied.get(m.cell)
                    open_line = li is not None and s.lines[li].status != "finished" and horizon is None
                    chance = w.cure if open_line else w.cure_finished if horizon is None else 0.0
                    total -= UNPLACED * (1 - chance)
                continue
            twin = placed.get(m.letter)
            best, best_cell = 0.0, None
            spots = self._spots(s, m.kind, twin) if outlooks else []  # the same for every line
            for o in outlooks:
                slack = min(o.left, horizon if horizon is not None else INF)
                for c in spots:
                    if c in taken:
                        continue
                    via, reach = o.spot(c)
                    if via > slack:
                        continue
                    if horizon is not None and reach + 1 > horizon:
                        continue
                    gain = UNPLACED - w.detour * max(0, via - o.to_end) - w.far * reach
                    if gain > best:
                        best, best_cell = gain, c
            if best_cell is not None:
                taken.add(best_cell)
            total -= UNPLACED
            gains.append(best)
        if gains:
            if w.pace:
                # A marker a turn: the turns it takes to finish the lines bound how many
                # markers can still go down (the seat may of course dig longer lines).
                mine = s.players[s.current] == player
                if horizon is not None:
                    turns = 1 if mine and horizon > 0 and not s.turn.marker else 0
                else:
                    turns = max(1, -(-to_dig // 3))
                gains = sorted(gains, reverse=True)[:turns]
            total += sum(gains)
        if w.trip:
            total += w.trip * self._trips(s, player)
        return total + shape if shaping else total

    def _trips(self, s: State, player: str) -> float:
        """Trips the seat's lines are placed to ride: for each letter with a marker down, what a
        fastest route through it would pay (6 to a placer, 3 to another rider), times the share
        of its markers whose cell one of the seat's lines passes a corner of, squared (a route
        needs both ends)."""
        mine = [line.index for line in s.lines if line.player == player and line.vertices]
        if not mine:
            return 0.0
        served: dict[str, int] = {}
        worth: dict[str, int] = {}
        for m in s.markers:
            if m.cell is None:
                continue
            if m.holder == player:
                worth[m.letter] = 6
            else:
                worth.setdefault(m.letter, 3)
            if any(v in index for index in mine for v in CORNERS[m.cell]):
                served[m.letter] = served.get(m.letter, 0) + 1
        return sum(worth[letter] * (n / 2) ** 2 for letter, n in served.items())

    def _spots(self, s: State, kind: str, twin: Cell | None) -> list[Cell]:
        """Free spots of `kind` a marker whose twin lies on `twin` may go on."""
        key = (kind, twin)
        found = self.spot_lists.get(key)
        if found is None:
            found = [
                c
                for c in CITY_CELLS
                if s.cells[c] == kind and c not in self.base.occupied and (twin is None or twin not in TOUCHING[c])
            ]
            self.spot_lists[key] = found
        return [c for c in found if c not in s.occupied]
