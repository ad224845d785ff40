"""The board data of On the Underground: the London file, and every validation rule on small maps."""

from __future__ import annotations

import itertools
import json

import pytest

from metrobot.games.protocol import BadInput
from metrobot.games.underground import mapdata
from metrobot.games.underground.mapdata import load_map, map_names, parse_map, segments_intersect
from metrobot.games.underground.mapmodel import MapError, UndergroundMap

# The rule book's connection stations on the London board.
CONNECTION_STATIONS = frozenset(
    {
        "Aldgate",
        "Baker Street",
        "Charing Cross",
        "Elephant & Castle",
        "Hammersmith",
        "King's Cross St. Pancras",
        "Notting Hill Gate",
        "Victoria",
    }
)

# --- a small valid board: 60 stations on a 10 x 6 grid joined as one snake-shaped line ---

ROWS, COLS = 6, 10


def _name(r: int, c: int) -> str:
    index = r * COLS + c
    special = sorted(CONNECTION_STATIONS) + ["Euston"]
    return special[index] if index < len(special) else f"S{index}"


def small_map() -> dict:
    stations, gaps = [], []
    for r in range(ROWS):
        for c in range(COLS):
            stations.append(
                {
                    "name": _name(r, c),
                    "x": 5.0 + 10 * c,
                    "y": 5.0 + 10 * r,
                    "terminus": False,
                    "national_rail": False,
                    "connection": _name(r, c) in CONNECTION_STATIONS,
                    "destination": None,
                    "label": "n",
                }
            )
    for r in range(ROWS):
        for c in range(COLS - 1):
            gaps.append({"a": _name(r, c), "b": _name(r, c + 1), "slots": 1, "lines": ["L"]})
        if r + 1 < ROWS:
            c = COLS - 1 if r % 2 == 0 else 0
            gaps.append({"a": _name(r, c), "b": _name(r + 1, c), "slots": 1, "lines": ["L"]})
    # the snake's two ends
    for s in stations:
        if s["name"] in (_name(0, 0), _name(ROWS - 1, 0)):
            s["terminus"] = True
    others = [s for s in stations if s["name"] != "Euston"]
    for s in others[:22]:
        s["destination"] = "express"
    for s in others[22:55]:
        s["destination"] = "standard"
    return {"name": "grid", "title": "Grid", "start": "Euston", "stations": stations, "gaps": gaps}


def station(data: dict, name: str) -> dict:
    return next(s for s in data["stations"] if s["name"] == name)


def broken(message: str, data: dict) -> None:
    with pytest.raises(MapError) as info:
        parse_map(data)
    assert message in str(info.value)


def test_small_map_is_valid():
    board = parse_map(small_map())
    assert len(board.stations) == 60 and len(board.gaps) == 59
    assert isinstance(board, UndergroundMap) and len(board.digest) == 16
    assert sorted(board.connection_stations()) == sorted(CONNECTION_STATIONS)
    assert len(board.destinations("express")) == 22 and len(board.destinations("standard")) == 33
    a, b = _name(0, 0), _name(0, 1)
    gap = board.gap_between(b, a)
    assert gap is not None and {gap.a, gap.b} == {a, b} and board.gap_between(a, _name(1, 1)) is None
    assert board.other_end(gap, a) == b and board.other_end(gap, b) == a
    with pytest.raises(MapError):
        board.other_end(gap, _name(3, 3))
    assert board.gaps_at(a) == (gap,)
    assert len(board.gaps_at(_name(0, 5))) == 2
    g = board.graph()
    assert g.number_of_nodes() == 60 and g.number_of_edges() == 59
    assert g.edges[a, b]["gap"] == gap.id
    assert board.graph() is g
    with pytest.raises(MapError, match="kind"):
        board.destinations("gold")


def test_digest_is_canonical():
    data = small_map()
    shuffled = json.loads(json.dumps(data))
    shuffled["stations"] = [dict(reversed(list(s.items()))) for s in shuffled["stations"]]
    assert parse_map(shuffled).digest == parse_map(data).digest
    station(data, "S20")["x"] += 0.5
    assert parse_map(data).digest != parse_map(shuffled).digest


def test_map_error_is_bad_input():
    assert issubclass(MapError, BadInput)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["stations"].append(dict(d["stations"][20])), "station 'S20' appears twice"),
        (lambda d: station(d, "S20").update(name=""), "station #20 needs a non-empty name"),
        (lambda d: station(d, "S20").update(label="up"), "station 'S20': label must be one of"),
        (lambda d: station(d, "S20").update(x=500.0), "station 'S20' needs x in"),
        (lambda d: station(d, "S20").update(destination="gold"), "station 'S20': destination must be"),
        (lambda d: station(d, "S20").update(national_rail="yes"), "station 'S20': 'national_rail' must be"),
        (
            lambda d: d["gaps"].append({"a": "S20", "b": "Nowhere", "slots": 1, "lines": ["L"]}),
            "names unknown station 'Nowhere'",
        ),
        (
            lambda d: d["gaps"].append({"a": "S20", "b": "S20", "slots": 1, "lines": ["L"]}),
            "S20–S20 joins a station to itself",
        ),
        (lambda d: d["gaps"].append({"a": "S21", "b": "S20", "slots": 1, "lines": ["M"]}), "S21–S20 repeats gap #"),
        (lambda d: d["gaps"][0].update(slots=2), "has 2 slots but 1 line(s): it needs 1"),
        (lambda d: d["gaps"][0].update(lines=["A", "B", "C", "D", "E"], slots=5), "needs 1-4 slots, not 5"),
        (lambda d: d["gaps"][3].update(lines=["L", "A", "B", "C", "D"], slots=4), None),  # capped at 4
        (lambda d: d["gaps"][0].update(lines=[]), "needs a non-empty list of line names"),
        (lambda d: d["gaps"][0].update(lines=["L", "L"], slots=2), "lists a line twice"),
        (lambda d: d.update(start="Nowhere"), "start station 'Nowhere' is not on the map"),
    ],
)
def test_station_and_gap_errors(mutate, message):
    data = small_map()
    mutate(data)
    if message is None:
        parse_map(data)
    else:
        broken(message, data)


def test_disconnected():
    data = small_map()
    data["gaps"] = [g for g in data["gaps"] if {g["a"], g["b"]} != {_name(2, 9), _name(3, 9)}]
    broken("the network is not connected", data)


def test_connection_stations_exactly_eight():
    data = small_map()
    station(data, "Victoria")["connection"] = False
    broken("7 connection stations (Aldgate, Baker Street,", data)
    data = small_map()
    station(data, "S30")["connection"] = True
    broken("9 connection stations", data)
    data = small_map()  # which eight is the board's choice
    station(data, "Victoria")["connection"] = False
    station(data, "S30")["connection"] = True
    assert "S30" in parse_map(data).connection_stations()


def test_destination_counts_and_start():
    data = small_map()
    next(s for s in data["stations"] if s["destination"] == "express")["destination"] = None
    broken("21 express destinations; the deck needs exactly 22", data)
    data = small_map()
    next(s for s in data["stations"] if s["destination"] == "standard")["destination"] = "express"
    broken("23 express destinations", data)
    data = small_map()
    station(data, "Euston")["destination"] = "standard"
    broken("the start station Euston may not be a destination", data)


def test_not_strict_skips_only_the_component_counts():
    data = small_map()
    station(data, "Victoria")["connection"] = False
    station(data, "S30")["connection"] = True
    next(s for s in data["stations"] if s["destination"] == "express")["destination"] = None
    broken("21 express destinations", data)
    board = parse_map(data, strict=False)
    assert "S30" in board.connection_stations() and len(board.destinations("express")) == 21
    station(data, "Euston")["destination"] = "standard"
    with pytest.raises(MapError, match="may not be a destination"):
        parse_map(data, strict=False)
    data = small_map()
    data["gaps"].append({"a": "S21", "b": "S32", "slots": 1, "lines": ["X"]})
    data["gaps"].append({"a": "S22", "b": "S31", "slots": 1, "lines": ["X"]})
    with pytest.raises(MapError, match="cross"):
        parse_map(data, strict=False)


def test_termini_are_line_ends():
    data = small_map()
    station(data, "S30")["terminus"] = True
    broken("terminus S30 is not a line end: L runs on through it", data)
    data = small_map()
    station(data, _name(0, 0))["terminus"] = False
    broken(f"station {_name(0, 0)} ends every line serving it (L) but is not marked as a terminus", data)
    # several lines may end at one terminus (Ealing Broadway), each with its own single gap
    data = small_map()
    end = _name(ROWS - 1, 0)
    data["stations"].append(
        {
            "name": "Spur",
            "x": 5.0,
            "y": 62.0,
            "terminus": False,
            "national_rail": False,
            "connection": False,
            "destination": None,
            "label": "s",
        }
    )
    data["gaps"].append({"a": end, "b": "Spur", "slots": 1, "lines": ["M"]})
    broken("station Spur ends every line serving it (M) but is not marked as a terminus", data)
    station(data, "Spur")["terminus"] = True
    board = parse_map(data)
    assert board.stations[end].terminus and len(board.gaps_at(end)) == 2


def test_crossing_gaps():
    data = small_map()
    data["gaps"].append({"a": "S21", "b": "S32", "slots": 1, "lines": ["X"]})
    data["gaps"].append({"a": "S22", "b": "S31", "slots": 1, "lines": ["X"]})
    broken("S21–S32 and gap #60 S22–S31 cross", data)


def test_gap_through_a_station():
    data = small_map()
    data["gaps"].append({"a": "S20", "b": "S22", "slots": 1, "lines": ["X"]})
    broken("gap #59 S20–S22 passes 0.00 from station S21", data)
    station(data, "S21")["y"] -= 0.5
    broken("gap #59 S20–S22 passes 0.50 from station S21", data)
    station(data, "S21")["y"] -= 1.0  # now 1.5 off the straight line: clear enough
    parse_map(data)


def test_stations_too_close():
    data = small_map()
    station(data, "S20")["x"] = station(data, "S21")["x"] - 1.0
    broken("stations S20 and S21 are 1.00 apart", data)


@pytest.mark.parametrize(
    "p1, p2, q1, q2, expected",
    [
        ((0, 0), (2, 2), (0, 2), (2, 0), True),  # proper crossing
        ((0, 0), (2, 0), (1, 0), (1, 1), True),  # T: an end on the other segment
        ((0, 0), (2, 0), (1, 0.1), (1, 1), False),
        ((0, 0), (2, 0), (1, 0), (3, 0), True),  # collinear overlap
        ((0, 0), (1, 0), (2, 0), (3, 0), False),  # collinear, apart
        ((0, 0), (1, 1), (1, 1), (2, 0), True),  # shared end point
        ((0, 0), (1, 1), (0.5, 0.50000001), (0.5, 2), False),
        ((0.1, 0.2), (0.3, 0.6), (0.2, 0.4), (5, 5), True),  # exact on the line despite float noise
    ],
)
def test_segments_intersect(p1, p2, q1, q2, expected):
    assert segments_intersect(p1, p2, q1, q2) is expected
    assert segments_intersect(q2, q1, p2, p1) is expected


def test_unknown_map():
    with pytest.raises(MapError, match="unknown map"):
        load_map("atlantis")


# --- the London board ---

TUBE_LINES = {
    "Bakerloo",
    "Central",
    "Circle",
    "District",
    "Hammersmith & City",
    "Jubilee",
    "Metropolitan",
    "Northern",
    "Piccadilly",
    "Victoria",
    "Waterloo & City",
}


@pytest.fixture(scope="module")
def london() -> UndergroundMap:
    return load_map()


def lines_between(board: UndergroundMap, a: str, b: str) -> set[str] | None:
    gap = board.gap_between(a, b)
    return None if gap is None else set(gap.lines)


def test_london_loads_with_the_expected_counts(london):
    assert "london" in map_names() and load_map("london") is london
    assert london.name == "london" and london.start == "Euston" and len(london.digest) == 16
    assert 120 <= len(london.stations) <= 180
    assert len(london.destinations("express")) == 22 and len(london.destinations("standard")) == 33
    assert len(set(london.destinations("express")) | set(london.destinations("standard"))) == 55
    assert sorted(london.connection_stations()) == sorted(CONNECTION_STATIONS)
    assert london.stations["Euston"].destination is None
    assert {line for gap in london.gaps for line in gap.lines} == TUBE_LINES
    for gap in london.gaps:
        assert gap.slots == min(4, len(gap.lines))


def test_london_file_is_what_the_general_map_tool_makes(london):
    from tools import citymap

    text = (mapdata.MAPS_DIR / "london.json").read_text(encoding="utf-8")
    assert citymap.make("london") == text
    assert parse_map(json.loads(text)).digest == london.digest == "c4e08241ef5d767d"  # games in progress


def test_london_each_line_is_one_connected_piece(london):
    import networkx as nx

    for line in TUBE_LINES:
        g = nx.Graph((gap.a, gap.b) for gap in london.gaps if line in gap.lines)
        assert nx.is_connected(g), line
    assert nx.is_connected(london.graph()) and nx.check_planarity(london.graph())[0]


@pytest.mark.parametrize(
    "a, b, lines",
    [
        ("Oxford Circus", "Bond Street", {"Central"}),
        ("Baker Street", "Great Portland Street", {"Circle", "Hammersmith & City", "Metropolitan"}),
        ("Euston", "Warren Street", {"Northern", "Victoria"}),
        ("Waterloo", "Bank", {"Waterloo & City"}),
        ("Bank", "London Bridge", {"Northern"}),
        ("Paddington", "Edgware Road", {"Bakerloo", "Circle", "District", "Hammersmith & City"}),
        ("South Kensington", "Gloucester Road", {"Circle", "District", "Piccadilly"}),
        ("Earl's Court", "Gloucester Road", {"District", "Piccadilly"}),
        ("Green Park", "Westminster", {"Jubilee"}),
        ("King's Cross St. Pancras", "Caledonian Road", {"Piccadilly"}),
        ("King's Cross St. Pancras", "Angel", {"Northern"}),
        ("Stockwell", "Brixton", {"Victoria"}),
        ("Finchley Central", "Mill Hill East", {"Northern"}),
        ("Kennington", "Battersea Power Station", {"Northern"}),
        ("Liverpool Street", "Aldgate East", {"Hammersmith & City"}),
        ("West Ham", "Stratford", {"Jubilee"}),
        ("Ruislip", "Uxbridge", {"Metropolitan", "Piccadilly"}),
        ("Oxford Circus", "Piccadilly Circus", {"Bakerloo"}),
        ("Oxford Circus", "Tottenham Court Road", {"Central"}),
        # the worked example of the rule book
        ("Goldhawk Road", "Shepherd's Bush", {"Circle", "Hammersmith & City"}),
        ("Goldhawk Road", "Hammersmith", {"Circle", "Hammersmith & City"}),
        ("Hammersmith", "Turnham Green", {"District", "Piccadilly"}),
    ],
)
def test_london_adjacency(london, a, b, lines):
    assert lines_between(london, a, b) == lines


@pytest.mark.parametrize(
    "a, b",
    [
        ("Oxford Circus", "Leicester Square"),
        ("Euston", "Baker Street"),
        ("Bank", "Barbican"),
        ("Waterloo", "Victoria"),
        ("Shepherd's Bush", "Hammersmith"),
        ("Turnham Green", "Goldhawk Road"),
    ],
)
def test_london_not_adjacent(london, a, b):
    assert london.gap_between(a, b) is None


def test_london_worked_example(london):
    """Goldhawk Road: Oxford Circus is one walk then the Central line; Turnham Green is two walks."""
    import networkx as nx

    st = london.stations
    assert [st[s].destination for s in ("Leicester Square", "Oxford Circus", "Turnham Green")] == ["express"] * 3
    assert st["Great Portland Street"].destination == "standard"
    assert {london.other_end(g, "Goldhawk Road") for g in london.gaps_at("Goldhawk Road")} == {
        "Shepherd's Bush",
        "Hammersmith",
    }
    central = [
        "Shepherd's Bush",
        "Holland Park",
        "Notting Hill Gate",
        "Queensway",
        "Lancaster Gate",
        "Marble Arch",
        "Bond Street",
        "Oxford Circus",
    ]
    for a, b in itertools.pairwise(central):
        assert "Central" in london.gap_between(a, b).lines
    assert nx.shortest_path_length(london.graph(), "Goldhawk Road", "Turnham Green") == 2


def test_london_flags(london):
    st = london.stations
    assert set(london.termini()) == {
        "Harrow & Wealdstone",
        "West Ruislip",
        "Ealing Broadway",
        "Epping",
        "Upminster",
        "Richmond",
        "Wimbledon",
        "Stanmore",
        "Amersham",
        "Chesham",
        "Watford",
        "Uxbridge",
        "Edgware",
        "Morden",
        "High Barnet",
        "Mill Hill East",
        "Battersea Power Station",
        "Cockfosters",
        "Heathrow",
        "Brixton",
        "Walthamstow Central",
    }
    # Ealing Broadway ends both the Central and the District line: two gaps, one per line.
    assert len(london.gaps_at("Ealing Broadway")) == 2
    assert all(len(london.gaps_at(t)) == 1 for t in london.termini() if t != "Ealing Broadway")
    for name in (
        "Euston",
        "King's Cross St. Pancras",
        "Paddington",
        "Marylebone",
        "Liverpool Street",
        "Waterloo",
        "Victoria",
        "London Bridge",
        "Charing Cross",
        "Cannon Street",
        "Blackfriars",
        "Moorgate",
        "Stratford",
        "Ealing Broadway",
        "Richmond",
        "Wimbledon",
        "Harrow & Wealdstone",
    ):
        assert st[name].national_rail, name
    for name in ("Wembley Park", "Bank", "Oxford Circus", "Walthamstow Central", "Canary Wharf"):
        assert not st[name].national_rail, name
    assert {s.label for s in st.values()} <= set(mapdata.LABELS)


def test_london_drawing_box_and_spacing(london):
    import math

    pts = [(s.x, s.y) for s in london.stations.values()]
    assert min(x for x, _ in pts) >= 0 and max(x for x, _ in pts) <= mapdata.WIDTH
    assert min(y for _, y in pts) >= 0 and max(y for _, y in pts) <= mapdata.HEIGHT
    closest = min(math.dist(p, q) for i, p in enumerate(pts) for q in pts[i + 1 :])
    assert closest >= 3.0  # comfortably above the validator's minimum
