"""Where a flip-and-write city map falls on the image: map coordinates to pixels, the height a
map box needs, and the paths of lines that run side by side (shared by the sheet, the summary
and the marks, apart from the drawing itself)."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

from .spec import LineSpec, MapSpec

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom


class Geometry:
    """Map coordinates -> pixels inside a box (uniform scale, centred)."""

    def __init__(self, spec: MapSpec, box: Rect, pad: tuple[float, float, float, float]):
        x0, y0, x1, y1 = spec.bbox
        bw, bh = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        left, top, right, bottom = box
        pl, pt, pr, pb = pad
        aw, ah = right - left - pl - pr, bottom - top - pt - pb
        self.scale = min(aw / bw, ah / bh)
        self.ox = left + pl + (aw - bw * self.scale) / 2 - x0 * self.scale
        self.oy = top + pt + (ah - bh * self.scale) / 2 - y0 * self.scale
        self.box = box
        self._pts = {s.id: (self.ox + s.x * self.scale, self.oy + s.y * self.scale) for s in spec.stations}

    def px(self, sid: str) -> Point:
        return self._pts[sid]

    @property
    def points(self) -> dict[str, Point]:
        return self._pts


def fit_height(spec: MapSpec, width: float, pad: tuple[float, float, float, float], lo: float, hi: float) -> int:
    """The height a map box of `width` needs to show the map at full width (clamped)."""
    x0, y0, x1, y1 = spec.bbox
    bw, bh = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    scale = (width - pad[0] - pad[2]) / bw
    return round(max(lo, min(hi, bh * scale + pad[1] + pad[3])))


def unit(dx: float, dy: float) -> Point:
    """The unit vector along (dx, dy) (along x where both are 0)."""
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def line_paths(spec: MapSpec, geo: Geometry, spacing: float) -> dict[str, list[Point]]:
    """Each line's drawn polyline. Lines sharing a stretch between two stations run side by
    side, `spacing` apart, in map order from the left of the first of them as it travels:
    so a bundle of lines keeps its order round a bend. A ring's polyline ends where it started."""
    users: dict[tuple[str, str], list[str]] = defaultdict(list)
    ref: dict[tuple[str, str], tuple[str, str]] = {}
    for line in spec.lines:
        for a, b in _edges(line):
            key = (a, b) if a < b else (b, a)
            if line.id not in users[key]:
                users[key].append(line.id)
                ref.setdefault(key, (a, b))
    paths: dict[str, list[Point]] = {}
    for line in spec.lines:
        pts: list[Point] = []
        for a, b in _edges(line):
            key = (a, b) if a < b else (b, a)
            share = users[key]
            off = (share.index(line.id) - (len(share) - 1) / 2) * spacing
            (ax, ay), (bx, by) = geo.px(a), geo.px(b)
            (kx0, ky0), (kx1, ky1) = geo.px(ref[key][0]), geo.px(ref[key][1])
            ux, uy = unit(kx1 - kx0, ky1 - ky0)
            nx, ny = uy * off, -ux * off  # left of the first line's travel (y grows downwards)
            pa, pb = (ax + nx, ay + ny), (bx + nx, by + ny)
            if not pts or math.hypot(pts[-1][0] - pa[0], pts[-1][1] - pa[1]) > 0.5:
                pts.append(pa)
            pts.append(pb)
        paths[line.id] = pts
    return paths


def _edges(line: LineSpec) -> list[tuple[str, str]]:
    seq = list(line.stations) + ([line.stations[0]] if line.ring else [])
    return list(itertools.pairwise(seq))


def station_spread(spec: MapSpec, geo: Geometry, spacing: float) -> dict[str, tuple[float, Point]]:
    """Where lines run side by side through a station: how far they spread from its centre
    and the direction across them (the station is drawn as a capsule covering them)."""
    users: dict[tuple[str, str], set[str]] = defaultdict(set)
    for line in spec.lines:
        for a, b in _edges(line):
            users[(a, b) if a < b else (b, a)].add(line.id)
    out: dict[str, tuple[float, Point]] = {}
    for (a, b), ids in users.items():
        half = (len(ids) - 1) / 2 * spacing
        if half <= 0:
            continue
        (ax, ay), (bx, by) = geo.px(a), geo.px(b)
        ux, uy = unit(bx - ax, by - ay)
        for sid in (a, b):
            if half > out.get(sid, (0.0, (0.0, 0.0)))[0]:
                out[sid] = (half, (-uy, ux))
    return out
