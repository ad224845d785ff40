"""Hand-built MetrOmania positions for rule tests.

Vertices are written as players see them (`G13`, arrows `S4`, `T3`); a cell is named by
the edge it flanks and the side: `cell("G13", "G15", "L")` is the cell left of travelling
G13 -> G15 on the picture.
"""

from __future__ import annotations

from metrobot.games.metromania import GAME
from metrobot.games.metromania.board import ARROW_BY_NAME, CITY_CELLS, flanks, parse_vertex
from metrobot.games.metromania.state import State, Turn


def V(name: str):
    v = parse_vertex(name)
    assert v is not None, name
    return v


def cell(a: str, b: str, side: str = "L"):
    left, right = flanks(V(a), V(b))
    return left if side == "L" else right


def blank(n: int = 4, **options) -> State:
    """A game whose city is all blank cells, p1 to move in a fresh (not first) turn."""
    options.setdefault("first_player", "p1")
    s = GAME.new_game([f"p{i + 1}" for i in range(n)], options, seed=1)
    s.cells = dict.fromkeys(CITY_CELLS, "blank")
    return at_turn(s, 0)


def at_turn(s: State, seat: int, *, first: bool = False) -> State:
    s.current = seat
    s.turn = Turn()
    s.turns_taken[seat] = 0 if first else max(1, s.turns_taken[seat])
    return s


def lay(s: State, seat: int, style: str, path: str, *, status: str | None = None) -> State:
    """Put a line on the board directly: 'S4 F24 G23 G21/R ... [T#]'.

    A vertex may carry /L or /R to pick the cell on that side of the edge arriving
    there; by default the left cell, or the right one when the left is not free.
    """
    li = s.line_of(seat, style)
    line = s.lines[li]
    tokens = path.split()
    arrow = ARROW_BY_NAME[tokens[0]]
    line.vertices = [arrow.apex, V(tokens[1])]
    line.cells = [arrow.cell]
    for tok in tokens[2:]:
        name, _, side = tok.partition("/")
        frm = line.vertices[-1]
        if name in ARROW_BY_NAME:
            end = ARROW_BY_NAME[name]
            to, c = end.apex, end.cell
        else:
            to = V(name)
            left, right = flanks(frm, to)
            if side:
                c = left if side == "L" else right
            else:
                c = left if left in s.cells and left not in s.occupied and left not in line.cells else right
        line.vertices.append(to)
        line.cells.append(c)
    line.index = {v: i for i, v in enumerate(line.vertices)}
    for c in line.cells:
        assert c not in s.occupied, f"cell {c} already used"
        s.occupied[c] = li
    line.status = status or ("finished" if tokens[-1].startswith("T") else "building")
    return s


def add_station(s: State, name: str) -> State:
    v = V(name)
    s.stations.append(v)
    s.station_set.add(v)
    return s


def tunnel(s: State, style: str, to: str, side: str | None = None, marker: str | None = None, *, player=None):
    """Apply a tunnel step for the seat to move; side picks the flank when both are free."""
    seat = s.current
    player = player or s.players[seat]
    line = s.lines[s.line_of(seat, style)]
    assert not (to in ARROW_BY_NAME and ARROW_BY_NAME[to].kind == "start"), "use start() for start arrows"
    if to in ARROW_BY_NAME:
        arrow = ARROW_BY_NAME[to]
        action = {"type": "tunnel", "line": style, "cell": list(arrow.cell), "to": list(arrow.apex)}
    else:
        frm = line.vertices[-1] if line.vertices else (V(to)[0] + 1, V(to)[1])
        try:
            left, right = flanks(frm, V(to))
        except KeyError:  # not neighbours: any cell will do, the engine refuses the step
            left = right = (V(to)[0], V(to)[1], True)
        if side is None:  # the free flank, left first
            side = "L" if left in s.cells and left not in s.occupied else "R"
        c = right if side == "R" else left
        action = {"type": "tunnel", "line": style, "cell": list(c), "to": list(V(to))}
    if marker:
        action["marker"] = marker
    return GAME.apply(s, player, action)


def start(s: State, style: str, arrow: str, first: str):
    a = ARROW_BY_NAME[arrow]
    action = {"type": "tunnel", "line": style, "cell": list(a.cell), "to": list(V(first))}
    return GAME.apply(s, s.players[s.current], action)


def surround(s: State, name: str, owner: int = 7) -> State:
    """Mark every free city cell around a vertex as holding a tunnel of line `owner`."""
    from metrobot.games.metromania.board import CELLS_AT

    for c in CELLS_AT[V(name)]:
        s.occupied.setdefault(c, owner)
    return s


def refused(fn, *args, **kwargs) -> str:
    """Run a step that must be refused; return the rule id."""
    import pytest

    from metrobot.games import RuleError

    with pytest.raises(RuleError) as info:
        fn(*args, **kwargs)
    return info.value.rule


def route(s: State, seat: int, style: str, path: str, *, status: str = "building") -> State:
    """A stretch of line for scoring tests: just the vertices (scoring needs nothing else)."""
    li = s.line_of(seat, style)
    line = s.lines[li]
    line.vertices = [V(n) for n in path.split()]
    line.cells = []
    for a, b in zip(line.vertices, line.vertices[1:]):
        left, right = flanks(a, b)
        c = left if left not in s.occupied else right
        line.cells.append(c)
        s.occupied[c] = li
    line.index = {v: i for i, v in enumerate(line.vertices)}
    line.status = status
    return s


def stations(s: State, names: str) -> State:
    for n in names.split():
        add_station(s, n)
    return s


def place(s: State, letter: str, kind: str, holder: str, corners: str | None) -> State:
    """Put a destination marker (held by `holder`) on the cell with these corners, or keep it in hand."""
    from metrobot.games.metromania.board import cell_of

    for m in s.markers:
        if m.letter == letter and m.kind == kind:
            m.holder = holder
            if corners:
                m.cell = cell_of(*(V(n) for n in corners.split()))
                s.cells = dict(s.cells)
                s.cells[m.cell] = kind
            return s
    raise AssertionError(f"no marker {letter}-{kind}")
