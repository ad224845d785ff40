"""Check the London board's routes against a public data set.

    python tools/london_map.py --against DIR   # compare the routes of tools/cities/london.py
                                               # with the tubemaps data set (london.*.csv in DIR)
    python tools/london_map.py [--check]       # the same as `python -m tools.citymap london [--check]`

The board itself is built by the general tool, `tools/citymap.py`, from `tools/cities/london.py`.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools import citymap  # noqa: E402
from tools.cities.london import ROUTES, SAME  # noqa: E402

# --- checking the routes against a public data set -------------------------------------


def same(name: str) -> str:
    return SAME.get(name, name)


def compare_with_tubemaps(folder: Path) -> list[str]:
    """Differences between ROUTES and the tubemaps data set (github.com/nicola/tubemaps,
    datasets/london.*.csv, about 2009). Its names differ a little; its network predates
    the Circle line's Hammersmith branch, Wood Lane, Heathrow Terminal 5 and the Northern
    line's Battersea branch, so those show up here as expected differences."""
    rename = {
        "Picadilly Circus": "Piccadilly Circus",
        "Harrow & Wealdston": "Harrow & Wealdstone",
        "Bromley-By-Bow": "Bromley-by-Bow",
        "Edgware Road (B)": "Edgware Road (Bakerloo)",
        "Edgware Road (C)": "Edgware Road",
        "Shepherd's Bush (C)": "Shepherd's Bush",
        "Shepherd's Bush (H)": "Shepherd's Bush Market",
        "Heathrow Terminals 1, 2 & 3": "Heathrow Terminals 2 & 3",
    }
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
        ours = {frozenset(map(same, p)) for b in branches for p in itertools.pairwise(b)}
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
    raise SystemExit(citymap.main(["london"] + (["--check"] if args.check else [])))


if __name__ == "__main__":
    main()
