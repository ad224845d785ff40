"""MetrOmania's illustrated rules show what their texts say: the positions are the engine's,
and the numbers in the texts are the engine's events and scores."""

from __future__ import annotations

from metrobot.games import get_plugin
from metrobot.games.metromania.board import vertex_name
from metrobot.games.metromania.rulebook import PAGES, PLAYERS
from metrobot.games.rulebook import position

PLUGIN = get_plugin("metromania")
GAME = PLUGIN.game
KEYS = [p.key for p in PAGES]
ANN, BOB, CAT = PLAYERS


def built(key: str):
    return position(PLUGIN.name, PAGES[KEYS.index(key)])


def test_the_pages_in_order():
    assert PLUGIN.rules_pages() is PAGES
    assert KEYS == ["grid", "dig", "stations", "markers", "trip", "end", "summary"]
    assert PLUGIN.rules_page_of("acute_turn") == KEYS.index("dig")
    assert PLUGIN.rules_page_of("one_marker_per_turn") == KEYS.index("markers")


def test_the_grid_is_a_new_game():
    shown = built("grid")
    assert not shown.state.stations and all(not line.vertices for line in shown.state.lines)


def test_the_dig_is_anns_first_turn_of_three_tunnels_as_typed():
    shown = built("dig")
    state = PLUGIN.new_game(PLAYERS, {}, 7)
    for key in ("first", "second", "third"):
        action = PLUGIN.parse(state, ANN, shown.params[key])  # the texts' moves are real, typed moves
        state, events = GAME.apply(state, ANN, action)
        assert [e["type"] for e in events if e["type"] == "tunnel"] == ["tunnel"]
    assert GAME.to_json(state) == GAME.to_json(shown.state)
    assert shown.viewer == ANN and GAME.to_move(state) == {BOB}
    ann_lines = [line for line in state.lines if line.player == ANN]
    assert sum(len(line.cells) for line in ann_lines) == 3


def test_the_station_is_where_two_lines_meet():
    shown = built("stations")
    where = next(v for v in shown.state.stations if vertex_name(tuple(v)) == shown.params["at"])
    lines = [line for line in shown.state.lines if tuple(where) in {tuple(v) for v in line.vertices}]
    assert len(lines) >= 2, "a station made by lines meeting"
    assert shown.params["who"] in {line.player for line in lines} and shown.params["points"] >= 1


def test_the_markers_are_anns_own_and_only_she_sees_their_letters():
    shown = built("markers")
    placed = [m for m in shown.state.markers if m.holder == ANN and m.cell is not None]
    assert {m.letter for m in placed} == {shown.params["first"], shown.params["second"]}
    mine, theirs = GAME.view(shown.state, ANN), GAME.view(shown.state, BOB)
    assert mine != theirs and shown.viewer == ANN


def test_the_trip_and_the_end_are_the_engines_final_scoring():
    trip, end = built("trip"), built("end")
    assert GAME.is_over(trip.state) and trip.picture == "final:0"
    view = GAME.view(trip.state, None)
    shown = next(t for t in view["trips"] if t["name"] == trip.params["trip"])
    assert shown["minutes"] == trip.params["minutes"]
    assert shown["points"] == {trip.params["full"]: 6, trip.params["half"]: 3}
    failed = next(t for t in view["trips"] if t["name"] == trip.params["failed"])
    assert failed["impossible"] and failed["points"] == {trip.params["blamed"]: -trip.params["lost"]}
    parts = view["breakdown"]
    assert (parts[CAT]["stations"], parts[CAT]["after_lines"]) == (end.params["before"], end.params["after"])
    assert end.params["after"] == end.params["before"] // 2, "one line finished: half the points"
    assert view["winners"] == [end.params["winner"]] and parts[end.params["winner"]]["total"] == end.params["total"]
