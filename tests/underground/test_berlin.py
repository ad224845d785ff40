"""The Berlin board: the file the map tool makes, its lines, flags and drawing, German names
typed without ß and umlauts, and the passenger on it."""

from __future__ import annotations

import itertools
import json

import networkx as nx
import pytest

from metrobot.games.underground import GAME, mapdata, passenger
from metrobot.games.underground.mapdata import load_map, map_names, parse_map
from metrobot.games.underground.notation import parse, stations_matching
from tools import citymap

from .helpers import play, position

LINES = {f"U{i}" for i in range(1, 10)}


@pytest.fixture(scope="module")
def berlin():
    return load_map("berlin")


def test_berlin_loads_with_the_expected_counts(berlin):
    assert "berlin" in map_names() and berlin.title == "Berlin U-Bahn" and berlin.start == "Alexanderplatz"
    assert 120 <= len(berlin.stations) <= 175
    assert len(berlin.destinations("express")) == 22 and len(berlin.destinations("standard")) == 33
    assert len(berlin.connection_stations()) == 8 and berlin.stations["Alexanderplatz"].destination is None
    assert {line for gap in berlin.gaps for line in gap.lines} == LINES
    assert all(gap.slots == min(4, len(gap.lines)) for gap in berlin.gaps)


def test_berlin_file_is_what_the_general_map_tool_makes(berlin):
    text = (mapdata.MAPS_DIR / "berlin.json").read_text(encoding="utf-8")
    assert citymap.make("berlin") == text
    assert parse_map(json.loads(text)).digest == berlin.digest


def test_berlin_each_line_is_one_piece_between_its_real_ends(berlin):
    ends = {
        "U1": {"Uhlandstraße", "Warschauer Straße"},
        "U2": {"Pankow", "Ruhleben"},
        "U3": {"Krumme Lanke", "Warschauer Straße"},
        "U4": {"Nollendorfplatz", "Innsbrucker Platz"},
        "U5": {"Hauptbahnhof", "Hönow"},
        "U6": {"Alt-Tegel", "Alt-Mariendorf"},
        "U7": {"Rathaus Spandau", "Rudow"},
        "U8": {"Wittenau", "Hermannstraße"},
        "U9": {"Osloer Straße", "Rathaus Steglitz"},
    }
    for line, (a, b) in ((line, sorted(e)) for line, e in ends.items()):
        g = nx.Graph((gap.a, gap.b) for gap in berlin.gaps if line in gap.lines)
        assert nx.is_connected(g) and max(dict(g.degree).values()) == 2, line
        assert {s for s, d in g.degree if d == 1} == {a, b}, line
    assert nx.is_connected(berlin.graph()) and nx.check_planarity(berlin.graph())[0]


@pytest.mark.parametrize(
    "a, b, lines",
    [
        ("Wittenbergplatz", "Nollendorfplatz", {"U1", "U2", "U3"}),
        ("Nollendorfplatz", "Kurfürstenstraße", {"U1", "U3"}),
        ("Gleisdreieck", "Möckernbrücke", {"U1", "U3"}),
        ("Unter den Linden", "Stadtmitte", {"U6"}),
        ("Brandenburger Tor", "Unter den Linden", {"U5"}),
        ("Tempelhof", "Alt-Mariendorf", {"U6"}),  # through five left-out stations
        ("Grenzallee", "Britz-Süd", {"U7"}),
        ("Kurfürstendamm", "Spichernstraße", {"U9"}),
    ],
)
def test_berlin_adjacency(berlin, a, b, lines):
    assert set(berlin.gap_between(a, b).lines) == lines


def test_berlin_flags(berlin):
    st = berlin.stations
    assert set(berlin.termini()) == {
        "Uhlandstraße",
        "Warschauer Straße",
        "Pankow",
        "Ruhleben",
        "Krumme Lanke",
        "Innsbrucker Platz",
        "Hauptbahnhof",
        "Hönow",
        "Alt-Tegel",
        "Alt-Mariendorf",
        "Rathaus Spandau",
        "Rudow",
        "Wittenau",
        "Hermannstraße",
        "Rathaus Steglitz",
    }
    assert not st["Nollendorfplatz"].terminus  # U4 ends there, U1-U3 run through
    for name in (
        "Hauptbahnhof",
        "Friedrichstraße",
        "Zoologischer Garten",
        "Gesundbrunnen",
        "Rathaus Spandau",
        "Warschauer Straße",
        "Yorckstraße",
    ):
        assert st[name].national_rail, name
    for name in ("Olympia-Stadion", "Kaiserdamm", "Möckernbrücke", "Kottbusser Tor"):
        assert not st[name].national_rail, name  # the S-Bahn stops under another name, or not at all
    assert set(berlin.connection_stations()) == {
        "Bismarckstraße",
        "Fehrbelliner Platz",
        "Leopoldplatz",
        "Stadtmitte",
        "Nollendorfplatz",
        "Hallesches Tor",
        "Kottbusser Tor",
        "Hermannplatz",
    }


def test_berlin_drawing_box_and_spacing(berlin):
    pts = [(s.x, s.y) for s in berlin.stations.values()]
    assert all(0 <= x <= 160 and 0 <= y <= 100 for x, y in pts)
    assert min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(pts) for b in pts[i + 1 :]) >= 3


@pytest.mark.parametrize(
    "typed, name",
    [
        ("Weinmeisterstrasse", "Weinmeisterstraße"),
        ("weinmeisterstraße", "Weinmeisterstraße"),
        ("Schoenleinstrasse", "Schönleinstraße"),
        ("Schonleinstr", "Schönleinstraße"),
        ("goerlitzer bahnhof", "Görlitzer Bahnhof"),
        ("Gorlitzer", "Görlitzer Bahnhof"),
        ("Ruedesheimer Platz", "Rüdesheimer Platz"),
        ("Moeckernbruecke", "Möckernbrücke"),
        ("Schlossstrasse", "Schloßstraße"),
        ("Hoenow", "Hönow"),
        ("honow", "Hönow"),
        ("Kurfuerstendamm", "Kurfürstendamm"),
        ("checkpoint charlie", "Kochstraße/Checkpoint Charlie"),
    ],
)
def test_german_names_typed_with_or_without_their_letters(typed, name):
    board = GAME.new_game(["a", "b"], {"map": "berlin"}, 1).board
    assert stations_matching(board, typed) == [name]


def test_a_move_typed_without_umlauts_names_the_gap():
    s = GAME.new_game(["ann", "bob"], {"map": "berlin", "first_player": 0}, 3)
    colour = s.colours_of("ann")[0]
    action = parse(GAME, s, "ann", f"{colour} Moritzplatz - Kottbusser Tor")
    gap = s.board.map.gap_between("Moritzplatz", "Kottbusser Tor").id
    assert action == {"type": "place", "colour": colour, "gap": gap}
    assert (
        parse(GAME, s, "ann", f"{colour} Schoenleinstrasse - Kottbusser Tor")["gap"]
        == s.board.map.gap_between("Schönleinstraße", "Kottbusser Tor").id
    )


def test_the_passenger_rides_berlin_track(berlin):
    """From Alexanderplatz to Zoologischer Garten: red along the U2, walking nowhere, beats
    any shorter walk; then Südstern, the one standard card, partly walked."""
    u2 = [
        "Alexanderplatz",
        "Klosterstraße",
        "Märkisches Museum",
        "Spittelmarkt",
        "Hausvogteiplatz",
        "Stadtmitte",
        "Anton-Wilhelm-Amo-Straße",
        "Potsdamer Platz",
        "Mendelssohn-Bartholdy-Park",
        "Gleisdreieck",
        "Bülowstraße",
        "Nollendorfplatz",
        "Wittenbergplatz",
        "Zoologischer Garten",
    ]
    s = position(
        berlin,
        players=["ann", "bob"],
        owners={"red": "ann", "blue": "bob"},
        tracks={"red": list(itertools.pairwise(u2))},
        at="Alexanderplatz",
        row=["Zoologischer Garten", "Hauptbahnhof", "Tempelhof", "Südstern"],
    )
    opts = passenger.options(s, "express")
    assert [(o["to"], o["colours"], o["walks"]) for o in opts] == [("Zoologischer Garten", ["red"], 0)]
    assert opts[0]["path"] == u2
    s, events = play(s, {"type": "forgo", "count": 4})
    moved = [e for e in events if e["type"] == "passenger_moved"]
    assert moved[0]["to"] == "Zoologischer Garten" and moved[0]["points"] == {"ann": 1}
    assert moved[1]["kind"] == "standard" and moved[1]["to"] == "Südstern" and moved[1]["walks"] >= 1
    # the shortest walk back east rides red as far as it helps, and red scores again
    assert moved[1]["colours"] == ["red"] and moved[1]["points"] == {"ann": 1}
    assert s.breakdown["ann"]["passenger"] == 2 and s.breakdown["bob"]["passenger"] == 0
