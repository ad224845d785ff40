"""Build (and check) the board of On the Underground for any city.

    python -m tools.citymap london            # write metrobot/games/underground/maps/london.json
    python -m tools.citymap berlin --check    # only compare the file on disk with what it makes
    python -m tools.citymap --all --check     # every city of tools/cities/

A city is a module `tools/cities/<city>.py` holding, by hand:

* `TITLE`, `START` (the passenger's first station; not a destination);
* `ROUTES`: line -> the real station sequences of its branches, as run today;
* `SAME`: stations the board shows as one (interchanges under two names, or merged so the
  drawing needs no crossing), real name -> board name;
* `LEFT_OUT`: the stations of ROUTES not on the board;
* `POS`: every kept station -> its schematic (x, y) in the 160 x 100 box, y down;
* `TERMINI` (checked against the line ends the routes give), `NATIONAL_RAIL`,
  `CONNECTIONS` (8), `EXPRESS` (22), `STANDARD` (33), and `LABEL` (name side overrides).

Every line is cut down to its kept stations: consecutive kept stations of a line share a
gap; a gap's lines are all the lines that run between those two kept stations (directly or
through left-out stations), its slots their number capped at 4. Every mistake is a
`CityMapError` naming the stations at fault; the result then passes the loader's own
validation (`parse_map`: planarity, spacing, counts), whose messages name stations too.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from metrobot.games.underground.mapdata import CONNECTION_COUNT, DESTINATION_COUNTS, parse_map  # noqa: E402
from metrobot.games.underground.mapmodel import MapError  # noqa: E402
from metrobot.games.underground.notation import name_key  # noqa: E402
from tools.labels import label_overlaps, place_labels  # noqa: E402

MAPS_DIR = ROOT / "metrobot" / "games" / "underground" / "maps"
CITIES_DIR = Path(__file__).with_name("cities")
FIELDS = (
    "TITLE",
    "START",
    "ROUTES",
    "SAME",
    "LEFT_OUT",
    "POS",
    "TERMINI",
    "NATIONAL_RAIL",
    "CONNECTIONS",
    "EXPRESS",
    "STANDARD",
    "LABEL",
)


class CityMapError(Exception):
    """A city's data that cannot make a board; the message names the stations at fault."""


def cities() -> list[str]:
    return sorted(p.stem for p in CITIES_DIR.glob("*.py") if not p.stem.startswith("_"))


def load_city(name: str) -> ModuleType:
    if name not in cities():
        raise CityMapError(f"no city {name!r} in tools/cities (cities: {', '.join(cities())})")
    return importlib.import_module(f"tools.cities.{name}")


def _names(items) -> str:
    return ", ".join(sorted(items))


# --- checking the data ---------------------------------------------------------------


def check_stations(city: Any) -> None:
    """Every station a route names is either kept (with coordinates) or left out, once."""
    pos, left, same = city.POS, set(city.LEFT_OUT), city.SAME
    for real, shown in same.items():
        if shown not in pos:
            raise CityMapError(f"SAME shows {real} as {shown}, which has no coordinates in POS")
    both = set(pos) & left
    if both:
        raise CityMapError(f"kept (in POS) and left out at once: {_names(both)}")
    served: set[str] = set()
    for line, branches in city.ROUTES.items():
        for branch in branches:
            if len(branch) < 2:
                raise CityMapError(f"line {line}: a branch needs two stations at least, not {branch}")
            for station in branch:
                shown = same.get(station, station)
                served.add(shown)
                if shown not in pos and shown not in left:
                    raise CityMapError(
                        f"line {line}: station {station} has no coordinates in POS and is not in LEFT_OUT"
                    )
    for kind, group in (("kept", set(pos)), ("left out", left)):
        idle = group - served
        if idle:
            raise CityMapError(f"{kind} but served by no line: {_names(idle)}")
    keys: dict[str, str] = {}
    for station in pos:
        key = name_key(station)
        if key in keys:
            raise CityMapError(f"stations {keys[key]} and {station} would be typed the same ({key!r})")
        keys[key] = station


def check_flags(city: Any) -> None:
    """Flags go on kept stations, in the numbers the game's components have."""
    pos, left = set(city.POS), set(city.LEFT_OUT)
    groups = {
        "START": {city.START},
        "TERMINI": set(city.TERMINI),
        "NATIONAL_RAIL": set(city.NATIONAL_RAIL),
        "CONNECTIONS": set(city.CONNECTIONS),
        "EXPRESS": set(city.EXPRESS),
        "STANDARD": set(city.STANDARD),
        "LABEL": set(city.LABEL),
    }
    for flag, group in groups.items():
        if group & left:
            raise CityMapError(f"{flag} names left-out station(s): {_names(group & left)}")
        if group - pos:
            raise CityMapError(f"{flag} names station(s) not on the board: {_names(group - pos)}")
    for kind, listed in (("EXPRESS", city.EXPRESS), ("STANDARD", city.STANDARD)):
        twice = {s for s in listed if listed.count(s) > 1}
        if twice:
            raise CityMapError(f"{kind} lists {_names(twice)} twice")
    both = set(city.EXPRESS) & set(city.STANDARD)
    if both:
        raise CityMapError(f"express and standard destination at once: {_names(both)}")
    if city.START in set(city.EXPRESS) | set(city.STANDARD):
        raise CityMapError(f"the start station {city.START} may not be a destination")
    if len(city.CONNECTIONS) != CONNECTION_COUNT:
        raise CityMapError(
            f"{len(city.CONNECTIONS)} connection stations ({_names(city.CONNECTIONS)}); "
            f"the rules have tiles for {CONNECTION_COUNT}"
        )
    for kind, listed in (("express", city.EXPRESS), ("standard", city.STANDARD)):
        if len(listed) != DESTINATION_COUNTS[kind]:
            raise CityMapError(f"{len(listed)} {kind} destinations; the deck has {DESTINATION_COUNTS[kind]}")
    bad = {s: d for s, d in city.LABEL.items() if d not in ("n", "ne", "e", "se", "s", "sw", "w", "nw")}
    if bad:
        raise CityMapError(f"LABEL sides must be compass points: {bad}")


# --- making the board ----------------------------------------------------------------


def board_gaps(city: Any) -> list[tuple[str, str, list[str]]]:
    """(a, b, lines) for every pair of consecutive kept stations of some line, in line order."""
    order: list[frozenset[str]] = []
    ends: dict[frozenset[str], tuple[str, str]] = {}
    lines: dict[frozenset[str], list[str]] = {}
    for line, branches in city.ROUTES.items():
        for branch in branches:
            kept = [city.SAME.get(s, s) for s in branch if city.SAME.get(s, s) in city.POS]
            for a, b in itertools.pairwise(kept):
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


def line_ends(city: Any, gaps: list[tuple[str, str, list[str]]]) -> set[str]:
    """Kept stations where every line serving them ends."""
    per_line: dict[str, dict[str, int]] = {s: {} for s in city.POS}
    for a, b, lines in gaps:
        for end in (a, b):
            for line in lines:
                per_line[end][line] = per_line[end].get(line, 0) + 1
    return {s for s, counts in per_line.items() if counts and all(n == 1 for n in counts.values())}


def build(city: Any, name: str) -> dict:
    """The board JSON of a city's data module; CityMapError names what is wrong."""
    missing = [f for f in FIELDS if not hasattr(city, f)]
    if missing:
        raise CityMapError(f"city {name} lacks {', '.join(missing)}")
    check_stations(city)
    check_flags(city)
    gaps = board_gaps(city)
    termini, expected = line_ends(city, gaps), set(city.TERMINI)
    if termini != expected:
        raise CityMapError(
            f"termini differ from TERMINI: line ends not listed {sorted(termini - expected)}, "
            f"listed but not line ends {sorted(expected - termini)}"
        )
    labels = place_labels(city.POS, gaps, city.LABEL)
    stations = [
        {
            "name": station,
            "x": float(x),
            "y": float(y),
            "terminus": station in termini,
            "national_rail": station in city.NATIONAL_RAIL,
            "connection": station in city.CONNECTIONS,
            "destination": "express" if station in city.EXPRESS else "standard" if station in city.STANDARD else None,
            "label": labels[station],
        }
        for station, (x, y) in city.POS.items()
    ]
    data = {
        "name": name,
        "title": city.TITLE,
        "start": city.START,
        "stations": stations,
        "gaps": [{"a": a, "b": b, "slots": min(4, len(lines)), "lines": lines} for a, b, lines in gaps],
    }
    try:
        parse_map(data)
    except MapError as exc:
        raise CityMapError(str(exc)) from None
    return data


def check_labels(city: Any, data: dict) -> None:
    """No name drawn over another name (as the label boxes estimate them)."""
    clashes = label_overlaps(city.POS, {s["name"]: s["label"] for s in data["stations"]})
    if clashes:
        raise CityMapError("names drawn over each other: " + "; ".join(f"{a} / {b}" for a, b in clashes[:8]))


def dumps(data: dict) -> str:
    """JSON with one station or gap per line, so that changes read well in a diff."""
    head = {k: data[k] for k in ("name", "title", "start")}
    parts = [json.dumps(head, ensure_ascii=False)[:-1] + ","]
    for key in ("stations", "gaps"):
        rows = ",\n  ".join(json.dumps(row, ensure_ascii=False) for row in data[key])
        parts.append(f' "{key}": [\n  {rows}\n ]' + ("," if key == "stations" else ""))
    return "\n".join(parts) + "\n}\n"


def make(name: str) -> str:
    """The file text of a city's board, checked."""
    city = load_city(name)
    data = build(city, name)
    check_labels(city, data)
    text = dumps(data)
    assert json.loads(text) == data
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.citymap", description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("city", nargs="?", help=f"one of {', '.join(cities())}")
    parser.add_argument("--all", action="store_true", help="every city")
    parser.add_argument("--check", action="store_true", help="compare with the file, do not write")
    args = parser.parse_args(argv)
    names = cities() if args.all else [args.city] if args.city else []
    if not names:
        parser.error("name a city or give --all")
    for name in names:
        try:
            text = make(name)
        except CityMapError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return 1
        out = MAPS_DIR / f"{name}.json"
        digest = parse_map(json.loads(text)).digest
        if args.check:
            if not out.is_file() or out.read_text(encoding="utf-8") != text:
                print(f"{out.relative_to(ROOT)} is not what tools/citymap.py makes", file=sys.stderr)
                return 1
            print(f"{out.relative_to(ROOT)} is up to date ({digest})")
            continue
        out.write_text(text, encoding="utf-8")
        data = json.loads(text)
        print(
            f"wrote {out.relative_to(ROOT)}: {len(data['stations'])} stations, {len(data['gaps'])} gaps, "
            f"digest {digest}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
