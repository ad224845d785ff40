"""The board of On the Underground: loading and validation.

A board is data (one JSON file per city in `maps/`); this module turns it into frozen
objects (`mapmodel.py`) and refuses anything the rules cannot play or the renderer cannot draw:

* stations with unique names, flags and a label direction;
* gaps (the track blocks between two adjacent stations) naming known stations, one gap
  per pair, each with 1-4 slots, one slot per real line sharing that stretch (capped at 4);
* a connected network, the start station, exactly 8 connection stations (which ones is the
  board's choice), 22 express and 33 standard destinations;
* termini that really are line ends: every line serving a terminus has exactly one gap
  there, and a station where every line ends is a terminus;
* a planar drawing: each gap is the straight segment between its stations' (x, y); no two
  gaps cross or touch except at a shared station, no gap passes a station that is not one
  of its ends, and no two stations sit closer than `MIN_STATION_DISTANCE`.

Coordinates are schematic drawing units in a `WIDTH` x `HEIGHT` box, y growing downwards
(as in an image), so a label "n" is drawn above its station.
"""

from __future__ import annotations

import hashlib
import json
import math
from functools import cache
from pathlib import Path
from typing import Any

from ..protocol import is_list, is_object
from .geometry import on_segment, orientation, point_segment_distance, segments_intersect
from .mapmodel import DESTINATION_KINDS, Gap, MapError, Station, UndergroundMap

MAPS_DIR = Path(__file__).with_name("maps")

WIDTH = 160.0
HEIGHT = 100.0
# Two stations closer than this could not both be named legibly.
MIN_STATION_DISTANCE = 2.5
# A gap may not pass closer than this to a station that is not one of its ends.
STATION_CLEARANCE = 1.0

MAX_SLOTS = 4
LABELS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
DESTINATION_COUNTS = {"express": 22, "standard": 33}
# The rules' 8 connection tiles (two of each symbol); which stations carry them is the
# board's choice (London's are the rule book's), so only their number is fixed here.
CONNECTION_COUNT = 8


# --- parsing and validation ---


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise MapError(message)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def canonical_json(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def parse_map(data: Any, *, strict: bool = True) -> UndergroundMap:
    """Validate board JSON and build an UndergroundMap; MapError names the station or gap at fault.

    `strict` also demands what the published game's components fix: exactly 8 connection
    stations (the rules' tiles) and 22 express + 33 standard destinations (one card each). Small
    test boards use strict=False, which keeps every other check."""
    _require(is_object(data), "a map must be a JSON object")
    name = data.get("name")
    _require(isinstance(name, str) and bool(name.strip()), "map needs a non-empty string 'name'")
    title = data.get("title", name)
    _require(isinstance(title, str) and bool(title.strip()), f"map {name}: 'title' must be a non-empty string")
    raw_stations, raw_gaps = data.get("stations"), data.get("gaps")
    _require(is_list(raw_stations) and bool(raw_stations), f"map {name}: 'stations' must be a non-empty list")
    _require(is_list(raw_gaps) and bool(raw_gaps), f"map {name}: 'gaps' must be a non-empty list")

    stations = _parse_stations(name, raw_stations)
    gaps = _parse_gaps(name, raw_gaps, stations)

    start = data.get("start")
    _require(isinstance(start, str) and start in stations, f"map {name}: start station {start!r} is not on the map")
    _check_connected(name, stations, gaps)
    _check_flags(name, stations, gaps, start, strict)
    _check_geometry(name, stations, gaps)

    result = UndergroundMap(name, title, start, stations, tuple(gaps), "")
    digest = hashlib.sha256(canonical_json(result.to_json()).encode("utf-8")).hexdigest()[:16]
    object.__setattr__(result, "digest", digest)
    return result


def _parse_stations(name: str, raw_stations: list[Any]) -> dict[str, Station]:
    stations: dict[str, Station] = {}
    folded: dict[str, str] = {}
    for index, raw in enumerate(raw_stations):
        _require(is_object(raw), f"map {name}: station #{index} must be an object")
        sname = raw.get("name")
        _require(
            isinstance(sname, str) and bool(sname.strip()) and sname == sname.strip(),
            f"map {name}: station #{index} needs a non-empty name without outer spaces",
        )
        _require(sname not in stations, f"map {name}: station {sname!r} appears twice")
        key = sname.casefold()
        _require(key not in folded, f"map {name}: stations {folded.get(key)!r} and {sname!r} differ only in case")
        folded[key] = sname
        x, y = raw.get("x"), raw.get("y")
        _require(
            _is_number(x) and _is_number(y) and 0 <= x <= WIDTH and 0 <= y <= HEIGHT,
            f"map {name}: station {sname!r} needs x in 0..{WIDTH:g} and y in 0..{HEIGHT:g}",
        )
        flags: dict[str, bool] = {}
        for flag in ("terminus", "national_rail", "connection"):
            value = raw.get(flag, False)
            _require(isinstance(value, bool), f"map {name}: station {sname!r}: {flag!r} must be true or false")
            flags[flag] = value
        destination = raw.get("destination")
        _require(
            destination is None or destination in DESTINATION_KINDS,
            f'map {name}: station {sname!r}: destination must be null, "express" or "standard", not {destination!r}',
        )
        label = raw.get("label")
        _require(
            label in LABELS, f"map {name}: station {sname!r}: label must be one of {', '.join(LABELS)}, not {label!r}"
        )
        stations[sname] = Station(
            sname,
            float(x),
            float(y),
            flags["terminus"],
            flags["national_rail"],
            flags["connection"],
            destination,
            label,
        )
    return stations


def _parse_gaps(name: str, raw_gaps: list[Any], stations: dict[str, Station]) -> list[Gap]:
    gaps: list[Gap] = []
    seen: dict[frozenset[str], int] = {}
    for index, raw in enumerate(raw_gaps):
        _require(is_object(raw), f"map {name}: gap #{index} must be an object")
        a, b = raw.get("a"), raw.get("b")
        for end in (a, b):
            _require(
                isinstance(end, str) and end in stations, f"map {name}: gap #{index} names unknown station {end!r}"
            )
        where = f"map {name}: gap #{index} {a}–{b}"
        _require(a != b, f"{where} joins a station to itself")
        pair = frozenset((a, b))
        _require(pair not in seen, f"{where} repeats gap #{seen.get(pair)} between the same stations")
        seen[pair] = index
        lines = raw.get("lines")
        _require(
            is_list(lines) and bool(lines) and all(isinstance(l, str) and l.strip() for l in lines),
            f"{where} needs a non-empty list of line names",
        )
        _require(len(set(lines)) == len(lines), f"{where} lists a line twice")
        slots = raw.get("slots")
        expected = min(MAX_SLOTS, len(lines))
        _require(
            isinstance(slots, int) and not isinstance(slots, bool) and 1 <= slots <= MAX_SLOTS,
            f"{where} needs 1-{MAX_SLOTS} slots, not {slots!r}",
        )
        _require(slots == expected, f"{where} has {slots} slots but {len(lines)} line(s): it needs {expected}")
        gaps.append(Gap(index, a, b, slots, tuple(lines)))
    return gaps


def _check_connected(name: str, stations: dict[str, Station], gaps: list[Gap]) -> None:
    neighbours: dict[str, set[str]] = {s: set() for s in stations}
    for gap in gaps:
        neighbours[gap.a].add(gap.b)
        neighbours[gap.b].add(gap.a)
    first = next(iter(stations))
    seen, todo = {first}, [first]
    while todo:
        for other in neighbours[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    cut_off = [s for s in stations if s not in seen]
    _require(
        not cut_off,
        f"map {name}: the network is not connected: {', '.join(sorted(cut_off)[:5])}"
        f"{' …' if len(cut_off) > 5 else ''} cannot be reached from {first}",
    )


def _check_flags(name: str, stations: dict[str, Station], gaps: list[Gap], start: str, strict: bool) -> None:
    _require(stations[start].destination is None, f"map {name}: the start station {start} may not be a destination")
    if strict:
        connections = sorted(s.name for s in stations.values() if s.connection)
        _require(
            len(connections) == CONNECTION_COUNT,
            f"map {name}: {len(connections)} connection stations ({', '.join(connections) or '-'}); "
            f"the rules have tiles for exactly {CONNECTION_COUNT}",
        )
        for kind, count in DESTINATION_COUNTS.items():
            have = sum(1 for s in stations.values() if s.destination == kind)
            _require(have == count, f"map {name}: {have} {kind} destinations; the deck needs exactly {count}")

    # Termini are line ends: each line serving a terminus has exactly one gap there, and a
    # station where every line ends must be flagged.
    per_line: dict[str, dict[str, int]] = {s: {} for s in stations}
    for gap in gaps:
        for end in (gap.a, gap.b):
            for line in gap.lines:
                per_line[end][line] = per_line[end].get(line, 0) + 1
    for s in stations.values():
        counts = per_line[s.name]
        all_end = bool(counts) and all(n == 1 for n in counts.values())
        if s.terminus:
            through = sorted(line for line, n in counts.items() if n != 1)
            _require(
                all_end, f"map {name}: terminus {s.name} is not a line end: {', '.join(through)} runs on through it"
            )
        else:
            _require(
                not all_end,
                f"map {name}: station {s.name} ends every line serving it "
                f"({', '.join(sorted(counts))}) but is not marked as a terminus",
            )


def _check_geometry(name: str, stations: dict[str, Station], gaps: list[Gap]) -> None:
    points = {s.name: (s.x, s.y) for s in stations.values()}
    ordered = sorted(points.items(), key=lambda kv: kv[1][0])
    for i, (s1, p1) in enumerate(ordered):
        for s2, p2 in ordered[i + 1 :]:
            if p2[0] - p1[0] >= MIN_STATION_DISTANCE:
                break
            distance = math.dist(p1, p2)
            _require(
                distance >= MIN_STATION_DISTANCE,
                f"map {name}: stations {s1} and {s2} are {distance:.2f} apart; "
                f"at least {MIN_STATION_DISTANCE:g} is needed to name both",
            )

    for gap in gaps:
        a, b = points[gap.a], points[gap.b]
        lo_x, hi_x = min(a[0], b[0]) - STATION_CLEARANCE, max(a[0], b[0]) + STATION_CLEARANCE
        lo_y, hi_y = min(a[1], b[1]) - STATION_CLEARANCE, max(a[1], b[1]) + STATION_CLEARANCE
        for s, p in points.items():
            if s in (gap.a, gap.b) or not (lo_x <= p[0] <= hi_x and lo_y <= p[1] <= hi_y):
                continue
            distance = point_segment_distance(p, a, b)
            _require(
                distance >= STATION_CLEARANCE and not (orientation(a, b, p) == 0 and on_segment(a, b, p)),
                f"map {name}: {gap} passes {distance:.2f} from station {s}; it must keep "
                f"{STATION_CLEARANCE:g} clear of stations other than its ends",
            )

    segments = [(gap, points[gap.a], points[gap.b]) for gap in gaps]
    for i, (g1, p1, p2) in enumerate(segments):
        ends = {g1.a, g1.b}
        for g2, q1, q2 in segments[i + 1 :]:
            if g2.a in ends or g2.b in ends:
                continue  # meeting at a shared station is fine; overlaps are caught above
            _require(not segments_intersect(p1, p2, q1, q2), f"map {name}: {g1} and {g2} cross")


def map_names() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


def load_map(name: str = "london") -> UndergroundMap:
    """The board maps/<name>.json, validated once per process (the same object every time)."""
    return _load(name.lower())


@cache
def _load(name: str) -> UndergroundMap:
    path = MAPS_DIR / f"{name}.json"
    if not path.is_file():
        raise MapError("unknown map {name}; maps: {maps}", name=repr(name), maps=", ".join(map_names()) or "-")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise MapError("map file {file} is not valid JSON: {error}", file=path.name, error=str(exc)) from None
    return parse_map(data)
