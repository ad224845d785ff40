"""Generate (and check) the London board of On the Underground.

    python tools/london_map.py            # write metrobot/games/underground/maps/london.json
    python tools/london_map.py --check    # only compare the file on disk with what this script makes
    python tools/london_map.py --against DIR   # also compare the routes below with the
                                               # tubemaps data set (london.*.csv in DIR)

The board is made from three kinds of data kept here by hand:

* `ROUTES`: every Tube line as the real, complete sequences of its stations (branches as
  separate sequences), as run today (Circle line to Hammersmith since 2009, Wood Lane,
  Heathrow Terminal 5, the Northern line to Battersea Power Station);
* `SAME`: stations the board shows as one (interchanges under two names);
* `POS`: the stations kept on the board and their schematic coordinates.

Every line is then cut down to its kept stations: consecutive kept stations of a line
share a gap; a gap's lines are all the lines that run between those two kept stations
(directly or through left-out stations), its slots their number capped at 4. Termini are
the stations where every line serving them ends; that set is checked against the list
expected here, so a typing mistake in a route cannot move a terminus unnoticed.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot.games.underground.mapdata import parse_map  # noqa: E402

OUT = ROOT / "metrobot" / "games" / "underground" / "maps" / "london.json"

from tools.london_data import ROUTES, SAME, POS, TERMINI, NATIONAL_RAIL, CONNECTIONS, EXPRESS, STANDARD, LABEL, DIRECTIONS  # noqa: E402


# --- making the board ------------------------------------------------------------------

def board_gaps() -> list[tuple[str, str, list[str]]]:
    """(a, b, lines) for every pair of consecutive kept stations of some line, in line order."""
    order: list[frozenset[str]] = []
    ends: dict[frozenset[str], tuple[str, str]] = {}
    lines: dict[frozenset[str], list[str]] = {}
    for line, branches in ROUTES.items():
        for branch in branches:
            kept = [same(s) for s in branch if same(s) in POS]
            for a, b in zip(kept, kept[1:]):
                if a == b:
                    continue
                pair = frozenset((a, b))
                if pair not in lines:
                    order.append(pair)
                    ends[pair] = (a, b)
                    lines[pair] = []
                if line not in lines[pair]:
                    lines[pair].append(line)
    return [(*ends[p], lines[p]) for p in order]


# Label placement: a name is taken to be about LABEL_CHAR units wide per character and
# LABEL_HEIGHT high (the renderer's intended size); it starts LABEL_GAP from the station.
LABEL_CHAR, LABEL_HEIGHT, LABEL_GAP = 0.5, 1.2, 0.8


def label_box(name: str, direction: str) -> tuple[float, float, float, float]:
    x, y = POS[name]
    dx, dy = DIRECTIONS[direction]
    w, h, g = LABEL_CHAR * len(name), LABEL_HEIGHT, LABEL_GAP
    g = g * 0.75 if dx and dy else g
    left = x + g if dx > 0 else x - g - w if dx < 0 else x - w / 2
    top = y + g if dy > 0 else y - g - h if dy < 0 else y - h / 2
    return left, top, left + w, top + h


def _segment_hits_box(p: tuple[float, float], q: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    """Liang-Barsky clipping: does segment p-q enter the box?"""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, start in ((dx, x0, x1, p[0]), (dy, y0, y1, p[1])):
        if d == 0:
            if not lo <= start <= hi:
                return False
            continue
        a, b = (lo - start) / d, (hi - start) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return False
    return True


def place_labels(gaps: list[tuple[str, str, list[str]]]) -> dict[str, str]:
    """Greedy: the busiest stations choose first; each takes the direction whose name box
    overlaps the fewest names already placed, stations and pieces of track."""
    degree = {s: 0 for s in POS}
    for a, b, _ in gaps:
        degree[a] += 1
        degree[b] += 1
    segments = [(POS[a], POS[b]) for a, b, _ in gaps]
    placed: dict[str, tuple[float, float, float, float]] = {}
    result: dict[str, str] = {}
    preference = ["e", "w", "ne", "se", "nw", "sw", "n", "s"]
    for name in sorted(POS, key=lambda s: (-degree[s], s)):
        best, best_cost = "e", math.inf
        for rank, direction in enumerate([LABEL[name]] if name in LABEL else preference):
            box = label_box(name, direction)
            x0, y0, x1, y1 = box
            cost = 0.1 * rank
            if x0 < -2 or x1 > 162 or y0 < -2 or y1 > 102:
                cost += 50
            for other in placed.values():
                w = min(x1, other[2]) - max(x0, other[0])
                h = min(y1, other[3]) - max(y0, other[1])
                if w > 0 and h > 0:
                    cost += 20 + 10 * w * h
            for s, (px, py) in POS.items():
                if s != name and x0 - 0.6 <= px <= x1 + 0.6 and y0 - 0.6 <= py <= y1 + 0.6:
                    cost += 15
            cost += 3 * sum(1 for p, q in segments if _segment_hits_box(p, q, box))
            if cost < best_cost:
                best, best_cost = direction, cost
        placed[name] = label_box(name, best)
        result[name] = best
    return result


def build() -> dict:
    gaps = board_gaps()
    neighbours: dict[str, list[str]] = {s: [] for s in POS}
    per_line: dict[str, dict[str, int]] = {s: {} for s in POS}
    for a, b, lines in gaps:
        neighbours[a].append(b)
        neighbours[b].append(a)
        for end in (a, b):
            for line in lines:
                per_line[end][line] = per_line[end].get(line, 0) + 1
    termini = {s for s, counts in per_line.items() if counts and all(n == 1 for n in counts.values())}
    if termini != TERMINI:
        raise SystemExit(f"termini differ from the expected list: unexpected {sorted(termini - TERMINI)}, "
                         f"missing {sorted(TERMINI - termini)}")
    for group in (NATIONAL_RAIL, CONNECTIONS, set(EXPRESS), set(STANDARD)):
        unknown = group - set(POS)
        if unknown:
            raise SystemExit(f"not on the board: {sorted(unknown)}")
    labels = place_labels(gaps)
    stations = []
    for name, (x, y) in POS.items():
        stations.append({
            "name": name, "x": float(x), "y": float(y), "terminus": name in termini,
            "national_rail": name in NATIONAL_RAIL, "connection": name in CONNECTIONS,
            "destination": "express" if name in EXPRESS else "standard" if name in STANDARD else None,
            "label": labels[name],
        })
    return {
        "name": "london", "title": "London Underground", "start": "Euston", "stations": stations,
        "gaps": [{"a": a, "b": b, "slots": min(4, len(lines)), "lines": lines} for a, b, lines in gaps],
    }


def dumps(data: dict) -> str:
    """JSON with one station or gap per line, so that changes read well in a diff."""
    head = {k: data[k] for k in ("name", "title", "start")}
    parts = [json.dumps(head, ensure_ascii=False)[:-1] + ","]
    for key in ("stations", "gaps"):
        rows = ",\n  ".join(json.dumps(row, ensure_ascii=False) for row in data[key])
        parts.append(f' "{key}": [\n  {rows}\n ]' + ("," if key == "stations" else ""))
    return "\n".join(parts) + "\n}\n"


# --- checking the routes against a public data set -------------------------------------

def same(name: str) -> str:
    return SAME.get(name, name)


def compare_with_tubemaps(folder: Path) -> list[str]:
    """Differences between ROUTES and the tubemaps data set (github.com/nicola/tubemaps,
    datasets/london.*.csv, about 2009). Its names differ a little; its network predates
    the Circle line's Hammersmith branch, Wood Lane, Heathrow Terminal 5 and the Northern
    line's Battersea branch, so those show up here as expected differences."""
    rename = {"Picadilly Circus": "Piccadilly Circus", "Harrow & Wealdston": "Harrow & Wealdstone",
              "Bromley-By-Bow": "Bromley-by-Bow", "Edgware Road (B)": "Edgware Road (Bakerloo)",
              "Edgware Road (C)": "Edgware Road", "Shepherd's Bush (C)": "Shepherd's Bush",
              "Shepherd's Bush (H)": "Shepherd's Bush Market",
              "Heathrow Terminals 1, 2 & 3": "Heathrow Terminals 2 & 3"}
    with open(folder / "london.stations.csv", newline="") as f:
        names = {r["id"]: same(rename.get(r["name"], r["name"])) for r in csv.DictReader(f)}
    with open(folder / "london.lines.csv", newline="") as f:
        line_names = {r["line"]: r["name"].removesuffix(" Line") for r in csv.DictReader(f)}
    theirs: dict[str, set[frozenset[str]]] = {}  # compared with SAME applied on both sides
    with open(folder / "london.connections.csv", newline="") as f:
        for r in csv.DictReader(f):
            line = line_names[r["line"]]
            theirs.setdefault(line, set()).add(frozenset((names[r["station1"]], names[r["station2"]])))
    notes = []
    for line, branches in ROUTES.items():
        ours = {frozenset(map(same, p)) for b in branches for p in zip(b, b[1:])}
        for pair in sorted(ours - theirs.get(line, set()), key=sorted):
            notes.append(f"{line}: only here: {' – '.join(sorted(pair))}")
        for pair in sorted(theirs.get(line, set()) - ours, key=sorted):
            notes.append(f"{line}: only in tubemaps: {' – '.join(sorted(pair))}")
    return notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the file, do not write")
    parser.add_argument("--against", type=Path, help="folder with the tubemaps london.*.csv files")
    args = parser.parse_args()
    if args.against:
        for note in compare_with_tubemaps(args.against):
            print(note)
    data = build()
    board = parse_map(data)  # the loader's full validation
    text = dumps(data)
    assert json.loads(text) == data
    if args.check:
        if not OUT.is_file() or OUT.read_text(encoding="utf-8") != text:
            raise SystemExit(f"{OUT.relative_to(ROOT)} is not what {Path(__file__).name} makes")
        print(f"{OUT.relative_to(ROOT)} is up to date ({board.digest})")
        return
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(board.stations)} stations, {len(board.gaps)} gaps, "
          f"digest {board.digest}")


if __name__ == "__main__":
    main()
