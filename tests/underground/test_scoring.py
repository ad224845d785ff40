"""Scoring while building, each thing once per colour: National Rail, terminus (+ token),
connection pairs, stations enclosed by a single colour's loop."""

from __future__ import annotations

from metrobot.games.underground import GAME

from .helpers import FORGO, place, play, position
from .smallmaps import GRID

OWNERS = {"red": "ann", "blue": "ann", "green": "bob", "yellow": "bob"}
TILES = {"b2": "suitcase", "d3": "suitcase", "d2": "umbrella", "b3": "umbrella"}


def pos(**kw):
    kw.setdefault("owners", OWNERS)
    kw.setdefault("tiles", TILES)
    return position(GRID, **kw)


def items(events, what=None):
    out = [i for e in events if e["type"] == "placed" for i in e["scored"]]
    return [i for i in out if what is None or i["what"] == what]


def test_national_rail_once_per_colour():
    s = pos()
    s, ev = play(s, place("red", GRID, "a1", "b1"))
    assert items(ev) == [{"what": "national_rail", "station": "b1", "points": 1}]
    assert s.breakdown["ann"]["national_rail"] == 1
    # red reaches b1 again through a loop: nothing more
    s = pos(tracks={"red": [("b1", "c1"), ("c1", "c2"), ("c2", "b2")]}, scored={"red": {"national_rail": ["b1"]}})
    s, ev = play(s, place("red", GRID, "b2", "b1"))
    assert items(ev, "national_rail") == []
    # another colour of the same player scores it again
    s, ev = play(s, place("blue", GRID, "b1", "North End"))
    assert {i["what"] for i in items(ev)} == {"national_rail", "terminus"}


def test_terminus_gives_two_points_and_a_token_usable_at_once():
    s = pos(tracks={"red": [("c1", "b1"), ("c1", "d1")]}, scored={"red": {"national_rail": ["b1"]}})
    s, ev = play(s, place("red", GRID, "b1", "North End"))
    assert items(ev) == [{"what": "terminus", "station": "North End", "points": 2, "tokens": 1}]
    assert s.breakdown["ann"]["terminus"] == 2 and s.tokens["ann"] == 1
    assert ev[0]["tokens"] == 1
    s, _ = play(s, FORGO)  # a second token this turn
    s, ev = play(s, place("red", GRID, "c1", "c2"))  # c1 joins two pieces: a branch, paid at once
    assert ev[0]["kind"] == "branch" and s.tokens["ann"] == 0


def test_connection_pair_once_per_colour():
    s = pos(tracks={"red": [("b2", "c2"), ("c2", "c3")]})
    s, ev = play(s, place("red", GRID, "c3", "d3"))
    assert items(ev, "connection") == [
        {"what": "connection", "symbol": "suitcase", "stations": ["b2", "d3"], "points": 3}
    ]
    assert s.breakdown["ann"]["connections"] == 3
    assert s.scored["red"]["connections"] == ["suitcase"]
    s, ev = play(s, place("red", GRID, "d3", "d2"))  # d2 is umbrella: its pair b3 is not on red
    assert items(ev, "connection") == []
    s, ev = play(s, place("red", GRID, "b2", "b3"))  # now the umbrella pair joins; suitcase is not paid again
    assert [i["symbol"] for i in items(ev, "connection")] == ["umbrella"]
    # blue scores the suitcase pair again for the same player
    s = pos(
        tracks={
            "red": [("b2", "c2"), ("c2", "c3"), ("c3", "d3")],
            "blue": [("b2", "a2"), ("a2", "a3"), ("a3", "a4"), ("a4", "b4"), ("b4", "c4"), ("c4", "d4")],
        },
        scored={"red": {"connections": ["suitcase"]}},
    )
    s, ev = play(s, place("blue", GRID, "d4", "d3"))
    assert [i["symbol"] for i in items(ev, "connection")] == ["suitcase"]


LOOP = [("a1", "b1"), ("b1", "c1"), ("c1", "c2"), ("c2", "c3"), ("c3", "b3"), ("b3", "a3"), ("a3", "a2")]


def test_loop_encloses_stations_strictly_inside_only():
    s = pos(tracks={"red": LOOP})
    s, ev = play(s, place("red", GRID, "a2", "a1"))
    assert items(ev, "enclosed") == [{"what": "enclosed", "station": "b2", "points": 1}]
    assert s.breakdown["ann"]["loops"] == 1 and s.scored["red"]["enclosed"] == ["b2"]


def test_small_loop_with_nothing_inside():
    s = pos(tracks={"red": [("a1", "b1"), ("b1", "b2"), ("b2", "a2")]})
    s, ev = play(s, place("red", GRID, "a2", "a1"))
    assert items(ev, "enclosed") == []


def test_enclosed_once_per_colour_even_when_the_loop_grows():
    s = pos(tracks={"red": LOOP})
    s, _ = play(s, place("red", GRID, "a2", "a1"))
    data = GAME.to_json(s)
    ids = {frozenset((g.a, g.b)): g.id for g in GRID.gaps}
    more = [("c1", "d1"), ("d1", "e1"), ("e1", "e2"), ("e2", "e3"), ("e3", "d3")]
    data["colours"]["red"]["track"] += [ids[frozenset(p)] for p in more]
    data["turn"] = {"player": "ann"}
    s = GAME.from_json(data)
    s, ev = play(s, place("red", GRID, "d3", "c3"))
    # the big loop encloses b2 (paid already), d2, and c2, which is on red's track but not on this loop
    assert [i["station"] for i in items(ev, "enclosed")] == ["c2", "d2"]
    assert s.breakdown["ann"]["loops"] == 3
    # green encloses b2 too and is paid for it
    s = pos(tracks={"green": LOOP}, current=1)
    s, ev = play(s, place("green", GRID, "a2", "a1"))
    assert [i["station"] for i in items(ev, "enclosed")] == ["b2"]


def test_a_branch_inside_a_loop_is_enclosed_by_the_outer_cycle():
    # right square b1-c1-c3-b3 with its chord b1-b2-b3, then the left side a1-a2-a3 closing the outer cycle:
    # b2 lies on the track and on both small cycles, but strictly inside the outer one.
    track = [
        ("b1", "b2"),
        ("b2", "b3"),
        ("b3", "c3"),
        ("c3", "c2"),
        ("c2", "c1"),
        ("c1", "b1"),
        ("b1", "a1"),
        ("a1", "a2"),
        ("a2", "a3"),
    ]
    s = pos(tracks={"red": track})
    s, ev = play(s, place("red", GRID, "a3", "b3"))
    assert ev[0]["kind"] == "extend"
    assert [i["station"] for i in items(ev, "enclosed")] == ["b2"]


def test_branch_into_a_loop_after_it_closed_scores_nothing_new():
    s = pos(tracks={"red": LOOP}, tokens={"ann": 2})
    s, _ = play(s, place("red", GRID, "a2", "a1"))
    s, ev = play(s, place("red", GRID, "b1", "b2"))  # a branch onto the enclosed station
    assert ev[0]["kind"] == "branch" and items(ev, "enclosed") == []


def test_scored_points_go_to_the_colour_owner_in_the_breakdown():
    s = pos()
    s, _ = play(s, place("red", GRID, "a1", "b1"), place("blue", GRID, "d4", "South End"))
    data = GAME.to_json(s)
    b = data["breakdown"]["ann"]
    assert b["national_rail"] == 2 and b["terminus"] == 2
    assert b["total"] == sum(v for k, v in b.items() if k != "total") == data["scores"]["ann"]
    assert data["scored"]["blue"] == {
        "national_rail": ["d4"],
        "terminus": ["South End"],
        "connections": [],
        "enclosed": [],
    }
