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
    Arrow,
    Cell,
    Vertex,
    corners,
    direction,
    flanks,
    in_city,
    side_distance,
    turn,
    vertex_name,
)
from .state import STATION_SUPPLY, TUNNELS_PER_LINE, State

SPOTS = frozenset(("res", "com", "ent"))
NO_TUNNEL = frozenset(("lake", "park"))


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
    """Vertices that get a station if line li digs frm -> to (the meet/split rule)."""
    made: list[Vertex] = []
    line = s.lines[li]
    for v, _other in ((frm, to), (to, frm)):
        if v in s.station_set or not in_city(v):
            continue
        if v == frm:
            mine = frozenset((line.vertices[-2], to)) if len(line.vertices) >= 2 else frozenset((to,))
        else:
            mine = frozenset((frm,))
        for j, other_line in enumerate(s.lines):
            if j != li and v in other_line.index and not merged(mine, other_line.edges_at(v)):
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
    placed = {m.letter: m.cell for m in s.markers if m.cell is not None}
    out: list[str] = []
    for m in s.markers:
        if m.holder == player and m.cell is None and m.kind == kind:
            twin = placed.get(m.letter)
            if twin is None or twin not in TOUCHING[cell]:
                out.append(m.letter)
    return sorted(out)


# ---------------------------------------------------------------- tunnels
def allowed_arrows(s: State, li: int, kind: str) -> list[Arrow]:
    """Free arrows of `kind` this line may use, honouring the side rule.

    Starting the second line and finishing a line both avoid the first line's (or this
    line's) start side and its two neighbours, unless every arrow on the allowed sides
    is taken.
    """
    line = s.lines[li]
    if kind == "start":
        sibling = s.lines[li ^ 1]
        avoid = sibling.start_side
    else:
        avoid = line.start_side
    free = [a for a in ARROWS if a.kind == kind and a.cell not in s.occupied]
    if avoid is None:
        return free
    preferred = [a for a in free if side_distance(a.side, avoid) >= 2]
    return preferred or free


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
    "start_cell": N_("start arrows take a tunnel only to start a line."),
    "end_side": N_(
        "a line may not end on its start side or a side next to it while an end arrow on another side is free."
    ),
    "outside": N_("tunnels stay in the city; {to} or {cell} is outside it."),
    "arrow_cell": N_("arrows take a tunnel only to start or finish a line; use the city cell on the other side."),
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
    """
    line = s.lines[li]
    if line.status == "finished":
        return "line_finished", []
    if len(line.cells) >= TUNNELS_PER_LINE:
        return "no_tunnels", []
    if not line.vertices:
        arrow = ARROW_BY_CELL.get(cell)
        if arrow is None or arrow.kind != "start":
            return "must_start", []
        if to not in arrow.inner:
            return "start_edge", []
        if per_turn and s.turn.started and s.turns_taken[s.current] == 0:
            return "first_turn_one_line", []
        if cell in s.occupied:
            return "cell_taken", []
        if arrow not in allowed_arrows(s, li, "start"):
            return "start_side", []
        frm = arrow.apex
    else:
        frm = line.tip
        if to in line.index:
            return "self_touch", []
        d_new = DIR_INDEX.get((to[0] - frm[0], to[1] - frm[1]))
        if d_new is None:
            return "not_adjacent", []
        if cell not in flanks(frm, to):
            return "cell_not_flank", []
        if len(line.vertices) >= 2 and turn(direction(line.vertices[-2], frm), d_new) == 2 and frm not in s.station_set:
            return "acute_turn", []
        if cell in s.occupied:
            return "cell_taken", []
        arrow = ARROW_BY_APEX.get(to)
        if arrow is not None:
            if arrow.kind != "end" or cell != arrow.cell:
                return "start_cell", []
            if arrow not in allowed_arrows(s, li, "end"):
                return "end_side", []
        elif not in_city(to) or cell not in CITY_CELL_SET:
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
    if len(stations_made(s, li, frm, to)) > STATION_SUPPLY - len(s.stations):
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


def candidates(s: State, li: int) -> Iterator[tuple[Cell, Vertex]]:
    """Every (cell, to) a tunnel of line li could name, legal or not."""
    line = s.lines[li]
    if line.status == "finished":
        return
    if not line.vertices:
        for arrow in ARROWS:
            if arrow.kind == "start" and arrow.cell not in s.occupied:
                for v in arrow.inner:
                    yield arrow.cell, v
        return
    tip = line.tip
    for dq, dr in DIRS:
        w = (tip[0] + dq, tip[1] + dr)
        if w in line.index:
            continue
        if in_city(w):
            for c in flanks(tip, w):
                if c in CITY_CELL_SET and c not in s.occupied:
                    yield c, w
        else:
            arrow = ARROW_BY_APEX.get(w)
            if arrow is not None and arrow.kind == "end" and arrow.cell not in s.occupied:
                yield arrow.cell, w


def legal_tunnels(s: State, li: int, *, per_turn: bool = True) -> Iterator[tuple[Cell, Vertex, list[str]]]:
    for cell, to in candidates(s, li):
        problem, letters = tunnel_problem(s, li, cell, to, per_turn=per_turn)
        if problem is None:
            yield cell, to, letters


def can_extend(s: State, li: int, *, per_turn: bool) -> bool:
    return next(legal_tunnels(s, li, per_turn=per_turn), None) is not None


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
