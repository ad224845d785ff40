"""MetrOmania in the conformance suite (tests/conformance): its rules' invariants after every
step of every random game the suite plays (every variant, 2 to 4 players)."""

from metrobot.games.metromania.board import ARROW_BY_CELL, CITY_CELL_SET, TOUCHING, direction, turn
from metrobot.games.metromania.rules import merged
from metrobot.games.metromania.state import STATION_SUPPLY, TUNNELS_PER_LINE

SECRETS = "the destination markers another person still holds (hidden hands), and the generator"


def each(before, seat, action, after, events):
    check_invariants(after)


def check_invariants(s):
    assert len(s.stations) <= STATION_SUPPLY
    assert len(set(s.stations)) == len(s.stations)
    seen_cells = set()
    for line in s.lines:
        assert len(line.cells) <= TUNNELS_PER_LINE
        assert len(set(line.vertices)) == len(line.vertices)  # never loops or touches itself
        for k, c in enumerate(line.cells):
            assert c not in seen_cells, "one tunnel per cell"
            seen_cells.add(c)
            if c in ARROW_BY_CELL:
                assert (k == 0 and ARROW_BY_CELL[c].kind == "start") or (
                    k == len(line.cells) - 1 and ARROW_BY_CELL[c].kind == "end"
                )
            else:
                assert c in CITY_CELL_SET and s.cells[c] not in ("lake", "park")
        for k in range(1, len(line.vertices) - 1):
            a = direction(line.vertices[k - 1], line.vertices[k])
            b = direction(line.vertices[k], line.vertices[k + 1])
            if turn(a, b) == 2:
                assert line.vertices[k] in s.station_set, "acute turn only at a station"
        if line.status == "finished":
            assert ARROW_BY_CELL[line.cells[-1]].kind == "end"
    assert set(s.occupied) == seen_cells
    # every required station is present: wherever two lines meet or split
    on = {}
    for line in s.lines:
        for v in line.vertices:
            on.setdefault(v, []).append(line)
    for v, lines in on.items():
        if len(lines) < 2 or v in s.station_set:
            continue
        for i, x in enumerate(lines):
            for y in lines[i + 1 :]:
                assert merged(x.edges_at(v), y.edges_at(v)), f"missing station at {v}"
    placed = {}
    for m in s.markers:
        if m.cell is not None:
            assert s.cells[m.cell] == m.kind, "markers only on matching spots"
            assert m.cell in s.occupied, "a marker is dropped with the tunnel on its spot"
            placed.setdefault(m.letter, []).append(m.cell)
    for cells in placed.values():
        if len(cells) == 2:
            assert cells[1] not in TOUCHING[cells[0]], "markers of one letter never touch"
    spots = [c for c, k in s.cells.items() if k in ("res", "com", "ent")]
    assert all(c in s.occupied or not any(m.cell == c for m in s.markers) for c in spots)
    if s.phase == "finished":
        assert s.result and s.result["winners"]
