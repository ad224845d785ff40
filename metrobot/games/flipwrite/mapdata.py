"""City maps of the flip-and-write game: loading and validation.

A map is data (one JSON file per city in `maps/`); this module turns it into frozen
objects and refuses anything the rules cannot play: lines that name unknown stations,
one real interchange split into two stations, windows or values out of range.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from ..protocol import BadInput, is_list, is_object

MAPS_DIR = Path(__file__).with_name("maps")
LINE_IDS = "ABCDEFGHIJ"
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
# Schematic drawing coordinates live in this box (the renderer scales it).
COORD_MAX = 1000.0


@dataclass(frozen=True)
class Station:
    id: str
    name: str
    x: float
    y: float
    special: bool = False


@dataclass(frozen=True)
class Line:
    id: str
    name: str
    colour: str
    stations: tuple[str, ...]
    windows: int
    high: int
    low: int
    ring: bool = False

    @cached_property
    def station_set(self) -> frozenset[str]:
        """The line's stations as a set, for subset tests (is the line full?)."""
        return frozenset(self.stations)


@dataclass(frozen=True)
class MetroMap:
    id: str
    name: str
    lines: tuple[Line, ...]
    stations: dict[str, Station] = field(hash=False)
    # station id -> ids of the lines serving it, in line order
    served_by: dict[str, tuple[str, ...]] = field(hash=False, repr=False)

    @cached_property
    def line_by_id(self) -> dict[str, Line]:
        """Line id -> line (the rules look lines up by the letter in every action)."""
        return {line.id: line for line in self.lines}

    @cached_property
    def _json_rows(self) -> tuple[tuple[tuple[Any, ...], ...], tuple[tuple[Any, ...], ...]]:
        lines = tuple((l.id, l.name, l.colour, l.stations, l.windows, l.high, l.low, l.ring) for l in self.lines)
        stations = tuple((s.id, s.name, s.x, s.y, s.special) for s in self.stations.values())
        return lines, stations

    def line(self, line_id: str) -> Line:
        line = self.line_by_id.get(line_id)
        if line is not None:
            return line
        raise BadInput(
            "map {map} has no line {line}; lines: {lines}",
            map=self.name,
            line=repr(line_id),
            lines=", ".join(l.id for l in self.lines),
        )

    def lines_at(self, station_id: str) -> tuple[str, ...]:
        return self.served_by[station_id]

    def to_json(self) -> dict[str, Any]:
        """The map's full data, in the same shape as its file."""
        # Fresh dicts and lists every time (callers may change theirs), from the fields read
        # once per map: every view and every stored state carries the whole map.
        lines, stations = self._json_rows
        return {
            "id": self.id,
            "name": self.name,
            "lines": [
                {
                    "id": lid,
                    "name": name,
                    "colour": colour,
                    "stations": list(order),
                    "windows": windows,
                    "high": high,
                    "low": low,
                    "ring": ring,
                }
                for lid, name, colour, order, windows, high, low, ring in lines
            ],
            "stations": [
                {"id": sid, "name": name, "x": x, "y": y, "special": special} for sid, name, x, y, special in stations
            ],
        }


def _require(cond: object, message: str) -> None:
    if not cond:
        raise BadInput(message)


def parse_map(data: Any, *, strict: bool = True) -> MetroMap:
    """Validate map JSON and build a MetroMap.

    `strict` applies the sheet-design bounds of the rules (9-10 lines A-J, 1-4 windows,
    18-28 windows in all); tests build small maps with strict=False, which keeps every
    check that the engine itself relies on.
    """
    _require(is_object(data), "a map must be a JSON object")
    map_id = data.get("id")
    _require(isinstance(map_id, str) and map_id, "map needs a non-empty string 'id'")
    name = data.get("name", map_id)
    raw_stations = data.get("stations")
    raw_lines = data.get("lines")
    _require(is_list(raw_stations) and raw_stations, f"map {map_id}: 'stations' must be a non-empty list")
    _require(is_list(raw_lines) and raw_lines, f"map {map_id}: 'lines' must be a non-empty list")

    stations: dict[str, Station] = {}
    names: dict[str, str] = {}
    for raw in raw_stations:
        _require(is_object(raw), f"map {map_id}: every station must be an object")
        sid, sname = raw.get("id"), raw.get("name")
        _require(isinstance(sid, str) and sid, f"map {map_id}: a station has no id")
        _require(sid not in stations, f"map {map_id}: station id {sid!r} appears twice")
        _require(isinstance(sname, str) and sname.strip(), f"map {map_id}: station {sid} has no name")
        key = sname.strip().casefold()
        # One real interchange must be one station, shared by its lines, not two look-alikes.
        _require(
            key not in names,
            f"map {map_id}: stations {names.get(key)} and {sid} have the same name {sname!r}; "
            "an interchange must be one shared station",
        )
        names[key] = sid
        x, y = raw.get("x"), raw.get("y")
        _require(
            isinstance(x, (int, float)) and isinstance(y, (int, float)) and 0 <= x <= COORD_MAX and 0 <= y <= COORD_MAX,
            f"map {map_id}: station {sid} needs x and y in 0..{COORD_MAX:g}",
        )
        special = raw.get("special", False)
        _require(isinstance(special, bool), f"map {map_id}: station {sid}: 'special' must be true or false")
        stations[sid] = Station(sid, sname.strip(), float(x), float(y), special)

    lines: list[Line] = []
    served: dict[str, list[str]] = {sid: [] for sid in stations}
    if strict:
        _require(9 <= len(raw_lines) <= 10, f"map {map_id}: a sheet has 9-10 lines, not {len(raw_lines)}")
    for index, raw in enumerate(raw_lines):
        _require(is_object(raw), f"map {map_id}: every line must be an object")
        lid = raw.get("id")
        expected = LINE_IDS[index] if index < len(LINE_IDS) else None
        _require(lid == expected, f"map {map_id}: line {index + 1} must have id {expected!r}, not {lid!r}")
        order = raw.get("stations")
        _require(is_list(order) and len(order) >= 2, f"map {map_id}: line {lid} needs at least 2 stations")
        for sid in order:
            _require(sid in stations, f"map {map_id}: line {lid} names unknown station {sid!r}")
        _require(len(set(order)) == len(order), f"map {map_id}: line {lid} visits a station twice")
        windows, high, low = raw.get("windows"), raw.get("high"), raw.get("low")
        max_windows = 4 if strict else 20
        _require(
            isinstance(windows, int) and 1 <= windows <= max_windows,
            f"map {map_id}: line {lid} needs 1-{max_windows} windows",
        )
        _require(
            isinstance(high, int) and isinstance(low, int) and 0 <= low <= high <= 20,
            f"map {map_id}: line {lid} needs values 0 <= low <= high <= 20",
        )
        ring = raw.get("ring", False)
        _require(isinstance(ring, bool), f"map {map_id}: line {lid}: 'ring' must be true or false")
        if ring:
            _require(len(order) >= 3, f"map {map_id}: ring line {lid} needs at least 3 stations")
        colour = raw.get("colour", "#808080")
        _require(
            isinstance(colour, str) and bool(_COLOUR.match(colour)),
            f"map {map_id}: line {lid} colour must look like #rrggbb",
        )
        lines.append(Line(lid, str(raw.get("name", lid)), colour.lower(), tuple(order), windows, high, low, ring))
        for sid in order:
            served[sid].append(lid)

    unused = [sid for sid, lids in served.items() if not lids]
    _require(not unused, f"map {map_id}: stations on no line: {', '.join(unused[:5])}")
    if strict:
        total = sum(l.windows for l in lines)
        _require(18 <= total <= 28, f"map {map_id}: {total} windows in all; a sheet has about 20-25 (18-28 allowed)")
    return MetroMap(map_id, str(name), tuple(lines), stations, {k: tuple(v) for k, v in served.items()})


def map_names() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


@cache
def load_map(name: str) -> MetroMap:
    path = MAPS_DIR / f"{name.lower()}.json"
    if not path.is_file():
        raise BadInput("unknown map {name}; maps: {maps}", name=repr(name), maps=", ".join(map_names()))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BadInput("map file {file} is not valid JSON: {error}", file=path.name, error=str(exc)) from None
    return parse_map(data)


_VIEWED: dict[str, list[tuple[dict[str, Any], MetroMap]]] = {}
_VIEWED_LOCK = threading.Lock()


def map_of_view(data: dict[str, Any]) -> MetroMap:
    """The map a view or a state carries (`["map_data"]`), parsed once (as `parse_map(data,
    strict=False)`: the same map, or the same refusal). Every view and state of a game carries
    equal map data, and comparing two dicts is far cheaper than serialising one to key a
    cache: this runs for every state read from JSON (each move stored, each copy the automatic
    players make), alt text, text board and tap target of a flip-and-write game. The maps
    are frozen: states share one."""
    key = str(data.get("id"))
    with _VIEWED_LOCK:
        for known, parsed in _VIEWED.get(key, ()):
            if known == data:
                return parsed
    parsed = parse_map(copy.deepcopy(data), strict=False)
    with _VIEWED_LOCK:  # a few variants of a map at most (an edited map file while running)
        _VIEWED[key] = [(copy.deepcopy(data), parsed), *_VIEWED.get(key, ())][:4]
    return parsed
