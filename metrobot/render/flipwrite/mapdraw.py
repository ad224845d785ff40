"""Drawing a flip-and-write city map: label placement, cached static layers (the geometry:
`geometry.py`).

The static layer (lines, stations, wagon badges, special-station stars and the station
names) depends only on the map, the size and the variant flag, so it is drawn once,
supersampled for smooth edges, and kept in a small LRU cache. A round pastes it and puts
the players' marks on top (pre-drawn, anti-aliased sprites; see `marks`).

Any map is drawn from its own data (`view["map_data"]`, see `spec`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from .. import keptlayers
from ..labels import draw_labels, place_labels
from ..layers import Kept, Layers
from ..rects import bounded, clip_len_sum, grow, overlap
from ..style import INK, PAPER, font, ink_on
from .geometry import Geometry, Point, Rect, line_paths, station_spread, unit
from .spec import LineSpec, MapSpec

STAR = (255, 196, 0)
STAR_INK = (150, 100, 0)
SUPERSAMPLE = 2


def text_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever contrasts more with `colour` (WCAG AA on any colour)."""
    return ink_on(colour)


# ---------------------------------------------------------------- the static layers
@dataclass(frozen=True)
class SheetLayout:
    """Everything a round needs to put marks on a cached map: where each dot is drawn."""

    geo: Geometry
    radius: float
    points: dict[str, Point]


@dataclass(frozen=True)
class Style:
    line_width: float
    radius: float
    spacing: float
    labels: bool
    label_size: int = 16
    badges: bool = True
    pad: tuple[float, float, float, float] = (40, 40, 40, 40)


SHEET_STYLE = Style(line_width=9, radius=9, spacing=10, labels=True, label_size=16, pad=(46, 46, 46, 46))
MINI_STYLE = Style(line_width=3.2, radius=3.6, spacing=3.6, labels=False, badges=False, pad=(10, 10, 10, 10))


def _image_of(key: Any, data: bytes) -> Image.Image:
    """A map read back (`key`: static_map's own: its size is the image's)."""
    _, images = keptlayers.unpack(data)
    if images["map"].size != tuple(key[1]):
        raise ValueError("a kept map of another size")
    return images["map"]


# Two LRU caches: full sheets with names (big, slow to lay out: one per map and variant in
# use) and the small unlabelled maps of the summaries (one per map and player count). The maps
# are kept between runs too (`metrobot/render/keptlayers.py`); where the dots are is computed again
# (`layout`: no drawing).
_KEPT = Kept[Image.Image]("flipwrite-map", lambda image: keptlayers.pack(None, {"map": image}), _image_of)
_CACHES: dict[bool, Layers[Image.Image]] = {True: Layers(12, _KEPT), False: Layers(40, _KEPT)}
_LABELS: Layers[list] = Layers(12)  # the names' layout of a labelled map, shared by its palettes


def clear_cache() -> None:
    """Forget every map's drawn layers and its names' layout."""
    for layers in (*_CACHES.values(), _LABELS):
        layers.clear()


def static_map(
    spec: MapSpec, size: tuple[int, int], style: Style, special: bool, background: tuple[int, int, int] = PAPER
) -> tuple[Image.Image, SheetLayout]:
    """The map without marks at `size` (cached per map, size, style and variant)."""
    key = (spec.key, size, style, special, background)
    image = _CACHES[style.labels].get(key, lambda: _draw_static(spec, size, style, special, background)[0])
    return image, _layout(spec, size, style)


def layout(spec: MapSpec, size: tuple[int, int], style: Style) -> SheetLayout:
    """Where the dots of a map drawn at `size` in `style` are (cheap; no drawing)."""
    geo = Geometry(spec, (0, 0, size[0], size[1]), style.pad)
    return SheetLayout(geo, style.radius, dict(geo.points))


_layout = lru_cache(maxsize=64)(layout)  # (the same object for a map, size and style, as cached)

BADGE = 30.0


@lru_cache(maxsize=32)
def badge_spots(spec: MapSpec, size: tuple[int, int], style: Style) -> dict[str, Point]:
    """Centres of the line badges of a map drawn at `size` in `style` (none without badges)."""
    if not style.badges:
        return {}
    geo = Geometry(spec, (0, 0, size[0], size[1]), style.pad)
    return _badge_spots(spec, geo, line_paths(spec, geo, style.spacing), BADGE, style.radius)


def _badge_spots(
    spec: MapSpec, geo: Geometry, paths: dict[str, list[Point]], size: float, radius: float
) -> dict[str, Point]:
    """Where each line's letter badge (its wagon) sits: beyond its first station, away from
    the line; a ring's badge sits outside the ring. Badges at one station stand side by side."""
    spots: dict[str, Point] = {}
    taken: list[Rect] = []
    segs = bounded([(p, q) for path in paths.values() for p, q in itertools.pairwise(path)])
    dots = [(x - radius, y - radius, x + radius, y + radius) for x, y in geo.points.values()]
    for line in spec.lines:
        fx, fy = geo.px(line.stations[0])
        if line.ring:
            cx = sum(geo.px(s)[0] for s in line.stations) / len(line.stations)
            cy = sum(geo.px(s)[1] for s in line.stations) / len(line.stations)
            away = unit(fx - cx, fy - cy)
        else:
            sx, sy = geo.px(line.stations[1])
            away = unit(fx - sx, fy - sy)
        best, best_cost = None, math.inf
        for k in range(16):
            ang = math.atan2(away[1], away[0]) + (math.pi / 8) * ((k + 1) // 2) * (1 if k % 2 else -1)
            for dist in (radius + size * 0.75, radius + size * 1.3):
                bx, by = fx + math.cos(ang) * dist, fy + math.sin(ang) * dist
                r = (bx - size / 2, by - size / 2, bx + size / 2, by + size / 2)
                if r[0] < geo.box[0] + 2 or r[1] < geo.box[1] + 2 or r[2] > geo.box[2] - 2 or r[3] > geo.box[3] - 2:
                    continue
                cost = ((k + 1) // 2) * 3.0 + (dist > radius + size) * 2.0
                cost += 4.0 * clip_len_sum(segs, r)
                cost += 2.0 * sum(overlap(r, d) for d in dots)
                flag = (r[0], r[1] - 13, r[2] + 13, r[3])  # with the corner of its check mark
                cost += 4.0 * sum(overlap(grow(flag, 2), t) for t in taken)
                if cost < best_cost:
                    best, best_cost = (bx, by), cost
        if best is None:
            best = (fx, fy - radius - size)
        spots[line.id] = best
        taken.append((best[0] - size / 2, best[1] - size / 2 - 13, best[0] + size / 2 + 13, best[1] + size / 2))
    return spots


def _draw_static(
    spec: MapSpec, size: tuple[int, int], style: Style, special: bool, background: tuple[int, int, int]
) -> tuple[Image.Image, SheetLayout]:
    k = SUPERSAMPLE
    geo = Geometry(spec, (0, 0, size[0], size[1]), style.pad)
    paths = line_paths(spec, geo, style.spacing)
    spread = station_spread(spec, geo, style.spacing)
    served = spec.served
    big = Image.new("RGB", (size[0] * k, size[1] * k), background)
    d = ImageDraw.Draw(big)
    lw = style.line_width
    badge = BADGE
    spots = badge_spots(spec, size, style)

    # lines: white casing then colour, line by line, so crossings read as crossings
    for line in spec.lines:
        pts = [(x * k, y * k) for x, y in paths[line.id]]
        casing = (lw + 4) * k
        d.line(pts, fill=background, width=int(casing), joint="curve")
        _caps(d, pts, casing / 2, background, line.ring)
        d.line(pts, fill=line.colour, width=int(lw * k), joint="curve")
        _caps(d, pts, lw * k / 2, line.colour, line.ring)

    # badges (the wagons): letter in the line's colour, tied to the first station
    for line in spec.lines:
        if line.id not in spots:
            continue
        bx, by = spots[line.id]
        fx, fy = geo.px(line.stations[0])
        d.line([(fx * k, fy * k), (bx * k, by * k)], fill=line.colour, width=int(3 * k))
        h = badge / 2
        d.rounded_rectangle(
            [(bx - h) * k, (by - h) * k, (bx + h) * k, (by + h) * k],
            radius=6 * k,
            fill=line.colour,
            outline=(255, 255, 255),
            width=2 * k,
        )
        d.text((bx * k, (by + 1) * k), line.id, font=font(int(20 * k), True), anchor="mm", fill=text_on(line.colour))
        if line.ring:
            _ring_arrows(d, spec, geo, line, k, lw)

    # stations
    r = style.radius
    for s in spec.stations:
        x, y = geo.px(s.id)
        half, (nx, ny) = spread.get(s.id, (0.0, (0.0, 0.0)))
        if special and s.special:
            _star(d, (x * k, y * k), (r + half + 7) * k, STAR, STAR_INK, k)
        inter = len(served[s.id]) > 1
        outline = INK if inter else (90, 90, 90)
        width = max(1, round((2.6 if inter else 1.8) * k * (r / 9 if r < 9 else 1)))
        if half:  # a capsule across the lines that run side by side here
            ends = [((x + nx * half * sg) * k, (y + ny * half * sg) * k) for sg in (-1, 1)]
            for rad, colour in ((r * k, outline), (r * k - width, (255, 255, 255))):
                d.line(ends, fill=colour, width=int(2 * rad))
                for ex, ey in ends:
                    d.ellipse([ex - rad, ey - rad, ex + rad, ey + rad], fill=colour)
        else:
            d.ellipse(
                [(x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k], fill=(255, 255, 255), outline=outline, width=width
            )

    tags = end_tags(spec, paths, r, spots) if style.badges and MARKS else []
    for line, (tx, ty) in tags:
        h, w = END_TAG / 2, max(END_TAG, font(END_TAG_SIZE, True).getlength(line.id) + 8) / 2
        d.rounded_rectangle(
            [(tx - w) * k, (ty - h) * k, (tx + w) * k, (ty + h) * k],
            radius=h * k,
            fill=(255, 255, 255),
            outline=line.colour,
            width=int(2.5 * k),
        )
        d.text((tx * k, (ty + 0.5) * k), line.id, font=font(END_TAG_SIZE * k, True), anchor="mm", fill=INK)

    if style.labels:
        # each badge, and the corner where a completed line's check mark goes (top right)
        obstacles = [
            (bx - badge / 2 - 2, by - badge / 2 - 13, bx + badge / 2 + 13, by + badge / 2 + 2)
            for bx, by in spots.values()
        ]
        obstacles += [
            (x - END_TAG / 2 - 2, y - END_TAG / 2 - 1, x + END_TAG / 2 + 2, y + END_TAG / 2 + 1) for _, (x, y) in tags
        ]
        stations = [
            (st.id, st.name, geo.px(st.id), r + spread.get(st.id, (0.0,))[0] + (6 if special and st.special else 0))
            for st in spec.stations
        ]
        segments = [(p, q) for path in paths.values() for p, q in itertools.pairwise(path)]
        # the layout of names is the same in every palette: laid out once per map (the base
        # of its key), size, style, variant and marks
        layout_key = (spec.key.split("|")[0], size, style, special, MARKS)
        labels = _LABELS.get(
            layout_key,
            lambda: place_labels(
                stations, segments, r, lw, style.label_size, obstacles, (4, 4, size[0] - 4, size[1] - 4)
            ),
        )
        draw_labels(big, labels, k, background)
    image = big.resize(size, Image.Resampling.LANCZOS)
    return image, SheetLayout(geo, r, dict(geo.points))


END_TAG, END_TAG_SIZE = 20, 14  # the letter's pill at a line's far end: height, font size
MARKS = True  # the letters at the lines' far ends; False only for the benchmark's "before"


def end_tags(
    spec: MapSpec, paths: dict[str, list[Point]], radius: float, badges: dict[str, Point]
) -> list[tuple[LineSpec, Point]]:
    """Where each line's letter goes besides its wagon badge, so that colour is never the
    only cue: on the line beside its last station (a ring has no end: half way round), and
    in the middle of a long line; each spot the first along the line clear of the others."""
    placed: list[tuple[LineSpec, Point]] = []
    taken: list[Rect] = [(x - BADGE / 2, y - BADGE / 2, x + BADGE / 2, y + BADGE / 2) for x, y in badges.values()]
    half = END_TAG / 2 + 2
    for line in spec.lines:
        pts = paths[line.id]
        if len(pts) < 2:
            continue
        segments = list(itertools.pairwise(pts))
        wanted = [list(reversed(segments))] if not line.ring else []
        if line.ring or len(line.stations) >= LONG:
            middle = len(segments) // 2
            wanted.append(segments[middle:] + segments[:middle])
        for order in wanted:
            for i, (p, q) in enumerate(order[:4]):
                if i == 0 and not line.ring and order is wanted[0]:
                    p, q = q, p  # from the last station back along the line
                    along = min(radius + half + 3, math.dist(p, q) / 2)
                else:
                    along = math.dist(p, q) / 2
                ux, uy = unit(q[0] - p[0], q[1] - p[1])
                c = (p[0] + ux * along, p[1] + uy * along)
                box = (c[0] - half, c[1] - half, c[0] + half, c[1] + half)
                if math.dist(p, q) >= 2 * half and not any(overlap(box, t) for t in taken):
                    placed.append((line, c))
                    taken.append(box)
                    break
    return placed


LONG = 12  # stations from which a line carries its letter in its middle too


def _caps(d: ImageDraw.ImageDraw, pts: list[Point], r: float, colour, ring: bool) -> None:
    for x, y in (pts[0], pts[-1]) if not ring else (pts[0],):
        d.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def _ring_arrows(d: ImageDraw.ImageDraw, spec: MapSpec, geo: Geometry, line: LineSpec, k: int, lw: float) -> None:
    """Two arrowheads on the ring beside its first station: the wagon may set off either way."""
    fx, fy = geo.px(line.stations[0])
    for other in (line.stations[1], line.stations[-1]):
        ox, oy = geo.px(other)
        ux, uy = unit(ox - fx, oy - fy)
        dist = min(math.hypot(ox - fx, oy - fy) * 0.5, 34)
        tx, ty = fx + ux * dist, fy + uy * dist
        s = lw * 1.25
        tip = (tx + ux * s, ty + uy * s)
        a = (tx - ux * s - uy * s, ty - uy * s + ux * s)
        b = (tx - ux * s + uy * s, ty - uy * s - ux * s)
        d.polygon([(p[0] * k, p[1] * k) for p in (tip, a, b)], fill=(255, 255, 255), outline=INK, width=k)


def _star(d: ImageDraw.ImageDraw, c: Point, r: float, fill, ink, k: int) -> None:
    x, y = c
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.55
        ang = -math.pi / 2 + i * math.pi / 5
        pts.append((x + rad * math.cos(ang), y + rad * math.sin(ang)))
    d.polygon(pts, fill=fill, outline=ink, width=k)
