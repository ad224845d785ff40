"""Digging and station rules: what is legal, and why not.

One checker (`tunnel_problem`) decides every tunnel, so the list of legal moves, the
refusal a player reads and the blocked-line test can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..protocol import N_, Phrase, RuleError, Term
from .board import (
    ARROW_BY_APEX,
    ARROW_BY_CELL,
    ARROWS,
    CELLS_AT,
    CITY_CELL_SET,
    DIR_INDEX,
    DIRS,
    TOUCHING,
    VERTEX_SET,
    Arrow,
    Cell,
    Vertex,
    corners,
    flanks,
    in_city,
    side_distance,
    vertex_name,
)
from .state import STATION_SUPPLY, TUNNELS_PER_LINE, State

SPOTS = frozenset(("res", "com", "ent"))
NO_TUNNEL = frozenset(("lake", "park"))
# Turns between consecutive edges, as (new direction - old direction) % 6, that are acute
# (`board.turn(a, b) == 2`).
ACUTE = frozenset((2, 4))
ARROWS_OF_KIND: dict[str, tuple[Arrow, ...]] = {k: tuple(a for a in ARROWS if a.kind == k) for k in ("start", "end")}


KINDS = {
    "res": N_("residential"),
    "com": N_("commercial"),
    "ent": N_("entertainment"),
    "lake": N_("lake"),
    "park": N_("park"),
}
STYLE_WORDS = {"solid": N_("solid"), "dashed": N_("dashed")}


def cell_label(cell: Cell, s: State) -> Phrase:
    """How players see a cell in messages: its kind and the corners' names."""
    if cell in ARROW_BY_CELL:
        return Phrase("arrow {arrow}", arrow=ARROW_BY_CELL[cell].name)
    kind = s.cells.get(cell, "blank")
    where = "-".join(vertex_name(v) for v in sorted(corners(cell), key=lambda v: (v[1], v[0])))
    if kind in SPOTS:
        return Phrase("{kind} spot {where}", kind=Term(KINDS[kind]), where=where)
    return Phrase("cell {where}", where=where)


# ---------------------------------------------------------------- stations
def merged(a: frozenset[Vertex], b: frozenset[Vertex]) -> bool:
    """Two lines at a vertex share an edge and one's edges contain the other's."""
    return bool(a & b) and (a <= b or b <= a)


def stations_made(s: State, li: int, frm: Vertex, to: Vertex) -> list[Vertex]:
    """Vertices that get a station if line li digs frm -> to (the meet/split rule). At most
    two: one for each end of the new edge."""
    made: list[Vertex] = []
    line = s.lines[li]
    lines = s.lines
    for v in (frm, to):
        if v in s.station_set or v not in VERTEX_SET:
            continue
        mine: frozenset[Vertex] | None = None  # built only once another line passes v (rare)
        for j, other_line in enumerate(lines):
            if j != li and v in other_line.index:
                if mine is None:
                    if v == frm:
                        mine = frozenset((line.vertices[-2], to)) if len(line.vertices) >= 2 else frozenset((to,))
                    else:
                        mine = frozenset((frm,))
                if not merged(mine, other_line.edges_at(v)):
                    made.append(v)
                    break
    return made


def station_points(s: State, v: Vertex) -> int:
    """1 point per spot cell the station touches (Decision: BGA's and the Spanish reading)."""
    return sum(1 for c in CELLS_AT.get(v, ()) if s.cells[c] in SPOTS)


# ---------------------------------------------------------------- markers
def usable_letters(s: State, player: str, cell: Cell) -> list[str]:
    """Letters `player` could drop on this spot: a held marker of its type whose twin
    (the other marker of the letter) is not placed on a touching cell."""
    kind = s.cells[cell]
    markers = s.markers
    touching = TOUCHING[cell]
    out: list[str] = []
    for m in markers:
        if m.holder == player and m.cell is None and m.kind == kind:
            # The twin: the other marker of the letter that lies on the board (if any).
            for t in markers:
                if t.letter == m.letter and t.cell is not None and t is not m and t.cell in touching:
                    break
            else:
                out.append(m.letter)
    return sorted(out)


# ---------------------------------------------------------------- tunnels
def allowed_arrows(s: State, li: int, kind: str) -> list[Arrow]:
    """Free arrows of `kind` this line may use, honouring the side rule.

    Starting the second line and finishing a line both avoid the first line's (or this
    line's) start side and its two neighbours, unless every arrow on the allowed sides
    is taken.
    """
    avoid = _avoided_side(s, li, kind)
    free = [a for a in ARROWS_OF_KIND[kind] if a.cell not in s.occupied]
    if avoid is None:
        return free
    preferred = [a for a in free if side_distance(a.side, avoid) >= 2]
    return preferred or free


def _avoided_side(s: State, li: int, kind: str) -> int | None:
    line = s.lines[li ^ 1] if kind == "start" else s.lines[li]
    return ARROW_BY_CELL[line.cells[0]].side if line.cells and line.cells[0] in ARROW_BY_CELL else None


def arrow_allowed(s: State, li: int, arrow: Arrow) -> bool:
    """`arrow in allowed_arrows(s, li, arrow.kind)` for a free arrow, without building the
    lists: the legality check asks it for every candidate tunnel at a frame."""
    avoid = _avoided_side(s, li, arrow.kind)
    if avoid is None or side_distance(arrow.side, avoid) >= 2:
        return True
    # On an avoided side: allowed only while every arrow on the other sides is taken.
    occupied = s.occupied
    return all(a.cell in occupied for a in _ON_OTHER_SIDES[arrow.kind, avoid])


# The arrows of a kind a line may use while it avoids a side (and its two neighbours).
_ON_OTHER_SIDES: dict[tuple[str, int], tuple[Arrow, ...]] = {
    (kind, side): tuple(a for a in arrows if side_distance(a.side, side) >= 2)
    for kind, arrows in ARROWS_OF_KIND.items()
    for side in range(6)
}


REFUSALS = {
    "line_finished": N_("your {style} line is finished."),
    "no_tunnels": N_("your {style} line has used all {max_tunnels} tunnels."),
    "cell_taken": N_("{cell} already holds a tunnel (one tunnel per cell)."),
    "must_start": N_("your {style} line has not started; start it on a free white arrow (S1-S12)."),
    "start_edge": N_("a line starting at {arrow} runs to {inner}."),
    "first_turn_one_line": N_("in your first turn you may start only one line."),
    "start_side": N_(
        "your second line may not start on the side of your first line's start or on a side next to "
        "it while a start arrow on another side is free."
    ),
    "self_touch": N_("your {style} line already passes {to}; a line never loops or touches itself."),
    "not_adjacent": N_("{to} is not next to your {style} line's end at {frm}."),
    "cell_not_flank": N_("{cell} is not beside the edge {frm}-{to}."),
    "acute_turn": N_("acute turn at {frm} is only allowed at a station."),
    "start_cell": N_("a tunnel goes on a start arrow only to start a line."),
    "end_side": N_(
        "a line may not end on its start side or a side next to it while an end arrow on another side is free."
    ),
    "outside": N_("tunnels stay in the city; {to} or {cell} is outside it."),
    "arrow_cell": N_("a tunnel goes on an arrow only to start or finish a line; use the city cell on the other side."),
    "lake_park": N_("no tunnel may go on the {kind}."),
    "one_marker_per_turn": N_(
        "digging on the {kind} spot needs a destination marker, and you already placed one "
        "this turn; dig on the other side of the edge or wait for your next turn."
    ),
    "marker_needed": N_(
        "digging on the {kind} spot needs one of your {kind} markers whose twin does not touch it; "
        "you have none, so use the cell on the other side of the edge."
    ),
    "station_supply": N_("this tunnel would need {made} station(s) but only {left} remain."),
}


def tunnel_problem(s: State, li: int, cell: Cell, to: Vertex, *, per_turn: bool) -> tuple[str | None, list[str]]:
    """(id of the rule that forbids it or None, usable marker letters) for line li digging
    onto `cell` toward `to`. `refusal` turns the rule id into the players' sentence.

    per_turn=False ignores the limits of the current turn (one marker per turn, one new
    line in the first turn): that is the blocked-line test.

    Hot: the legal moves, every applied step's blocked-line test and the automatic players
    all come here, so the checks use the precomputed tables and build no lists on the way.
    """
    line = s.lines[li]
    if line.status == "finished":
        return "line_finished", []
    if len(line.cells) >= TUNNELS_PER_LINE:
        return "no_tunnels", []
    verts = line.vertices
    occupied = s.occupied
    if not verts:
        arrow = ARROW_BY_CELL.get(cell)
        if arrow is None or arrow.kind != "start":
            return "must_start", []
        if to not in arrow.inner:
            return "start_edge", []
        if per_turn and s.turn.started and s.turns_taken[s.current] == 0:
            return "first_turn_one_line", []
        if cell in occupied:
            return "cell_taken", []
        if not arrow_allowed(s, li, arrow):
            return "start_side", []
        frm = arrow.apex
    else:
        frm = verts[-1]
        if to in line.index:
            return "self_touch", []
        d_new = DIR_INDEX.get((to[0] - frm[0], to[1] - frm[1]))
        if d_new is None:
            return "not_adjacent", []
        if cell not in flanks(frm, to):
            return "cell_not_flank", []
        if len(verts) >= 2 and frm not in s.station_set:
            prev = verts[-2]
            if (d_new - DIR_INDEX[(frm[0] - prev[0], frm[1] - prev[1])]) % 6 in ACUTE:
                return "acute_turn", []
        if cell in occupied:
            return "cell_taken", []
        arrow = ARROW_BY_APEX.get(to)
        if arrow is not None:
            if arrow.kind != "end" or cell != arrow.cell:
                return "start_cell", []
            if not arrow_allowed(s, li, arrow):
                return "end_side", []
        elif to not in VERTEX_SET or cell not in CITY_CELL_SET:
            return ("arrow_cell" if cell in ARROW_BY_CELL else "outside"), []
        elif s.cells[cell] in NO_TUNNEL:
            return "lake_park", []
    letters: list[str] = []
    if cell in CITY_CELL_SET and s.cells[cell] in SPOTS:
        if per_turn and s.turn.marker:
            return "one_marker_per_turn", []
        letters = usable_letters(s, line.player, cell)
        if not letters:
            return "marker_needed", []
    # One tunnel makes at most two stations (one at each end of its edge), so the supply
    # can run short only when fewer than two are left.
    left = STATION_SUPPLY - len(s.stations)
    if left < 2 and len(stations_made(s, li, frm, to)) > left:
        return "station_supply", []
    return None, letters


def refusal(s: State, li: int, cell: Cell, to: Vertex, rule: str) -> RuleError:
    """What a player reads for a refused tunnel."""
    line = s.lines[li]
    arrow = ARROW_BY_CELL.get(cell)
    frm = line.tip if line.vertices else (arrow.apex if arrow else to)
    kind = s.cells.get(cell, "")
    return RuleError(
        REFUSALS[rule],
        rule,
        style=Term(STYLE_WORDS[line.style]),
        max_tunnels=TUNNELS_PER_LINE,
        cell=cell_label(cell, s),
        to=vertex_name(to),
        frm=vertex_name(frm),
        arrow=arrow.name if arrow else "",
        kind=Term(KINDS[kind]) if kind in KINDS else kind,
        inner=" / ".join(vertex_name(v) for v in arrow.inner) if arrow else "",
        made=len(stations_made(s, li, frm, to)) if rule == "station_supply" else 0,
        left=s.stations_left,
    )


def _steps_from(tip: Vertex) -> tuple[tuple[Vertex, tuple[Cell, ...], Arrow | None], ...]:
    """Where a line whose tip is `tip` could dig, ignoring the state: (to, the free-able city
    cells flanking the edge, None) toward a city vertex, (apex, (), the arrow) toward an end
    arrow's apex."""
    out: list[tuple[Vertex, tuple[Cell, ...], Arrow | None]] = []
    for dq, dr in DIRS:
        w = (tip[0] + dq, tip[1] + dr)
        if in_city(w):
            out.append((w, tuple(c for c in flanks(tip, w) if c in CITY_CELL_SET), None))
        else:
            arrow = ARROW_BY_APEX.get(w)
            if arrow is not None and arrow.kind == "end":
                out.append((w, (), arrow))
    return tuple(out)


# Computed once per city vertex (a building line's tip is always one): `candidates` runs
# for every line after every step.
STEPS_FROM = {v: _steps_from(v) for v in VERTEX_SET}


def candidates(s: State, li: int) -> Iterator[tuple[Cell, Vertex]]:
    """Every (cell, to) a tunnel of line li could name, legal or not."""
    line = s.lines[li]
    if line.status == "finished":
        return
    occupied = s.occupied
    if not line.vertices:
        for arrow in ARROWS_OF_KIND["start"]:
            if arrow.cell not in occupied:
                for v in arrow.inner:
                    yield arrow.cell, v
        return
    tip = line.vertices[-1]
    index = line.index
    steps = STEPS_FROM.get(tip)
    for w, cells, arrow in steps if steps is not None else _steps_from(tip):
        if w in index:
            continue
        if arrow is None:
            for c in cells:
                if c not in occupied:
                    yield c, w
        elif arrow.cell not in occupied:
            yield arrow.cell, w


def legal_tunnels(s: State, li: int, *, per_turn: bool = True) -> Iterator[tuple[Cell, Vertex, list[str]]]:
    for cell, to in candidates(s, li):
        problem, letters = tunnel_problem(s, li, cell, to, per_turn=per_turn)
        if problem is None:
            yield cell, to, letters


def can_extend(s: State, li: int, *, per_turn: bool) -> bool:
    """Whether some tunnel of line li is legal: exactly whether `tunnel_problem` passes one
    of its `candidates` (tests/metromania/test_properties.py checks that the two agree in
    every position of seeded games).

    Every step asks this of every line (the blocked-line test), so it walks the candidates
    itself: the checks that every candidate passes by construction (a neighbour of the
    tip, not on the line, a free cell beside the edge, a city cell toward a city vertex, an
    end arrow's own cell toward its apex) are left out, and what is the same for all of
    them (the tip, its last direction, the turn's limits) is worked out once.
    """
    line = s.lines[li]
    if line.status == "finished" or len(line.cells) >= TUNNELS_PER_LINE:
        return False
    occupied = s.occupied
    left = STATION_SUPPLY - len(s.stations)  # under 2: the supply may refuse a tunnel
    verts = line.vertices
    if not verts:
        if per_turn and s.turn.started and s.turns_taken[s.current] == 0:
            return False  # first_turn_one_line
        for arrow in ARROWS_OF_KIND["start"]:
            if arrow.cell not in occupied and arrow_allowed(s, li, arrow):
                for v in arrow.inner:  # an arrow's cell is no spot: no marker to check
                    if left >= 2 or len(stations_made(s, li, arrow.apex, v)) <= left:
                        return True
        return False
    tip = verts[-1]
    index = line.index
    d_prev = None  # the last edge's direction, when an acute turn at the tip is forbidden
    if len(verts) >= 2 and tip not in s.station_set:
        prev = verts[-2]
        d_prev = DIR_INDEX[(tip[0] - prev[0], tip[1] - prev[1])]
    no_marker = per_turn and s.turn.marker
    steps = STEPS_FROM.get(tip)
    for w, cells, arrow in steps if steps is not None else _steps_from(tip):
        if w in index:
            continue
        if d_prev is not None and (DIR_INDEX[(w[0] - tip[0], w[1] - tip[1])] - d_prev) % 6 in ACUTE:
            continue  # acute_turn
        if arrow is None:
            for c in cells:
                if c in occupied:
                    continue
                kind = s.cells[c]
                if kind in NO_TUNNEL:
                    continue
                if kind in SPOTS and (no_marker or not usable_letters(s, line.player, c)):
                    continue
                if left >= 2 or len(stations_made(s, li, tip, w)) <= left:
                    return True
        elif (
            arrow.cell not in occupied
            and arrow_allowed(s, li, arrow)
            and (left >= 2 or len(stations_made(s, li, tip, w)) <= left)
        ):
            return True
    return False


# ---------------------------------------------------------------- intermediate stations
def station_spots(s: State, li: int, *, bonus: bool = False) -> list[Vertex]:
    """Vertices of line li between two of its stations (its start and end markers count)."""
    line = s.lines[li]
    if not line.vertices or (line.status == "finished" and not bonus) or s.stations_left <= 0:
        return []
    verts = line.vertices
    last = (
        len(verts) - 1
        if line.status == "finished"
        else max((k for k, v in enumerate(verts) if v in s.station_set), default=0)
    )
    return [v for v in verts[1:last] if v not in s.station_set]


def station_refusal(s: State, v: Vertex, lines: list[int]) -> RuleError:
    """Why an intermediate station may not go on `v`."""
    rule, where = "intermediate_station", vertex_name(v)
    if s.stations_left <= 0:
        return RuleError("no stations are left in the supply.", rule)
    if v in s.station_set:
        return RuleError("{vertex} already has a station.", rule, vertex=where)
    if not any(v in s.lines[li].index for li in lines):
        return RuleError(
            "{vertex} is not on one of your unfinished lines; an intermediate station goes on your own line.",
            rule,
            vertex=where,
        )
    return RuleError(
        "{vertex} is not between two stations of your line (its start counts as one); place it between "
        "your start and a station further along.",
        rule,
        vertex=where,
    )
