"""Automatic stations (meet/split rule), station scoring, intermediate and bonus stations."""

from metrobot.games.metromania import GAME
from metrobot.games.metromania.board import CELLS_AT

from .helpers import V, add_station, at_turn, blank, cell, lay, refused, tunnel


def _row_h(s):
    """p2's solid line along row H, left to right."""
    return lay(s, 1, "solid", "S10 H2 H4 H6 H8 H10 H12")


def _stations(events):
    return [(e["at"], e["how"], e["points"]) for e in events if e["type"] == "station"]


def test_meeting_another_line_places_a_station_where_they_meet():
    s = _row_h(blank())
    lay(s, 0, "solid", "S9 J4 I5")
    s2, events = tunnel(s, "solid", "H6")
    assert _stations(events) == [(list(V("H6")), "meet", 0)]
    assert s2.stations == [V("H6")]


def test_crossing_is_a_meeting():
    s = _row_h(blank())
    lay(s, 0, "solid", "S8 M9 L10 K11 J12 I13")  # coming up from below toward H12
    s, first = tunnel(s, "solid", "H12")
    s, second = tunnel(s, "solid", "G11")  # straight on: the line crosses row H
    assert _stations(first) == [(list(V("H12")), "meet", 0)]
    assert _stations(second) == []


def test_running_alongside_makes_no_station_until_the_lines_split():
    s = _row_h(blank())
    lay(s, 0, "solid", "S9 J4 I5 H6")
    add_station(s, "H6")
    s, events = tunnel(s, "solid", "H8", "R")  # alongside p2, the other cell of the same edge
    assert _stations(events) == []
    s, events = tunnel(s, "solid", "H10", "R")
    assert _stations(events) == []
    s = at_turn(s, 0)
    s, events = tunnel(s, "solid", "I11")  # the lines split at H10
    assert _stations(events) == [(list(V("H10")), "meet", 0)]


def test_changing_side_while_alongside_makes_no_station():
    s = lay(blank(), 1, "solid", "S10 H2 H4 H6 H8/L H10/R H12")
    lay(s, 0, "solid", "S9 J4 I5 H6")
    add_station(s, "H6")
    s, e1 = tunnel(s, "solid", "H8", "R")  # below the edge H6-H8 (p2 is above)
    s, e2 = tunnel(s, "solid", "H10", "L")  # above the edge H8-H10 (p2 is below): a change of side
    assert _stations(e1 + e2) == []


def test_one_tunnel_can_make_two_stations():
    s = _row_h(blank())
    lay(s, 0, "solid", "S9 J4 I5 H6 H8/R")
    add_station(s, "H6")
    lay(s, 2, "solid", "S8 M9 L10 K11 J10 I9")
    _s2, events = tunnel(s, "solid", "I9")
    assert sorted(e[0] for e in _stations(events)) == sorted([list(V("H8")), list(V("I9"))])


def test_reaching_an_existing_station_creates_nothing():
    s = _row_h(blank())
    add_station(s, "H6")
    lay(s, 0, "solid", "S9 J4 I5")
    s2, events = tunnel(s, "solid", "H6")
    assert _stations(events) == [] and len(s2.stations) == 1


def test_station_scores_one_point_per_spot_it_touches():
    s = _row_h(blank())
    lay(s, 0, "solid", "S9 J4 I5")
    s.cells = dict(s.cells)
    around = [c for c in CELLS_AT[V("H6")] if c not in s.occupied and c != cell("I5", "H6", "L")]
    s.cells[around[0]] = "res"
    s.cells[around[1]] = "ent"
    s.cells[around[2]] = "lake"  # lake and park score nothing
    s2, events = tunnel(s, "solid", "H6")
    assert _stations(events) == [(list(V("H6")), "meet", 2)]
    assert s2.scores["p1"] == 2 and s2.scores["p2"] == 0


def test_same_players_two_lines_meeting_make_a_station():
    s = lay(blank(), 0, "dashed", "S10 H2 H4 H6 H8")
    lay(s, 0, "solid", "S9 J4 I5")
    _s2, events = tunnel(s, "solid", "H6")
    assert _stations(events)[0][0] == list(V("H6"))


# ------------------------------------------------------------------ intermediate stations
def test_intermediate_station_between_start_and_a_station():
    s = lay(blank(), 0, "solid", "S9 J4 I5 H6 H8 H10")
    add_station(s, "H6")
    s.cells = dict(s.cells)
    s.cells[cell("J4", "I5", "L")] = "com"  # touches I5
    s2, events = GAME.apply(s, "p1", {"type": "station", "at": list(V("I5"))})
    assert _stations(events) == [(list(V("I5")), "intermediate", 1)]
    assert s2.current == 1  # a whole turn
    assert refused(GAME.apply, s, "p1", {"type": "station", "at": list(V("H8"))}) == "intermediate_station"
    add_station(s, "H10")
    GAME.apply(s, "p1", {"type": "station", "at": list(V("H8"))})


def test_intermediate_station_only_on_own_unfinished_line():
    s = _row_h(blank())
    add_station(s, "H10")
    assert refused(GAME.apply, s, "p1", {"type": "station", "at": list(V("H6"))}) == "intermediate_station"
    s = lay(blank(), 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 H20 H22 G23 F24 E23 T4")
    add_station(s, "H10")
    assert refused(GAME.apply, s, "p1", {"type": "station", "at": list(V("H6"))}) == "intermediate_station"


def test_intermediate_station_is_a_whole_turn():
    s = lay(blank(), 0, "solid", "S9 J4 I5 H6 H8")
    add_station(s, "H8")
    s, _ = tunnel(s, "solid", "H10")
    assert refused(GAME.apply, s, "p1", {"type": "station", "at": list(V("H6"))}) == "station_turn"


# ------------------------------------------------------------------ bonus station
_FINISH = "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 H20 H22 G23 F24 E23"


def test_bonus_station_after_finishing():
    s = lay(blank(), 0, "solid", _FINISH)
    s, events = tunnel(s, "solid", "T4")
    assert s.turn.bonus == 0 and s.current == 0
    kinds = {a["type"] for a in GAME.legal_actions(s, "p1")}
    assert kinds == {"bonus", "decline_bonus", "tunnel"}  # digging on declines it
    s2, events = GAME.apply(s, "p1", {"type": "bonus", "at": list(V("H12"))})
    assert _stations(events) == [(list(V("H12")), "bonus", 0)]
    assert s2.turn.bonus is None


def test_no_more_intermediate_stations_on_a_finished_line():
    s = lay(blank(), 0, "solid", _FINISH)
    s, _ = tunnel(s, "solid", "T4")
    s, _ = GAME.apply(s, "p1", {"type": "decline_bonus"})
    s = at_turn(s, 0)
    actions = GAME.legal_actions(s, "p1")
    assert not [a for a in actions if a["type"] == "station"]


def test_bonus_station_still_allowed_when_finishing_ends_the_building_phase():
    s = lay(blank(), 0, "dashed", "S4 F24 G23 H22 I21 J20 K19 L18 M17 T7", status="finished")
    lay(s, 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 G19 F20 E21 D22")
    s, events = tunnel(s, "solid", "T4")
    assert any(e["type"] == "building_ends" for e in events)
    assert s.phase == "last_round" and s.current == 0 and s.turn.ending
    assert {a["type"] for a in GAME.legal_actions(s, "p1")} == {"bonus", "decline_bonus"}
    s2, _ = GAME.apply(s, "p1", {"type": "bonus", "at": list(V("H8"))})
    assert V("H8") in s2.stations and s2.current == 1
