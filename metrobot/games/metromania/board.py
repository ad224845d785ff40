"""The MetrOmania board: a hexagon of unit triangles in axial coordinates.

The coordinate model is the project's binding Decision (rules file, "Board model"):
vertices (q, r) with max(|q|, |r|, |q+r|) <= N; cell Up(q, r) = {(q,r),(q+1,r),(q,r+1)},
Down(q, r) = {(q+1,r),(q,r+1),(q+1,r+1)}; a cell is written (q, r, up). Everything here is
static geometry, computed once at import: game code asks dictionaries, never recomputes.

Names players type (and the image prints on its margins): a city vertex is a row letter
A..M (r = -6..6, top to bottom) and a column number 1..25 (2q + r + 13, so every column is
a vertical line on the picture); an arrow cell is S1..S12 (white, start) or T1..T12 (black,
terminus: not E, which is a row), numbered clockwise from the top-left corner.
"""

from __future__ import annotations

from collections.abc import Iterable

N = 6
DIRS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIR_INDEX: dict[tuple[int, int], int] = {d: i for i, d in enumerate(DIRS)}

Vertex = tuple[int, int]
Cell = tuple[int, int, bool]

START_POSITIONS = (1, 3)
END_POSITIONS = (2, 4)


def dist(v: Vertex) -> int:
    q, r = v
    return max(abs(q), abs(r), abs(q + r))


def in_city(v: Vertex) -> bool:
    return v in VERTEX_SET


def corners(cell: Cell) -> tuple[Vertex, Vertex, Vertex]:
    q, r, up = cell
    if up:
        return (q, r), (q + 1, r), (q, r + 1)
    return (q + 1, r), (q, r + 1), (q + 1, r + 1)


def cell_of(a: Vertex, b: Vertex, c: Vertex) -> Cell:
    """The cell whose corners are these three mutually adjacent vertices."""
    pts = sorted((a, b, c), key=lambda v: v[0] + v[1])
    if pts[1][0] + pts[1][1] == pts[2][0] + pts[2][1]:  # two corners on the larger diagonal: Up
        cell = (pts[0][0], pts[0][1], True)
    else:
        cell = (pts[2][0] - 1, pts[2][1] - 1, False)
    if set(corners(cell)) != {a, b, c}:
        raise ValueError(f"{a}, {b}, {c} are not the corners of one cell")
    return cell


def direction(a: Vertex, b: Vertex) -> int:
    """Index in DIRS of the unit step a -> b."""
    return DIR_INDEX[(b[0] - a[0], b[1] - a[1])]


def turn(a_dir: int, b_dir: int) -> int:
    """Turn size between consecutive edges: 0 straight, 1 = 120 degree bend, 2 acute, 3 reverse."""
    s = (b_dir - a_dir) % 6
    return 6 - s if s > 3 else s


def flanks(a: Vertex, b: Vertex) -> tuple[Cell, Cell]:
    """The two cells that contain the edge a-b (city or not): (left, right) seen from a."""
    cached = _FLANKS.get((a, b))
    return cached if cached is not None else _flanks(a, b)


def _flanks(a: Vertex, b: Vertex) -> tuple[Cell, Cell]:
    i = direction(a, b)
    left = (a[0] + DIRS[(i + 1) % 6][0], a[1] + DIRS[(i + 1) % 6][1])
    right = (a[0] + DIRS[(i - 1) % 6][0], a[1] + DIRS[(i - 1) % 6][1])
    return cell_of(a, b, left), cell_of(a, b, right)


def rotate60(v: Vertex, k: int = 1) -> Vertex:
    """Rotate counter-clockwise by k * 60 degrees about the centre."""
    q, r = v
    for _ in range(k % 6):
        q, r = q + r, -q
    return q, r


# ---------------------------------------------------------------- static geometry
VERTICES: tuple[Vertex, ...] = tuple((q, r) for r in range(-N, N + 1) for q in range(-N, N + 1) if dist((q, r)) <= N)
VERTEX_SET = frozenset(VERTICES)
_NEAR = frozenset((q, r) for q in range(-N - 2, N + 3) for r in range(-N - 2, N + 3))
# Every edge the rules can ask about (city and frame), computed once: digging asks often.
_FLANKS: dict[tuple[Vertex, Vertex], tuple[Cell, Cell]] = {}
CITY_CELLS: tuple[Cell, ...] = tuple(
    (q, r, up)
    for r in range(-N - 1, N + 1)
    for q in range(-N - 1, N + 1)
    for up in (True, False)
    if all(in_city(v) for v in corners((q, r, up)))
)
CITY_CELL_SET = frozenset(CITY_CELLS)
CORNERS: dict[Cell, tuple[Vertex, Vertex, Vertex]] = {c: corners(c) for c in CITY_CELLS}


def _cells_at() -> dict[Vertex, tuple[Cell, ...]]:
    out: dict[Vertex, list[Cell]] = {v: [] for v in VERTICES}
    for c in CITY_CELLS:
        for v in CORNERS[c]:
            out[v].append(c)
    return {v: tuple(cs) for v, cs in out.items()}


CELLS_AT: dict[Vertex, tuple[Cell, ...]] = _cells_at()
"""City cells having v as a corner: the cells a station at v touches."""


def _touching() -> dict[Cell, frozenset[Cell]]:
    return {c: frozenset(x for v in CORNERS[c] for x in CELLS_AT[v]) for c in CITY_CELLS}


TOUCHING: dict[Cell, frozenset[Cell]] = _touching()
"""Cells sharing at least one vertex with a cell (itself included)."""

for _a in (v for v in _NEAR if dist(v) <= N + 1):
    for _d in DIRS:
        _b = (_a[0] + _d[0], _a[1] + _d[1])
        if dist(_b) <= N + 1:
            _FLANKS[(_a, _b)] = _flanks(_a, _b)

HEX_CORNERS: tuple[Vertex, ...] = tuple((N * d[0], N * d[1]) for d in DIRS)


def sector_of(cell: Cell) -> int:
    """District sector k: the triangle of the centre and hex corners k and k+1."""
    cx = sum(v[0] for v in CORNERS[cell]) / 3
    cy = sum(v[1] for v in CORNERS[cell]) / 3
    for k in range(6):
        # Barycentric test in axial coordinates (an affine image of the plane).
        a, b = HEX_CORNERS[k], HEX_CORNERS[(k + 1) % 6]
        det = a[0] * b[1] - a[1] * b[0]
        u = (cx * b[1] - cy * b[0]) / det
        w = (a[0] * cy - a[1] * cx) / det
        if u >= -1e-9 and w >= -1e-9 and u + w <= 1 + 1e-9:
            return k
    raise ValueError(f"cell {cell} is in no sector")


SECTOR: dict[Cell, int] = {c: sector_of(c) for c in CITY_CELLS}


# ---------------------------------------------------------------- frame and arrows
class Arrow:
    """One frame triangle outside a boundary edge that carries a start or end arrow."""

    __slots__ = ("apex", "cell", "inner", "kind", "name", "pos", "side")

    def __init__(self, side: int, pos: int):
        step = DIRS[(side + 2) % 6]
        out = DIRS[(side + 1) % 6]
        corner = HEX_CORNERS[side]
        a = (corner[0] + pos * step[0], corner[1] + pos * step[1])
        b = (a[0] + step[0], a[1] + step[1])
        self.apex: Vertex = (a[0] + out[0], a[1] + out[1])
        self.inner: tuple[Vertex, Vertex] = (a, b)
        self.cell: Cell = cell_of(a, b, self.apex)
        self.side = side
        self.pos = pos
        self.kind = "start" if pos in START_POSITIONS else "end"
        self.name = ""

    def __repr__(self) -> str:
        return f"Arrow({self.name} side={self.side} pos={self.pos})"


def _arrows() -> tuple[Arrow, ...]:
    arrows = [Arrow(side, pos) for side in range(6) for pos in START_POSITIONS + END_POSITIONS]
    # Clockwise from the top-left corner: the top side is side 1; clockwise means
    # decreasing side index and, within a side, decreasing position.
    order = [(side, pos) for side in (1, 0, 5, 4, 3, 2) for pos in range(5, -1, -1)]
    counters = {"start": 0, "end": 0}
    by_key = {(a.side, a.pos): a for a in arrows}
    for key in order:
        arrow = by_key.get(key)
        if arrow is None:
            continue
        counters[arrow.kind] += 1
        arrow.name = ("S" if arrow.kind == "start" else "T") + str(counters[arrow.kind])
    return tuple(sorted(arrows, key=lambda a: (a.side, a.pos)))


ARROWS: tuple[Arrow, ...] = _arrows()
ARROW_BY_CELL: dict[Cell, Arrow] = {a.cell: a for a in ARROWS}
ARROW_BY_APEX: dict[Vertex, Arrow] = {a.apex: a for a in ARROWS}
ARROW_BY_NAME: dict[str, Arrow] = {a.name: a for a in ARROWS}
BOUNDARY = frozenset(v for v in VERTICES if dist(v) == N)


def neighbours(v: Vertex) -> Iterable[Vertex]:
    for dq, dr in DIRS:
        yield (v[0] + dq, v[1] + dr)


def side_distance(a: int, b: int) -> int:
    d = (a - b) % 6
    return min(d, 6 - d)


# ---------------------------------------------------------------- names players type
ROWS = "ABCDEFGHIJKLM"


def vertex_name(v: Vertex) -> str:
    q, r = v
    if v in ARROW_BY_APEX:
        return ARROW_BY_APEX[v].name
    if not in_city(v):
        return f"({q},{r})"
    return f"{ROWS[r + N]}{2 * q + r + 2 * N + 1}"


def parse_vertex(text: str) -> Vertex | None:
    """'F7' -> vertex, None if the text names no city vertex or arrow apex."""
    t = text.strip().upper()
    if t in ARROW_BY_NAME:
        return ARROW_BY_NAME[t].apex
    if len(t) < 2 or t[0] not in ROWS or not t[1:].isdigit():
        return None
    r = ROWS.index(t[0]) - N
    col = int(t[1:]) - 2 * N - 1 - r
    if col % 2:
        return None
    v = (col // 2, r)
    return v if in_city(v) else None


VERTEX_NAMES: dict[Vertex, str] = {v: vertex_name(v) for v in VERTICES}
