"""Digging rules: starting, extending, spots and markers, finishing (rules file: A turn)."""

import pytest

from metrobot.games import RuleError
from metrobot.games.metromania import GAME
from metrobot.games.metromania.board import ARROW_BY_NAME, flanks

from .helpers import V, add_station, at_turn, blank, cell, lay, refused, start, surround, tunnel


def test_start_a_line_on_a_start_arrow():
    s = at_turn(blank(hands="strict"), 0, first=True)
    s2, events = start(s, "solid", "S4", "F24")
    line = s2.lines[0]
    assert line.vertices == [ARROW_BY_NAME["S4"].apex, V("F24")]
    assert line.cells == [ARROW_BY_NAME["S4"].cell]
    assert line.status == "building"
    assert events[0]["type"] == "tunnel"
    assert s.lines[0].vertices == []  # apply never changes its input


def test_start_runs_to_one_of_the_arrow_corners():
    s = blank()
    assert refused(start, s, "solid", "S4", "G25") == "start_edge"
    assert refused(tunnel, s, "solid", "G13") == "must_start"


def test_first_turn_starts_only_one_line():
    s = at_turn(blank(), 0, first=True)
    s, _ = start(s, "solid", "S4", "F24")
    assert refused(start, s, "dashed", "S12", "B6") == "first_turn_one_line"
    s, _ = tunnel(s, "solid", "G23")
    assert s.current == 0


def test_second_line_avoids_first_lines_side_and_neighbours():
    s = lay(blank(), 0, "solid", "S4 F24 G23")  # side 0
    for arrow, first in (("S3", "D22"), ("S2", "A15"), ("S6", "L20")):  # sides 0, 1, 5
        assert refused(start, s, "dashed", arrow, first) == "start_side"
    s2, _ = start(s, "dashed", "S12", "B6")  # side 2 is fine
    assert s2.lines[1].status == "building"


def test_second_line_may_use_a_forbidden_side_when_allowed_sides_are_full():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    # Sides 2, 3 and 4 hold S12 S11 S10 S9 S8 S7: take them all.
    lay(s, 1, "solid", "S12 B6")
    lay(s, 1, "dashed", "S11 D4")
    lay(s, 2, "solid", "S10 H2")
    lay(s, 2, "dashed", "S9 J4")
    lay(s, 3, "solid", "S8 M9")
    lay(s, 3, "dashed", "S7 M13")
    s2, _ = start(s, "dashed", "S3", "D22")
    assert s2.lines[1].vertices[1] == V("D22")


def test_extend_only_from_the_end_to_a_neighbour():
    s = lay(blank(), 0, "solid", "S4 F24")
    assert refused(tunnel, s, "solid", "G13") == "not_adjacent"
    s, _ = tunnel(s, "solid", "G23")
    assert s.lines[0].tip == V("G23")


def test_acute_turn_only_at_a_station():
    s = lay(blank(), 0, "solid", "S4 F24 G23")  # arrived at G23 going down-left
    assert refused(tunnel, s, "solid", "F22") == "acute_turn"
    assert refused(tunnel, s, "solid", "G25") == "acute_turn"
    for ok in ("H22", "G21", "H24"):  # straight, and the two 120-degree bends
        tunnel(s, "solid", ok)
    add_station(s, "G23")
    s2, _ = tunnel(s, "solid", "F22")
    assert s2.lines[0].tip == V("F22")


def test_acute_refusal_names_the_vertex():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    with pytest.raises(RuleError) as info:
        tunnel(s, "solid", "F22")
    assert str(info.value) == "acute turn at G23 is only allowed at a station."


def test_line_never_touches_itself():
    s = lay(blank(), 0, "solid", "S4 F24 G23 G21 F20 E21 E23")
    assert refused(tunnel, s, "solid", "F24") == "self_touch"


def test_one_tunnel_per_cell_and_the_other_side_is_free():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    left, right = flanks(V("G23"), V("G21"))
    s.occupied[right] = 2  # p2's tunnel lies below the edge G23-G21
    assert refused(tunnel, s, "solid", "G21", "R") == "cell_taken"
    s2, _ = tunnel(s, "solid", "G21", "L")
    assert s2.lines[0].cells[-1] == left


def test_lake_and_park_take_no_tunnel():
    for kind in ("lake", "park"):
        s = lay(blank(), 0, "solid", "S4 F24 G23")
        s.cells = dict(s.cells)
        s.cells[cell("G23", "G21", "L")] = kind
        assert refused(tunnel, s, "solid", "G21", "L") == "lake_park"
        tunnel(s, "solid", "G21", "R")


def test_spot_needs_a_marker_of_its_type():
    s = lay(blank(hands="strict"), 0, "solid", "S4 F24 G23")  # p1 holds A-res B-com C-ent
    s.cells = dict(s.cells)
    spot = cell("G23", "G21", "L")
    s.cells[spot] = "res"
    s2, events = tunnel(s, "solid", "G21", "L")  # the only res marker is dropped
    assert events[0]["marker"] == "A"
    placed = [m for m in s2.markers if m.cell == spot]
    assert [(m.letter, m.kind, m.holder) for m in placed] == [("A", "res", "p1")]
    assert refused(tunnel, s, "solid", "G21", "L", "B") == "marker_choice"
    # without a res marker left, the spot is closed to this player
    s3 = lay(blank(hands="strict"), 0, "solid", "S4 F24 G23")
    s3.cells = dict(s3.cells)
    s3.cells[spot] = "res"
    for m in s3.markers:
        if m.holder == "p1" and m.kind == "res":
            m.cell = next(c for c, k in s3.cells.items() if k == "blank")
    assert refused(tunnel, s3, "solid", "G21", "L") == "marker_needed"


def test_one_marker_per_turn():
    s = lay(blank(hands="strict"), 0, "solid", "S4 F24 G23")
    s.cells = dict(s.cells)
    s.cells[cell("G23", "G21", "L")] = "res"
    s.cells[cell("G21", "G19", "L")] = "com"
    s, _ = tunnel(s, "solid", "G21", "L")
    assert refused(tunnel, s, "solid", "G19", "L") == "one_marker_per_turn"
    s2, _ = tunnel(s, "solid", "G19", "R")
    assert s2.turn.tunnels == 2


def test_markers_of_one_letter_never_touch():
    s = lay(blank(hands="strict"), 0, "solid", "S4 F24 G23")  # p1: A-res
    s.cells = dict(s.cells)
    spot = cell("G23", "G21", "L")
    s.cells[spot] = "res"
    twin_cell = cell("G21", "F20", "L")  # touches the spot at G21
    s.cells[twin_cell] = "com"
    for m in s.markers:
        if m.letter == "A" and m.kind == "com":  # p2's A-com, placed next door
            m.cell = twin_cell
    assert refused(tunnel, s, "solid", "G21", "L") == "marker_needed"


def test_start_and_end_cells_only_start_or_finish():
    s = lay(blank(), 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 H20 H22 G23 F24")
    # F24 -> E23 runs along the boundary: its outer flank is the S4 start arrow
    outer = ARROW_BY_NAME["S4"].cell
    assert outer in flanks(V("F24"), V("E23"))
    s.occupied[next(c for c in flanks(V("F24"), V("E23")) if c != outer)] = 5
    assert (
        refused(GAME.apply, s, "p1", {"type": "tunnel", "line": "solid", "cell": list(outer), "to": list(V("E23"))})
        == "arrow_cell"
    )


def test_finish_on_an_end_arrow():
    s = lay(blank(), 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 H20 H22 G23 F24 E23")
    s2, events = tunnel(s, "solid", "T4")
    assert s2.lines[0].status == "finished"
    assert s2.lines[0].tip == ARROW_BY_NAME["T4"].apex
    assert any(e["type"] == "line_finished" for e in events)


def test_finish_avoids_start_side_and_neighbours():
    s = lay(blank(), 0, "solid", "S4 F24 E23")  # starts on side 0; T4 is on side 0
    assert refused(tunnel, s, "solid", "T4") == "end_side"


def test_finish_on_forbidden_side_when_allowed_end_arrows_are_taken():
    s = lay(blank(), 0, "solid", "S4 F24 E23")
    # allowed sides 2, 3, 4: T12 T11 T10 T9 T8 T7
    for i, name in enumerate(("T12", "T11", "T10", "T9", "T8", "T7")):
        s.occupied[ARROW_BY_NAME[name].cell] = 2 + i
    s2, _ = tunnel(s, "solid", "T4")
    assert s2.lines[0].status == "finished"


def test_eighteen_tunnels_at_most():
    path = "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 H20 I21 J20 J18 J16 J14 J12 J10 J8"
    s = lay(blank(), 0, "solid", path)
    assert len(s.lines[0].cells) == 18
    assert refused(tunnel, s, "solid", "J6") == "no_tunnels"


def test_tunnel_needing_more_stations_than_remain_is_illegal():
    s = lay(blank(), 1, "solid", "S10 H2 H4 H6 H8 H10 H12")
    lay(s, 0, "solid", "S9 J4 I5 H6 H8/R")
    lay(s, 2, "solid", "S8 M9 L10 K11 J10 I9")
    for name in (
        ["H6"]
        + [f"A{c}" for c in (7, 9, 11, 13, 15, 17, 19)]
        + [f"B{c}" for c in range(6, 21, 2)]
        + [f"C{c}" for c in range(5, 22, 2)]
        + ["D4", "D6", "D8", "D10"]
    ):
        add_station(s, name)
    assert s.stations_left == 1
    # H8 -> I9 splits from p2 at H8 and meets p3 at I9: two stations, one left
    assert refused(tunnel, s, "solid", "I9") == "station_supply"
    tunnel(s, "solid", "H10", "R")  # alongside: no station needed


def test_legal_actions_match_apply():
    s = lay(blank(hands="strict"), 0, "solid", "S4 F24 G23")
    s.cells = dict(s.cells)
    s.cells[cell("G23", "G21", "L")] = "res"
    actions = GAME.legal_actions(s, "p1")
    assert actions and not GAME.legal_actions(s, "p2")
    for a in actions:
        GAME.apply(s, "p1", a)  # every listed action is accepted
    tunnels = [a for a in actions if a["type"] == "tunnel" and a["line"] == "solid"]
    assert {tuple(a["to"]) for a in tunnels} == {V("H22"), V("G21"), V("H24")}
    assert any(a.get("marker") == "A" for a in tunnels)


def test_blocked_start_is_surrounded():
    s = lay(blank(), 0, "solid", "S4 F24")
    surround(s, "F24")
    s = at_turn(s, 1)
    s2, _ = start(s, "solid", "S12", "B6")
    assert s2.lines[0].status == "blocked"
