"""Small hand-made maps for the flip-and-write tests (parsed with strict=False).

TINY
  A: a1 a2 X a4 Y            (2 windows, 5/3)      X = crossing of A and B
  B: b1 X b3 Z               (2 windows, 4/2)      Z = crossing of B and D
  C: ring c1 c2 Y c4 c5      (2 windows, 6/4)      Y = crossing of A and C; drawn clockwise
  D: d1 Z d3                 (1 window, 3/1)
Special stations (variant): b3, c4. The ring's drawing runs c1 -> c2 -> Y -> c4 -> c5 clockwise
on screen; `ring_clockwise=False` lists the same ring the other way round (same drawing).
"""

from __future__ import annotations

import copy
from typing import Any

from metrobot.games.flipwrite.mapdata import parse_map

_POS = {
    "a1": (50, 500),
    "a2": (150, 500),
    "X": (250, 500),
    "a4": (400, 480),
    "Y": (600, 450),
    "b1": (250, 600),
    "b3": (250, 700),
    "Z": (250, 800),
    "c1": (500, 200),
    "c2": (650, 300),
    "c4": (450, 450),
    "c5": (380, 300),
    "d1": (100, 800),
    "d3": (400, 800),
}
_NAMES = {"X": "Crossing", "Y": "Ringside", "Z": "Junction"}


def tiny_data(*, ring_clockwise: bool = True, special: tuple[str, ...] = ("b3", "c4")) -> dict[str, Any]:
    ring = ["c1", "c2", "Y", "c4", "c5"] if ring_clockwise else ["c1", "c5", "c4", "Y", "c2"]
    return {
        "id": "tiny" if ring_clockwise else "tiny_ccw",
        "name": "Tiny",
        "stations": [
            {"id": sid, "name": _NAMES.get(sid, sid.upper() + " station"), "x": x, "y": y, "special": sid in special}
            for sid, (x, y) in _POS.items()
        ],
        "lines": [
            {"id": "A", "stations": ["a1", "a2", "X", "a4", "Y"], "windows": 2, "high": 5, "low": 3},
            {"id": "B", "stations": ["b1", "X", "b3", "Z"], "windows": 2, "high": 4, "low": 2},
            {"id": "C", "stations": ring, "windows": 2, "high": 6, "low": 4, "ring": True},
            {"id": "D", "stations": ["d1", "Z", "d3"], "windows": 1, "high": 3, "low": 1},
        ],
    }


def tiny(**kw):
    return parse_map(tiny_data(**kw), strict=False)


def long_line_data() -> dict[str, Any]:
    """One long line and a short one crossing it twice-removed: for runs, ends and express hops."""
    st = [f"s{i}" for i in range(1, 11)]
    stations = [{"id": s, "name": f"Stop {s}", "x": 80 * i, "y": 100} for i, s in enumerate(st)]
    stations += [{"id": "t1", "name": "Top", "x": 160, "y": 20}, {"id": "t2", "name": "Bottom", "x": 160, "y": 300}]
    return {
        "id": "long",
        "name": "Long",
        "stations": stations,
        "lines": [
            {"id": "A", "stations": st, "windows": 4, "high": 7, "low": 5},
            {"id": "B", "stations": ["t1", "s3", "t2"], "windows": 2, "high": 2, "low": 1},
        ],
    }


def long_line():
    return parse_map(long_line_data(), strict=False)


SMALL_MAPS = {"tiny": tiny_data, "long": long_line_data}


def small_map_option(name: str) -> dict[str, Any]:
    return copy.deepcopy(SMALL_MAPS[name]())


def synth_data() -> dict[str, Any]:
    """A synthetic city the size of a real sheet: 9 lines on a 10x10 grid, a ring round the
    centre, many crossings, 23 windows and five special stations."""

    def sid(col: int, row: int) -> str:
        return f"r{row}c{col}"

    lines: list[tuple[str, list[str], int, int, int, bool]] = []
    for lid, row in (("A", 1), ("B", 4), ("C", 7)):
        lines.append((lid, [sid(c, row) for c in range(10)], 3, 7, 5, False))
    for lid, col in (("D", 2), ("E", 5), ("F", 8)):
        lines.append((lid, [sid(col, r) for r in range(10)], 3, 7, 5, False))
    lines.append(("G", [sid(i, i) for i in range(10)], 2, 5, 3, False))
    ring = [(3, 3), (4, 3), (5, 3), (6, 3), (6, 4), (6, 5), (6, 6), (5, 6), (4, 6), (3, 6), (3, 5), (3, 4)]
    lines.append(("H", [sid(c, r) for c, r in ring], 2, 9, 6, True))
    lines.append(("I", [sid(c, 9) for c in range(5)], 1, 3, 1, False))
    special = {"r1c5", "r4c2", "r7c8", "r3c6", "r9c2"}
    used = sorted({s for _, ss, *_ in lines for s in ss})
    stations = []
    for s in used:
        row, col = (int(x) for x in s[1:].split("c"))
        stations.append(
            {"id": s, "name": f"Station {s}", "x": 50 + 90 * col, "y": 50 + 90 * row, "special": s in special}
        )
    return {
        "id": "synth",
        "name": "Synthetic city",
        "stations": stations,
        "lines": [
            {"id": lid, "stations": ss, "windows": w, "high": h, "low": lo, "ring": ring}
            for lid, ss, w, h, lo, ring in lines
        ],
    }


SMALL_MAPS["synth"] = synth_data
