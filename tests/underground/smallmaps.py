"""Small hand-made boards for the rule tests, registered with the engine under their names.

Every gap carries the line "tube" (plus extra lines for extra slots), so the only termini
are the stations with a single gap, as the board validation expects.

GRID (5 x 4, columns a-e left to right, rows 1-4 top to bottom, 30 x 25 apart), plus
pendant termini: "North End" above b1, "East End" right of e3, "South End" below d4.
  slots: 2 on row 2's horizontal gaps, 3 on column c's vertical gaps, 1 elsewhere.
  National Rail: b1, c3, d4.  Connection stations: b2, d2, b3, d3.
  Express: a2, c1, e3, c4.  Standard: a3, b4, d1, e2, c2, "East End".  Start: c3.

EXAMPLE: the rule book's worked example (see test_passenger.py).
"""

from __future__ import annotations

from typing import Any

from metrobot.games.underground.board import register_map
from metrobot.games.underground.mapdata import parse_map
from metrobot.games.underground.mapmodel import UndergroundMap


def _station(name, x, y, *, terminus=False, nr=False, conn=False, dest=None) -> dict[str, Any]:
    return {
        "name": name,
        "x": x,
        "y": y,
        "terminus": terminus,
        "national_rail": nr,
        "connection": conn,
        "destination": dest,
        "label": "n",
    }


def make_map(data: dict[str, Any]) -> UndergroundMap:
    """A board checked like the real one except for the published counts (8 connection
    stations, 22 + 33 destinations), registered so that games can be played on it."""
    umap = parse_map(data, strict=False)
    register_map(umap)
    return umap


def _gap(a: str, b: str, slots: int = 1) -> dict[str, Any]:
    return {"a": a, "b": b, "slots": slots, "lines": ["tube", "two", "three", "four"][:slots]}


COLS = "abcde"


def grid_data(name: str = "grid") -> dict[str, Any]:
    nr = {"b1", "c3", "d4"}
    conn = {"b2", "d2", "b3", "d3"}
    dest = {
        "a2": "express",
        "c1": "express",
        "e3": "express",
        "c4": "express",
        "a3": "standard",
        "b4": "standard",
        "d1": "standard",
        "e2": "standard",
        "c2": "standard",
    }
    stations = []
    for i, col in enumerate(COLS):
        for row in range(1, 5):
            st = f"{col}{row}"
            stations.append(
                _station(st, 10 + 30 * i, 10 + 25 * (row - 1), nr=st in nr, conn=st in conn, dest=dest.get(st))
            )
    stations += [
        _station("North End", 40, 2, terminus=True),
        _station("East End", 150, 60, terminus=True, dest="standard"),
        _station("South End", 100, 97, terminus=True),
    ]
    gaps = []
    for row in range(1, 5):
        for i in range(4):
            gaps.append(_gap(f"{COLS[i]}{row}", f"{COLS[i + 1]}{row}", 2 if row == 2 else 1))
    for col in COLS:
        for row in range(1, 4):
            gaps.append(_gap(f"{col}{row}", f"{col}{row + 1}", 3 if col == "c" else 1))
    gaps += [_gap("North End", "b1"), _gap("e3", "East End"), _gap("d4", "South End")]
    return {"name": name, "title": "Grid", "start": "c3", "stations": stations, "gaps": gaps}


EXAMPLE_STATIONS = [
    ("Turnham Green", 5, 85, "express"),
    ("Hammersmith", 20, 85, None),
    ("Goldhawk Road", 20, 65, None),
    ("Shepherd's Bush", 20, 45, None),
    ("Holland Park", 40, 45, "standard"),
    ("Notting Hill Gate", 60, 45, None),
    ("Bond Street", 80, 45, None),
    ("Oxford Circus", 100, 45, "express"),
    ("Tottenham Court Road", 120, 45, None),
    ("Leicester Square", 120, 65, "express"),
    ("Charing Cross", 140, 85, "express"),
    ("Baker Street", 80, 25, None),
    ("Great Portland Street", 100, 10, "standard"),
    ("Regent's Park", 100, 28, "standard"),
    ("Warren Street", 120, 25, None),
]
EXAMPLE_GAPS = [
    ("Turnham Green", "Hammersmith"),
    ("Hammersmith", "Goldhawk Road"),
    ("Goldhawk Road", "Shepherd's Bush"),
    ("Shepherd's Bush", "Holland Park"),
    ("Holland Park", "Notting Hill Gate"),
    ("Notting Hill Gate", "Bond Street"),
    ("Bond Street", "Oxford Circus"),
    ("Oxford Circus", "Tottenham Court Road"),
    ("Tottenham Court Road", "Leicester Square"),
    ("Leicester Square", "Charing Cross"),
    ("Bond Street", "Baker Street"),
    ("Baker Street", "Great Portland Street"),
    ("Oxford Circus", "Regent's Park"),
    ("Regent's Park", "Great Portland Street"),
    ("Tottenham Court Road", "Warren Street"),
    ("Warren Street", "Great Portland Street"),
]


def example_data() -> dict[str, Any]:
    stations = [
        _station(n, x, y, terminus=n in ("Turnham Green", "Charing Cross"), dest=d) for n, x, y, d in EXAMPLE_STATIONS
    ]
    return {
        "name": "example",
        "title": "Rule book example",
        "start": "Goldhawk Road",
        "stations": stations,
        "gaps": [_gap(a, b) for a, b in EXAMPLE_GAPS],
    }


GRID = make_map(grid_data())
EXAMPLE = make_map(example_data())


def gid(umap: UndergroundMap, a: str, b: str) -> int:
    gap = umap.gap_between(a, b)
    assert gap is not None, (a, b)
    return gap.id
