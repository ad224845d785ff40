"""A flip-and-write map as the images need it: lines with colours, stations with
schematic x/y in a 0..1000 box (y down), from a view's map data (cached on its text).

A map whose data lacks drawing data falls back to the packaged map file, else to a circle.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..rects import Rect
from ..style import rgb
from ..vision import colours, palette_key


@dataclass(frozen=True)
class LineSpec:
    id: str
    name: str
    colour: tuple[int, int, int]
    stations: tuple[str, ...]
    ring: bool
    windows: int
    high: int
    low: int


@dataclass(frozen=True)
class StationSpec:
    id: str
    name: str
    x: float
    y: float
    special: bool


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: specs are cached per map text
class MapSpec:
    key: str  # identifies the drawing: every cache is keyed by it
    id: str
    name: str
    lines: tuple[LineSpec, ...]
    stations: tuple[StationSpec, ...]

    @property
    def station_index(self) -> dict[str, StationSpec]:
        return _station_index(self)

    @property
    def served(self) -> dict[str, tuple[str, ...]]:
        return _served(self)

    @property
    def bbox(self) -> Rect:
        xs = [s.x for s in self.stations]
        ys = [s.y for s in self.stations]
        return min(xs), min(ys), max(xs), max(ys)


@lru_cache(maxsize=64)
def _station_index(spec: MapSpec) -> dict[str, StationSpec]:
    return {s.id: s for s in spec.stations}


@lru_cache(maxsize=64)
def _served(spec: MapSpec) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {s.id: [] for s in spec.stations}
    for line in spec.lines:
        for sid in line.stations:
            out[sid].append(line.id)
    return {k: tuple(v) for k, v in out.items()}


def map_spec(view: dict[str, Any], vision: str = "off") -> MapSpec:
    """The drawable map of a view (cached on the map data's text), its lines in the
    palette of `vision` (see `metrobot/render/vision.py`; its key then names the palette too)."""
    data = view["map_data"]
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    spec = _spec_from_text(text, view.get("map"))
    key = palette_key(vision)
    return spec if key == "off" else _recoloured(spec, key)


@lru_cache(maxsize=64)
def _recoloured(spec: MapSpec, key: str) -> MapSpec:
    """The map with its lines in a palette: a packaged map's palettes serve only its own
    colours (a custom map under its name keeps its colours; its letters tell lines apart)."""
    chosen = colours(f"flipwrite:{spec.id}", key, {line.id: line.colour for line in spec.lines})
    if chosen is None:
        return spec
    lines = tuple(replace(line, colour=chosen[line.id]) for line in spec.lines)
    return MapSpec(f"{spec.key}|{key}", spec.id, spec.name, lines, spec.stations)


@lru_cache(maxsize=32)
def _spec_from_text(text: str, name: str | None) -> MapSpec:
    data = json.loads(text)
    fallback = None
    need = any("x" not in s or "y" not in s for s in data["stations"]) or any("colour" not in l for l in data["lines"])
    if need:
        from metrobot.games.flipwrite.mapdata import load_map

        try:
            fallback = load_map(name or data.get("id", ""))
        except Exception:  # a custom map without drawing data: lay it out on a circle
            fallback = None
    stations = []
    n = len(data["stations"])
    for i, s in enumerate(data["stations"]):
        if "x" in s and "y" in s:
            x, y = float(s["x"]), float(s["y"])
        elif fallback is not None and s["id"] in fallback.stations:
            x, y = fallback.stations[s["id"]].x, fallback.stations[s["id"]].y
        else:
            x = 500 + 450 * math.cos(2 * math.pi * i / n)
            y = 500 + 450 * math.sin(2 * math.pi * i / n)
        stations.append(StationSpec(s["id"], str(s.get("name", s["id"])), x, y, bool(s.get("special", False))))
    lines = []
    for l in data["lines"]:
        colour = l.get("colour")
        if colour is None and fallback is not None:
            colour = next((fl.colour for fl in fallback.lines if fl.id == l["id"]), None)
        lines.append(
            LineSpec(
                l["id"],
                str(l.get("name", l["id"])),
                rgb(colour or "#808080"),
                tuple(l["stations"]),
                bool(l.get("ring", False)),
                int(l["windows"]),
                int(l["high"]),
                int(l["low"]),
            )
        )
    key = f"{data.get('id', name)}:{hashlib.blake2b(text.encode(), digest_size=8).hexdigest()}"
    return MapSpec(
        key, str(data.get("id", name)), str(data.get("name", data.get("id", name))), tuple(lines), tuple(stations)
    )
