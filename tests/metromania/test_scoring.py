"""The scoring phase: line adjustment, test trips, park-lake, 2-player rules, winners."""

from metrobot.games.metromania.board import CELLS_AT
from metrobot.games.metromania.scoring import score

from .helpers import V, blank, place, route, stations

RED, GREEN, ORANGE, BLUE = 0, 1, 2, 3


def _trip(result, name):
    return next(t for t in result["trips"] if t["name"] == name)


def _park_all_markers(s):
    """Everyone keeps their markers unless a test places them."""
    for m in s.markers:
        m.cell = None
    return s


def worked_examples_board():
    """One city holding the rule books' three worked examples (red p1, green p2, orange p3, blue p4)."""
    s = _park_all_markers(blank(4))
    # Trip E-E: red G13-G17 in 1 minute, green in 2, red+orange in 6.
    route(s, RED, "solid", "G9 G11 G13 G15 G17")
    route(s, GREEN, "solid", "G13 F14 F16 G17")
    route(s, ORANGE, "solid", "G9 H10 I11 I13 I15 H16 G17")
    stations(s, "G9 G13 G17 F16 I13")
    place(s, "E", "com", "p1", "G13 H12 H14")
    place(s, "E", "ent", "p4", "G17 H16 H18")
    # Trip D-D: blue solid + green = 6 minutes, blue dashed + orange = 6 minutes.
    route(s, BLUE, "solid", "C9 C11 C13")
    route(s, GREEN, "dashed", "C13 C15 C17")
    route(s, BLUE, "dashed", "C9 D10 E11")
    route(s, ORANGE, "dashed", "E11 E13 E15 D16 C17")
    stations(s, "C9 C11 C13 C17 E11 E15")
    place(s, "D", "res", "p4", "C9 B8 B10")
    place(s, "D", "com", "p2", "C17 B16 B18")
    # Trip C-C: orange dropped the ent marker where no station touches it.
    place(s, "C", "ent", "p3", "K13 K15 L14")
    place(s, "C", "res", "p1", "G9 F8 F10")
    return s


def test_worked_example_trip_e():
    result = score(worked_examples_board())
    assert _trip(result, "E") == {"name": "E", "minutes": 1, "impossible": False, "points": {"p1": 6}}


def test_worked_example_trip_d():
    result = score(worked_examples_board())
    assert _trip(result, "D") == {"name": "D", "minutes": 6, "impossible": False, "points": {"p2": 6, "p3": 3, "p4": 6}}


def test_worked_example_trip_c():
    result = score(worked_examples_board())
    assert _trip(result, "C") == {"name": "C", "minutes": None, "impossible": True, "points": {"p3": -6}}


def test_unplaced_markers_cost_their_holders():
    s = worked_examples_board()
    holders = {m.holder for m in s.markers if m.letter == "A"}
    result = score(s)
    a = _trip(result, "A")
    assert a["impossible"] and a["minutes"] is None
    assert a["points"] == dict.fromkeys(holders, -6)


def test_guilty_at_most_once_per_trip():
    s = _park_all_markers(blank(4))
    place(s, "A", "res", "p1", None)
    place(s, "A", "com", "p1", None)
    assert _trip(score(s), "A")["points"] == {"p1": -6}


def test_no_route_between_the_markers_blames_both_placers():
    s = _park_all_markers(blank(4))
    route(s, RED, "solid", "G9 G11 G13")
    route(s, GREEN, "solid", "C9 C11 C13")
    stations(s, "G9 G13 C9 C13")
    place(s, "B", "com", "p1", "G13 H12 H14")
    place(s, "B", "ent", "p3", "C9 B8 B10")
    assert _trip(score(s), "B") == {"name": "B", "minutes": None, "impossible": True, "points": {"p1": -6, "p3": -6}}


def test_minutes_count_hops_between_stations_and_changes():
    s = _park_all_markers(blank(4))
    route(s, RED, "solid", "G5 G7 G9 G11 G13 G15 G17")  # many tunnels, stations G5 G13 only
    route(s, RED, "dashed", "G13 H14 I15 J16")  # a change between one company's two lines costs 3 too
    stations(s, "G5 G13 J16")
    place(s, "F", "res", "p2", "G5 H4 H6")
    place(s, "F", "ent", "p3", "J16 K15 K17")
    trip = _trip(score(s), "F")
    assert trip["minutes"] == 1 + 3 + 1
    assert trip["points"] == {"p1": 3}


def test_trains_run_both_ways():
    s = _park_all_markers(blank(4))
    route(s, BLUE, "solid", "G17 G15 G13 G11 G9")  # dug right to left, ridden left to right
    stations(s, "G9 G17")
    place(s, "F", "res", "p4", "G9 H8 H10")
    place(s, "F", "ent", "p1", "G17 H16 H18")
    assert _trip(score(s), "F") == {"name": "F", "minutes": 1, "impossible": False, "points": {"p4": 6}}


def test_line_adjustment():
    s = _park_all_markers(blank(4))
    s.scores = {"p1": 7, "p2": 7, "p3": 7, "p4": 7}
    s.lines[0].status = s.lines[1].status = "finished"  # p1: both lines
    s.lines[2].status = "finished"  # p2: one line
    result = score(s)
    assert [result["breakdown"][p]["after_lines"] for p in ("p1", "p2", "p3", "p4")] == [7, 3, 0, 0]
    assert result["breakdown"]["p1"]["stations"] == 7


def test_park_lake_trip_gives_five_to_every_rider():
    s = _park_all_markers(blank(4))
    s.cells = dict(s.cells)
    for c in CELLS_AT[V("C11")]:
        s.cells[c] = "park"
    for c in CELLS_AT[V("J14")]:
        s.cells[c] = "lake"
    route(s, RED, "solid", "D12 E13 F14")
    route(s, GREEN, "solid", "F14 G15 H16 I15")
    stations(s, "D12 F14 I15")
    result = score(s)
    trip = _trip(result, "park-lake")
    assert trip == {"name": "park-lake", "minutes": 1 + 3 + 1, "impossible": False, "points": {"p1": 5, "p2": 5}}
    s2 = _park_all_markers(blank(4))
    assert _trip(score(s2), "park-lake") == {"name": "park-lake", "minutes": None, "impossible": True, "points": {}}


def test_seven_trips_in_order():
    result = score(worked_examples_board())
    assert [t["name"] for t in result["trips"]] == ["A", "B", "C", "D", "E", "F", "park-lake"]


# ------------------------------------------------------------------ two players
def _two(mixed_fast: bool, alone_too: bool):
    s = _park_all_markers(blank(2))
    # a mixed route: p1 1 hop + change + p2 1 hop = 5 minutes
    route(s, 0, "solid", "G9 G11 G13")
    route(s, 1, "solid", "G13 G15 G17")
    stations(s, "G9 G13 G17")
    if alone_too:  # p1's dashed line rides it alone in 5 minutes too (5 hops)
        route(s, 0, "dashed", "G9 H10 I11 I13 I15 H16 G17")
        stations(s, "H10 I11 I13 I15")
    place(s, "A", "res", "p1", "G9 H8 H10" if not alone_too else "G9 F8 F10")
    place(s, "A", "com", "p2", "G17 H16 H18" if not alone_too else "G17 F16 F18")
    return s


def test_two_players_a_mixed_route_scores_nothing():
    trip = _trip(score(_two(True, False)), "A")
    assert trip["minutes"] == 5 and trip["points"] == {}


def test_two_players_alone_route_of_the_same_time_scores():
    trip = _trip(score(_two(True, True)), "A")
    assert trip["minutes"] == 5 and trip["points"] == {"p1": 6}


def test_two_players_both_guilty_nobody_penalised():
    s = _park_all_markers(blank(2))
    assert _trip(score(s), "B")["points"] == {}
    place(s, "B", "com", "p1", "G13 H12 H14")  # p1 placed it but no station: p1 guilty; p2 too
    assert _trip(score(s), "B")["points"] == {}
    s2 = _park_all_markers(blank(2))
    route(s2, 0, "solid", "G11 G13")
    stations(s2, "G13")
    place(s2, "B", "com", "p1", "G13 H12 H14")
    b_ent_holder = next(m.holder for m in s2.markers if m.letter == "B" and m.kind == "ent")
    assert _trip(score(s2), "B")["points"] == {b_ent_holder: -6}


# ------------------------------------------------------------------ winner
def test_tie_breaks_finished_lines_then_tunnels_then_shared():
    s = _park_all_markers(blank(4))  # the 4-player deal: everyone keeps 3 letters, -18 each
    result = score(s)
    assert {v["total"] for v in result["breakdown"].values()} == {-18}
    assert sorted(result["winners"]) == ["p1", "p2", "p3", "p4"]  # shared
    s.lines[4].status = "finished"  # p3 finished a line: wins the tie
    assert score(s)["winners"] == ["p3"]
    route(s, 1, "solid", "G9 G11 G13")  # p2 also finished one, with more tunnels
    s.lines[2].status = "finished"
    assert score(s)["winners"] == ["p2"]
    s.scores["p1"] = 1  # ... but points come first
    s.lines[0].status = s.lines[1].status = "finished"
    assert score(s)["winners"] == ["p1"]


def test_advanced_variant_scores_companies_and_ranks_people():
    s = _park_all_markers(blank(2, advanced=True))
    assert s.players == ["p1#1", "p2#1", "p1#2", "p2#2"]
    # p1's two companies make a trip together: the route rides one person's lines alone
    route(s, 0, "solid", "G9 G11 G13")  # p1#1
    route(s, 2, "solid", "G13 G15 G17")  # p1#2
    stations(s, "G9 G13 G17")
    place(s, "A", "res", "p1#1", "G9 H8 H10")
    place(s, "A", "com", "p2#1", "G17 H16 H18")
    result = score(s)
    trip = _trip(result, "A")
    assert trip["minutes"] == 5 and trip["points"] == {"p1#1": 6, "p1#2": 3}
    totals = {p: b["total"] for p, b in result["breakdown"].items()}
    people = {"p1": totals["p1#1"] + totals["p1#2"], "p2": totals["p2#1"] + totals["p2#2"]}
    assert result["winners"] == [max(people, key=people.get)]


def test_advanced_variant_ends_when_a_company_finishes_its_second_line():
    from .helpers import lay, tunnel

    s = blank(2, advanced=True)
    lay(s, 0, "dashed", "S12 C5 D6 E7 F8 G9 H10 I11 J12 K13 L14 M15 T7")
    lay(s, 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 G19 F20 E21 D22")
    s, events = tunnel(s, "solid", "T4")
    assert any(e["type"] == "building_ends" and e["reason"] == "two_lines_finished" for e in events)
    assert s.remaining == [1, 2, 3]
