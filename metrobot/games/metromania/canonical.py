"""The canonical JSON of a MetrOmania state: `to_json` writes it, `from_json` reads it back
and checks that it is consistent.

The JSON (keys documented in docs/developers/contracts.md) is a contract read
by the CLI tools, the renderer and tests: `game`, `seed`, `phase`, `players`, `board`,
`lines`, `stations`, `markers`, `scores`, and when finished `breakdown`, `trips`,
`winners`. Everything else (`rng`, `turn`, `current`, ...) is extra bookkeeping that makes
the JSON a complete state. Kept apart from the state's classes (`state.py`): the checks of
JSON from storage or the CLI are most of it, and the rules never need them.
"""

from __future__ import annotations

from typing import Any, cast

from ..protocol import BadInput, is_list, is_object
from .board import (
    ARROW_BY_APEX,
    ARROW_BY_CELL,
    ARROWS,
    CITY_CELL_SET,
    CITY_CELLS,
    DIR_INDEX,
    Cell,
    N,
    Vertex,
    flanks,
    in_city,
)
from .markers import MARKER_SET
from .state import CELL_KINDS, PHASES, STATION_SUPPLY, STATUSES, STYLES, TUNNELS_PER_LINE, Line, Marker, State, Turn


def _cell_json(c: Cell) -> list[Any]:
    return [c[0], c[1], c[2]]


_FRAME_JSON = [
    {"q": a.cell[0], "r": a.cell[1], "up": a.cell[2], "kind": a.kind, "side": a.side, "pos": a.pos, "name": a.name}
    for a in ARROWS
]


def _board_json(cells: dict[Cell, str]) -> dict[str, Any]:
    return {
        "n": N,
        "cells": [{"q": c[0], "r": c[1], "up": c[2], "kind": cells[c]} for c in CITY_CELLS],
        "frame": [dict(f) for f in _FRAME_JSON],
    }


def to_json(s: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "metromania",
        "seed": s.seed,
        "phase": s.phase,
        "players": list(s.players),
        "board": _board_json(s.cells),
        "lines": [
            {
                "player": l.player,
                "style": l.style,
                "vertices": [list(v) for v in l.vertices],
                "cells": [_cell_json(c) for c in l.cells],
                "status": l.status,
            }
            for l in s.lines
        ],
        "stations": [list(v) for v in s.stations],
        "markers": [
            {"letter": m.letter, "kind": m.kind, "holder": m.holder, "cell": _cell_json(m.cell) if m.cell else None}
            for m in s.markers
        ],
        "scores": dict(s.scores),
        # Extra keys: everything else a complete state needs.
        "options": dict(s.options),
        "rng": s.rng,
        "current": s.current,
        "turn": {
            "tunnels": s.turn.tunnels,
            "marker": s.turn.marker,
            "started": s.turn.started,
            "bonus": s.turn.bonus,
            "ending": s.turn.ending,
            "record": s.turn.record,
        },
        "turns_taken": list(s.turns_taken),
        "last_round": list(s.remaining),
        "trigger": s.trigger,
        "last_turn": s.last_turn,
        "stations_left": s.stations_left,
    }
    if s.layout is not None:
        out["board"]["layout"] = [dict(p) for p in s.layout]
    if any(k != v for k, v in s.owners.items()):
        out["owners"] = dict(s.owners)
    if s.result is not None:
        out.update(s.result)
    return out


def _req(cond: bool, msg: str) -> None:
    if not cond:
        raise BadInput(msg)


def _vertex(x: Any, what: str) -> Vertex:
    # The common case first, without building a message: this runs for every vertex of every
    # line on every load of a game.
    if type(x) is list:
        v = cast("list[Any]", x)
        if len(v) == 2 and type(v[0]) is int and type(v[1]) is int:
            return (v[0], v[1])
    return _checked_vertex(x, what)


def _checked_vertex(x: Any, what: str) -> Vertex:
    if not (is_list(x) and len(x) == 2 and all(isinstance(i, int) and not isinstance(i, bool) for i in x)):
        raise BadInput(f"{what} must be [q, r] integers, got {x!r}")
    return (x[0], x[1])


def _cell(x: Any, what: str) -> Cell:
    if type(x) is list:
        v = cast("list[Any]", x)
        if len(v) == 3 and type(v[0]) is int and type(v[1]) is int and type(v[2]) is bool:
            return (v[0], v[1], v[2])
    return _checked_cell(x, what)


def _checked_cell(x: Any, what: str) -> Cell:
    if not (is_list(x) and len(x) == 3 and isinstance(x[0], int) and isinstance(x[1], int) and isinstance(x[2], bool)):
        raise BadInput(f"{what} must be [q, r, up], got {x!r}")
    return (x[0], x[1], x[2])


_CELL_KIND_SET = frozenset(CELL_KINDS)


def _well_formed_cells(raw_cells: list[Any]) -> dict[Cell, str] | None:
    """The board's cells when they are what the engine writes (every city cell once, each an
    object with q, r, up (a bool) and a known kind), else None: then `_checked_cells` says
    what is wrong. The common case in one comprehension and set comparisons, because every
    load of a game (each automatic player's decision) reads the 216 cells."""
    try:
        cells: dict[Cell, str] = {(rc["q"], rc["r"], rc["up"]): rc["kind"] for rc in raw_cells}
        if (
            len(cells) != len(raw_cells)
            or cells.keys() != CITY_CELL_SET
            or not _CELL_KIND_SET.issuperset(cells.values())
            or {type(c[2]) for c in cells} != {bool}
        ):
            return None
    except (TypeError, KeyError, AttributeError):  # not an object, a key missing, an unhashable value
        return None
    return cells


def _checked_cells(raw_cells: list[Any]) -> dict[Cell, str]:
    """The board's cells, or BadInput saying which one is wrong."""
    cells: dict[Cell, str] = {}
    for rc in raw_cells:
        if not is_object(rc):
            raise BadInput("every board cell must be an object")
        c = (rc.get("q"), rc.get("r"), rc.get("up"))
        if c not in CITY_CELL_SET or not isinstance(c[2], bool) or c in cells:
            c = _cell(list(c), "board cell")
            if c not in CITY_CELL_SET:
                raise BadInput(f"board cell {list(c)} is not a city cell")
            raise BadInput(f"board cell {list(c)} appears twice")
        if rc.get("kind") not in CELL_KINDS:
            raise BadInput(f"board cell {list(c)} has unknown kind {rc.get('kind')!r}")
        cells[cast(Cell, c)] = rc["kind"]  # a city cell: checked just above
    if len(cells) != len(CITY_CELLS):
        raise BadInput(f"board.cells must list all {len(CITY_CELLS)} city cells, got {len(cells)}")
    return cells


def from_json(data: Any) -> State:
    """Rebuild a state from canonical JSON, checking that it is consistent.

    Only the canonical keys are required: a hand-made finished board (for `score`) needs no
    turn bookkeeping. Raises BadInput with a one-line reason on anything malformed.
    """
    _req(is_object(data), "a MetrOmania state must be a JSON object")
    if not (data.get("game") == "metromania"):
        raise BadInput(f"not a MetrOmania state (game = {data.get('game')!r})")
    players = data.get("players")
    _req(
        is_list(players)
        and 2 <= len(players) <= 4
        and all(isinstance(p, str) and p for p in players)
        and len(set(players)) == len(players),
        "players must be 2-4 distinct non-empty ids",
    )
    phase = data.get("phase", "building")
    if phase not in PHASES:
        raise BadInput(f"phase must be one of {', '.join(PHASES)}")
    seed = data.get("seed", 0)
    _req(isinstance(seed, int), "seed must be an integer")

    board = data.get("board")
    if not (is_object(board) and board.get("n") == N):
        raise BadInput(f"board must be an object with n = {N}")
    raw_cells = board.get("cells")
    if not is_list(raw_cells):
        raise BadInput("board.cells must be a list")
    cells = _well_formed_cells(raw_cells)
    if cells is None:
        cells = _checked_cells(raw_cells)
    frame = board.get("frame")
    if not (is_list(frame) and len(frame) == len(ARROWS)):
        raise BadInput(f"board.frame must list the {len(ARROWS)} arrow cells")
    # The frame the engine writes (equal, and its coordinates of exactly the types a cell
    # has) needs no entry-by-entry check.
    well_formed = frame == _FRAME_JSON and all(
        type(rf["q"]) is int and type(rf["r"]) is int and type(rf["up"]) is bool for rf in frame
    )
    for rf in () if well_formed else frame:
        _req(is_object(rf), "every frame entry must be an object")
        c = _cell([rf.get("q"), rf.get("r"), rf.get("up")], "frame cell")
        arrow = ARROW_BY_CELL.get(c)
        if arrow is None or arrow.kind != rf.get("kind") or arrow.side != rf.get("side") or arrow.pos != rf.get("pos"):
            raise BadInput(f"frame entry {list(c)} does not match the fixed frame")

    owners = data.get("owners") or {p: p for p in players}
    _req(is_object(owners) and set(owners) == set(players), "owners must map every player to a person")

    raw_lines = data.get("lines")
    if not (is_list(raw_lines) and len(raw_lines) == 2 * len(players)):
        raise BadInput(f"lines must hold {2 * len(players)} entries (two per player)")
    lines: list[Line] = []
    occupied: dict[Cell, int] = {}
    for i, rl in enumerate(raw_lines):
        _req(is_object(rl), "every line must be an object")
        player, style = players[i // 2], STYLES[i % 2]
        if not (rl.get("player") == player and rl.get("style") == style):
            raise BadInput(f"line {i} must be {player}'s {style} line (lines go in seat order, solid then dashed)")
        vertex, cell = f"line {i} vertex", f"line {i} cell"  # once per line, not per vertex
        verts = [_vertex(v, vertex) for v in rl.get("vertices") or ()]
        lcells = [_cell(c, cell) for c in rl.get("cells") or ()]
        status = rl.get("status", "unstarted")
        if status not in STATUSES:
            raise BadInput(f"line {i} status must be one of {', '.join(STATUSES)}")
        line = Line(player, style, verts, lcells, status)
        _check_line(i, line)
        for c in lcells:
            if c in occupied:
                raise BadInput(f"cell {list(c)} holds two tunnels")
            occupied[c] = i
        line.index = {v: k for k, v in enumerate(verts)}
        lines.append(line)

    stations = [_vertex(v, "station") for v in data.get("stations") or ()]
    _req(len(set(stations)) == len(stations), "a vertex holds two stations")
    if len(stations) > STATION_SUPPLY:
        raise BadInput(f"at most {STATION_SUPPLY} stations exist")
    for v in stations:
        if not in_city(v):
            raise BadInput(f"station {list(v)} is outside the city")

    raw_markers = data.get("markers")
    _req(is_list(raw_markers) and len(raw_markers) == 12, "markers must list all 12 destination markers")
    markers: list[Marker] = []
    seen: set[tuple[str, str]] = set()
    for rm in raw_markers:
        _req(is_object(rm), "every marker must be an object")
        letter, kind, holder = rm.get("letter"), rm.get("kind"), rm.get("holder")
        if not (kind in MARKER_SET and letter in MARKER_SET[kind]):
            raise BadInput(f"there is no {kind}-{letter} marker")
        if (letter, kind) in seen:
            raise BadInput(f"marker {letter}-{kind} appears twice")
        seen.add((letter, kind))
        if holder not in players:
            raise BadInput(f"marker {letter}-{kind} holder {holder!r} is not a player")
        cell = None if rm.get("cell") is None else _cell(rm["cell"], f"marker {letter}-{kind} cell")
        if cell is not None and cells.get(cell) != kind:
            raise BadInput(f"marker {letter}-{kind} lies on a cell that is not a {kind} spot")
        markers.append(Marker(letter, kind, holder, cell))

    scores: Any = data.get("scores") or {}
    _req(
        is_object(scores) and set(scores) <= set(players) and all(isinstance(v, int) for v in scores.values()),
        "scores must map player ids to integers",
    )
    scores = {p: scores.get(p, 0) for p in players}

    turn_data: Any = data.get("turn") or {}
    turn = Turn(
        turn_data.get("tunnels", 0),
        turn_data.get("marker", False),
        turn_data.get("started", False),
        turn_data.get("bonus"),
        turn_data.get("ending", False),
        turn_data.get("record") or {"tunnels": [], "stations": [], "markers": []},
    )
    current = data.get("current", 0)
    _req(isinstance(current, int) and 0 <= current < len(players), "current must be a seat index")
    result = None
    if phase == "finished" and "breakdown" in data:
        result = {k: data[k] for k in ("breakdown", "trips", "winners") if k in data}
    layout = board.get("layout")
    return State(
        seed=seed,
        rng=data.get("rng", 0),
        options=dict(data.get("options") or {}),
        players=list(players),
        owners=dict(owners),
        layout=layout,
        cells=cells,
        lines=lines,
        stations=stations,
        markers=markers,
        scores=scores,
        phase=phase,
        current=current,
        turn=turn,
        turns_taken=list(data.get("turns_taken") or [0] * len(players)),
        remaining=list(data.get("last_round") or []),
        trigger=data.get("trigger"),
        last_turn=data.get("last_turn"),
        result=result,
        occupied=occupied,
        station_set=set(stations),
    )


def _check_line(i: int, line: Line) -> None:
    verts, cells = line.vertices, line.cells
    if not verts:
        if cells or line.status not in ("unstarted", "blocked"):
            raise BadInput(f"line {i} has no vertices but is {line.status}")
        return
    if not (len(cells) == len(verts) - 1):
        raise BadInput(f"line {i} needs one cell per edge ({len(verts) - 1}), got {len(cells)}")
    if not (len(cells) <= TUNNELS_PER_LINE):
        raise BadInput(f"line {i} has more than {TUNNELS_PER_LINE} tunnels")
    if not (len(set(verts)) == len(verts)):
        raise BadInput(f"line {i} visits a vertex twice")
    start = ARROW_BY_APEX.get(verts[0])
    if not (start is not None and start.kind == "start" and cells[0] == start.cell):
        raise BadInput(f"line {i} must begin at a start arrow's outer apex on that arrow's cell")
    for k in range(1, len(verts)):
        a, b = verts[k - 1], verts[k]
        if (b[0] - a[0], b[1] - a[1]) not in DIR_INDEX:
            raise BadInput(f"line {i}: {list(a)} and {list(b)} are not neighbours")
        if cells[k - 1] not in flanks(a, b):
            raise BadInput(f"line {i}: cell {list(cells[k - 1])} does not flank edge {k - 1}")
    finished = line.status == "finished"
    # Between the start arrow and (if finished) the end arrow, a line stays in the city.
    for k in range(1, len(cells) - (1 if finished else 0)):
        if cells[k] not in CITY_CELL_SET:
            raise BadInput(f"line {i}: tunnel {k} is not on a city cell")
    for v in verts[1 : len(verts) - (1 if finished else 0)]:
        if not in_city(v):
            raise BadInput(f"line {i} leaves the city at {list(v)}")
    if line.status == "finished":
        end = ARROW_BY_APEX.get(verts[-1])
        if not (end is not None and end.kind == "end" and cells[-1] == end.cell):
            raise BadInput(f"line {i} is finished but does not end on an end arrow")
