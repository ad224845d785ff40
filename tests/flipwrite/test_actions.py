"""Every card type and movement rule, on the small hand-made maps."""

import pytest

from metrobot.games import BadInput, RuleError
from metrobot.games.flipwrite import GAME

from .smallmaps import tiny_data
from .util import new, new_on, play_round, ride, set_card, set_sheet


def solo(map_name="tiny", **kw):
    return new_on(map_name, players=("ann",), deck=["3"], **kw)


def after(state, action, card):
    state, _ = play_round(state, {"ann": action}, card=card)
    return state.sheets["ann"]


# --- number cards ---------------------------------------------------------------------------
def test_number_card_crosses_from_the_wagon_and_fills_a_window():
    sheet = after(solo("long"), ride("A", 3), "3")
    assert sheet.marks == {"s1": "x", "s2": "x", "s3": "x"}
    assert sheet.windows["A"] == ("3", None, None, None)


def test_number_card_passes_marked_stations_before_the_first_empty_one():
    state = set_sheet(solo("long"), "ann", marks={"s1": "x", "s2": "x"})
    assert after(state, ride("A", 4), "4").marks.keys() == {"s1", "s2", "s3", "s4", "s5", "s6"}


def test_number_card_stops_at_a_marked_station_and_the_rest_is_lost():
    state = set_sheet(solo("long"), "ann", marks={"s4": "x"})
    assert [a["count"] for a in GAME.legal_actions(set_card(state, "5"), "ann") if a["line"] == "A"] == [0, 1, 2, 3]
    with pytest.raises(RuleError) as err:
        play_round(state, {"ann": ride("A", 4)}, card="5")
    assert err.value.rule == "count"
    assert "at most 3" in str(err.value) and "Stop s4" in str(err.value) and "0-3" in str(err.value)
    assert after(state, ride("A", 3), "5").marks.keys() == {"s1", "s2", "s3", "s4"}


def test_number_card_stops_at_the_end_station():
    state = set_sheet(solo("long"), "ann", marks={f"s{i}": "x" for i in range(1, 9)})
    with pytest.raises(RuleError, match="ends at Stop s10"):
        play_round(state, {"ann": ride("A", 3)}, card="3")
    assert after(state, ride("A", 2), "3").marks.keys() >= {"s9", "s10"}


def test_count_above_the_card_value_is_refused():
    with pytest.raises(RuleError, match="card's value is 3"):
        play_round(solo("long"), {"ann": ride("A", 4)}, card="3")


def test_zero_stations_still_fills_a_window():
    sheet = after(solo("long"), ride("B", 0), "5")
    assert sheet.marks == {} and sheet.windows["B"] == ("5", None)


def test_a_fully_marked_line_can_still_take_a_window():
    state = set_sheet(solo("long"), "ann", marks={"t1": "x", "s3": "x", "t2": "x"})
    assert GAME.legal_actions(set_card(state, "4"), "ann").count({"type": "ride", "line": "B", "count": 0}) == 1
    assert after(state, ride("B", 0), "4").windows["B"] == ("4", None)


def test_full_line_is_refused_and_names_the_other_lines():
    state = set_sheet(solo(), "ann", windows={"C": ("3", "4")})
    with pytest.raises(RuleError) as err:
        play_round(state, {"ann": ride("C", 1, "cw")}, card="3")
    assert err.value.rule == "line_full"
    assert str(err.value) == "line C has no empty window left. Choose another line: A, B, D."
    assert {a["line"] for a in GAME.legal_actions(set_card(state, "3"), "ann")} == {"A", "B", "D"}


def test_wrong_action_type_for_the_card():
    with pytest.raises(RuleError) as err:
        play_round(solo(), {"ann": {"type": "transfer", "line": "A"}}, card="3")
    assert err.value.rule == "wrong_card" and "ride" in str(err.value)
    with pytest.raises(RuleError, match="Free ride"):
        play_round(solo(), {"ann": ride("A", 1)}, card="free")


@pytest.mark.parametrize(
    "bad",
    [
        "ride",
        {"line": "A"},
        {"type": "jump"},
        {"type": "ride", "line": "A"},
        {"type": "ride", "line": 1, "count": 1},
        {"type": "ride", "line": "A", "count": -1},
        {"type": "ride", "line": "A", "count": True},
        {"type": "ride", "line": "A", "count": 1, "speed": 3},
        {"type": "ride", "line": "Q", "count": 1},
        {"type": "ride", "line": "C", "count": 1, "dir": "left"},
        {"type": "free", "station": "nowhere"},
        {"type": "free", "station": 4},
    ],
)
def test_malformed_actions_are_bad_input(bad):
    card = "free" if isinstance(bad, dict) and bad.get("type") == "free" else "3"
    with pytest.raises(BadInput):
        play_round(solo(), {"ann": bad}, card=card)


# --- express -------------------------------------------------------------------------------
def test_express_hops_over_marked_stations_but_never_over_empty_ones():
    state = set_sheet(solo("long"), "ann", marks={"s2": "x", "s3": "x", "s5": "x"})
    sheet = after(state, ride("A", 3), "E3")
    assert sheet.marks.keys() == {"s1", "s2", "s3", "s4", "s5", "s6"}  # crossed s1, s4, s6
    assert sheet.windows["A"][0] == "E3"


def test_express_used_as_a_normal_card():
    state = set_sheet(solo("long"), "ann", marks={"s2": "x"})
    assert after(state, ride("A", 1, use="normal"), "E2").marks.keys() == {"s1", "s2"}
    with pytest.raises(RuleError, match="stops at Stop s2"):
        play_round(state, {"ann": ride("A", 2, use="normal")}, card="E2")
    assert after(state, ride("A", 2, use="express"), "E2").marks.keys() == {"s1", "s2", "s3"}


def test_express_is_bounded_by_the_empty_stations_left():
    state = set_sheet(solo("long"), "ann", marks={f"s{i}": "x" for i in range(1, 10)})
    with pytest.raises(RuleError, match="only 1 empty station left"):
        play_round(state, {"ann": ride("A", 2)}, card="E2")


def test_use_key_only_for_express_cards():
    with pytest.raises(RuleError) as err:
        play_round(solo(), {"ann": ride("A", 1, use="normal")}, card="3")
    assert err.value.rule == "not_express"


# --- transfer ------------------------------------------------------------------------------
def test_transfer_boxes_the_number_of_lines_at_the_first_empty_station():
    state = set_sheet(solo(), "ann", marks={"b1": "x"})
    sheet = after(state, {"type": "transfer", "line": "B"}, "+")
    assert sheet.marks == {"b1": "x", "X": 2}  # X is served by A and B
    assert sheet.windows["B"] == ("+", None)


def test_transfer_on_a_station_of_one_line_boxes_1():
    assert after(solo(), {"type": "transfer", "line": "A"}, "+").marks == {"a1": 1}


def test_transfer_on_a_fully_marked_line_still_fills_the_window():
    state = set_sheet(solo(), "ann", marks={"d1": "x", "Z": "x", "d3": "x"})
    sheet = after(state, {"type": "transfer", "line": "D"}, "+")
    assert sheet.windows["D"] == ("+",) and sheet.marks == {"d1": "x", "Z": "x", "d3": "x"}


def test_transfer_takes_no_count():
    with pytest.raises(BadInput):
        play_round(solo(), {"ann": {"type": "transfer", "line": "A", "count": 1}}, card="+")


# --- free ride -----------------------------------------------------------------------------
def test_free_ride_crosses_any_empty_station():
    sheet = after(solo(), {"type": "free", "station": "a4"}, "free")
    assert sheet.marks == {"a4": "x"}


def test_free_ride_on_a_marked_station_is_refused():
    state = set_sheet(solo(), "ann", marks={"a4": "x"})
    with pytest.raises(RuleError) as err:
        play_round(state, {"ann": {"type": "free", "station": "a4"}}, card="free")
    assert err.value.rule == "station_marked"


def test_free_ride_may_be_let_go():
    state = set_sheet(solo(), "ann", marks={"a4": "x"})
    legal = GAME.legal_actions(set_card(state, "free"), "ann")
    assert legal[0] == {"type": "free", "station": None}
    assert {"type": "free", "station": "a4"} not in legal and len(legal) == 1 + 13
    assert after(state, {"type": "free", "station": None}, "free").marks == {"a4": "x"}


# --- ring lines ----------------------------------------------------------------------------
@pytest.mark.parametrize("listed_clockwise", [True, False])
def test_ring_rides_either_way_from_the_wagon(listed_clockwise):
    base = new(("ann",), deck=["3"], map_data=tiny_data(ring_clockwise=listed_clockwise))
    # Directions follow the drawing, not the order the file lists the stations in.
    assert after(base, ride("C", 3, "cw"), "3").marks.keys() == {"c1", "c2", "Y"}
    assert after(base, ride("C", 3, "ccw"), "3").marks.keys() == {"c1", "c5", "c4"}


def test_ring_has_no_end_station_and_completes_when_all_marked():
    state = set_sheet(solo(), "ann", marks={"c1": "x", "c2": "x"})
    state, events = play_round(state, {"ann": ride("C", 3, "cw")}, card="3")
    assert state.sheets["ann"].marks.keys() >= {"Y", "c4", "c5"}
    assert state.sheets["ann"].completed["C"] == (1, 6)
    assert {"type": "line_completed", "player": "ann", "line": "C", "points": 6, "first": True} in events


def test_ring_ride_stops_at_a_marked_station_in_the_chosen_direction():
    state = set_sheet(solo(), "ann", marks={"Y": "x"})
    counts = {(a["dir"], a["count"]) for a in GAME.legal_actions(set_card(state, "5"), "ann") if a["line"] == "C"}
    assert max(c for d, c in counts if d == "cw") == 2  # c1, c2, then Y is marked
    assert max(c for d, c in counts if d == "ccw") == 3  # c1, c5, c4, then Y
    assert after(state, ride("C", 4, "cw"), "E5").marks.keys() == {"Y", "c1", "c2", "c4", "c5"}


def test_ring_transfer_follows_the_direction():
    state = set_sheet(solo(), "ann", marks={"c1": "x"})
    assert after(state, {"type": "transfer", "line": "C", "dir": "ccw"}, "+").marks["c5"] == 1
    assert after(state, {"type": "transfer", "line": "C", "dir": "cw"}, "+").marks["c2"] == 1


def test_ring_needs_a_direction_and_other_lines_refuse_one():
    with pytest.raises(RuleError) as err:
        play_round(solo(), {"ann": ride("C", 1)}, card="3")
    assert err.value.rule == "ring_direction" and "cw" in str(err.value)
    with pytest.raises(RuleError) as err:
        play_round(solo(), {"ann": ride("A", 1, "cw")}, card="3")
    assert err.value.rule == "not_ring"


def test_legal_actions_shape_for_a_number_card():
    legal = GAME.legal_actions(set_card(solo(), "3"), "ann")
    by_line = {}
    for a in legal:
        by_line.setdefault((a["line"], a.get("dir")), []).append(a["count"])
    assert by_line == {
        ("A", None): [0, 1, 2, 3],
        ("B", None): [0, 1, 2, 3],
        ("C", "cw"): [0, 1, 2, 3],
        ("C", "ccw"): [0, 1, 2, 3],
        ("D", None): [0, 1, 2, 3],
    }
    for a in legal:
        GAME.apply(set_card(solo(), "3"), "ann", a)  # each one is accepted
