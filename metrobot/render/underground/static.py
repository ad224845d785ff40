"""The cached static layers of an On the Underground board (per map and image size).

`under`: the paper and the empty lanes of every gap (pale bands: a gap's capacity at a
glance). `full`: the whole empty board, `under` plus stations, destination rings, terminus
squares, National Rail and connection badges and the station names. `over`: the mask of
what `full` adds to `under`. A turn copies `under`, draws the tracks, then pastes `full`
through `over`, so stations and names always sit on top of the track, then draws the
few things of the turn. Everything is drawn 2x supersampled once, in well under a second
on first use (the name layout is most of it), and kept in a small LRU cache.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from .. import keptlayers
from ..labelcache import label_from
from ..labels import draw_labels, place_labels
from ..labelspots import HINTS, Label
from ..layers import Kept, Layers
from ..rects import bounded, clip_len_sum, grow, overlap
from ..supersample import box_down
from .geometry import LANE_W, Geometry, Point, Rect, geometry, umap
from .palette import BACKGROUND, EMPTY_LANE, EXPRESS, EXPRESS_INK, NATIONAL_RAIL, PANEL, RULE, STANDARD, STATION_INK

K = 2  # supersampling of the static layers
LABEL_SIZE = 16
NR_W, NR_H = 22.0, 14.0  # the National Rail badge
CONN_R = 14.0  # the connection badge's radius
RING = 5.0  # destination ring width


@dataclass(eq=False)
class Static:
    geo: Geometry
    size: tuple[int, int]
    under: Image.Image
    full: Image.Image
    over: Image.Image
    labels: dict[str, Label]
    nr_spots: dict[str, Point]
    conn_spots: dict[str, Point]
    masks: dict[tuple[Any, ...], tuple[tuple[int, int, int, int], Image.Image]] = field(default_factory=dict)
    # where the map's own marks lie, by grid cell, for placing tags (tags.py; made once)
    tag_index: dict[tuple[int, int], list[tuple[float, float, float, float]]] | None = None


def _pack(static: Static) -> bytes:
    meta = {
        "size": static.size,
        "labels": [asdict(label) for label in static.labels.values()],
        "nr": static.nr_spots,
        "conn": static.conn_spots,
    }
    return keptlayers.pack(meta, {"under": static.under, "full": static.full, "over": static.over})


def _unpack(key: Any, data: bytes) -> Static:
    """A static layer read back (`key`: static_layers' own); its geometry is computed again."""
    meta, images = keptlayers.unpack(data)
    name, digest, size, map_box, pad = key
    if tuple(meta["size"]) != size or any(images[n].size != size for n in images):
        raise ValueError("a kept layer of another size")
    return Static(
        geometry(name, digest, map_box, pad),
        size,
        images["under"],
        images["full"],
        images["over"],
        {lab.sid: lab for lab in map(label_from, meta["labels"])},
        {s: (x, y) for s, (x, y) in meta["nr"].items()},
        {s: (x, y) for s, (x, y) in meta["conn"].items()},
    )


# (Kept between runs: with the names' places kept, drawing the layers is still ~0.3 s a map.)
_CACHE: Layers[Static] = Layers(4, Kept("underground-static", _pack, _unpack))
stats = _CACHE.stats


def clear_cache() -> None:
    _CACHE.clear()


def static_layers(
    view: dict[str, Any], size: tuple[int, int], map_box: Rect, pad: tuple[float, float, float, float]
) -> Static:
    """The static layers of the view's map drawn into `map_box` of an image of `size`."""
    key = (view["map"], view.get("map_digest"), size, map_box, pad)
    return _CACHE.get(key, lambda: _draw(view, size, map_box, pad))


def ring_radius(geo: Geometry, station: str) -> float:
    return geo.radius[station] + RING


# ---------------------------------------------------------------- badges beside stations
def _badge_spots(
    geo: Geometry,
    stations: list[str],
    half: tuple[float, float],
    lanes: list[tuple[Point, Point]],
    taken: list[Rect],
    extra: dict[str, float],
    hints: dict[str, str],
) -> dict[str, Point]:
    """A spot touching each station's dot for a badge of half-size `half`, off the lanes,
    other dots and badges already placed (`taken` grows), and off the side where the
    station's name would rather go."""
    out = {}
    hw, hh = half
    lanes_bounded = bounded(lanes)
    for s in stations:
        x, y = geo.points[s]
        r = extra.get(s, geo.radius[s])
        hx, hy = HINTS.get(hints.get(s, ""), (0, 0))
        best, best_cost = None, math.inf
        for i, ang in enumerate((-45, -135, 45, 135, 0, 180, -90, 90)):
            a = math.radians(ang)
            ux, uy = math.cos(a), math.sin(a)
            reach = r + 2 + max(abs(ux) * hw + abs(uy) * hh, min(hw, hh))
            bx, by = x + ux * reach, y + uy * reach
            rect = (bx - hw, by - hh, bx + hw, by + hh)
            cost = i * 0.5 + (8.0 if (ux * hx + uy * hy) / (math.hypot(hx, hy) or 1.0) > 0.6 else 0.0)
            if not (
                geo.box[0] + 4 < rect[0]
                and rect[2] < geo.box[2] - 4
                and geo.box[1] + 4 < rect[1]
                and rect[3] < geo.box[3] - 4
            ):
                cost += 1000
            wide = grow(rect, LANE_W / 2 + 1)
            cost += 3.0 * clip_len_sum(lanes_bounded, wide)
            for o, (ox, oy) in geo.points.items():
                if o != s and abs(ox - bx) < 60 and abs(oy - by) < 60:
                    ro = geo.radius[o] + 3
                    cost += 2.0 * overlap(rect, (ox - ro, oy - ro, ox + ro, oy + ro))
            cost += 4.0 * sum(overlap(grow(rect, 2), t) for t in taken)
            if cost < best_cost:
                best, best_cost = (bx, by), cost
        assert best is not None, "every candidate place costs less than infinity"
        out[s] = best
        taken.append((best[0] - hw, best[1] - hh, best[0] + hw, best[1] + hh))
    return out


# ---------------------------------------------------------------- drawing
def _draw(view: dict[str, Any], size: tuple[int, int], map_box: Rect, pad) -> Static:
    m = umap(view)
    geo = geometry(view["map"], view.get("map_digest"), map_box, pad)
    lanes = [geo.lane(g, s) for g, (_, _, k) in geo.gaps.items() for s in range(k)]
    rings = {s.name: ring_radius(geo, s.name) for s in m.stations.values() if s.destination}
    taken: list[Rect] = []
    hints = {s.name: s.label for s in m.stations.values()}
    conn = _badge_spots(
        geo, sorted(s.name for s in m.stations.values() if s.connection), (CONN_R, CONN_R), lanes, taken, rings, hints
    )
    nr = _badge_spots(
        geo,
        sorted(s.name for s in m.stations.values() if s.national_rail),
        (NR_W / 2, NR_H / 2),
        lanes,
        taken,
        rings,
        hints,
    )
    stations = [
        (s.name, s.name, geo.points[s.name], rings.get(s.name, geo.radius[s.name]) + 1) for s in m.stations.values()
    ]
    labels = place_labels(
        stations,
        lanes,
        7.0,
        LANE_W,
        LABEL_SIZE,
        [grow(t, 1) for t in taken],
        (map_box[0] + 4, map_box[1] + 4, map_box[2] - 4, map_box[3] - 4),
        hints=hints,
    )

    w, h = size
    big = Image.new("RGB", (w * K, h * K), BACKGROUND)
    d = ImageDraw.Draw(big)
    d.rectangle([map_box[2] * K, 0, w * K, h * K], fill=PANEL)
    d.line([(map_box[2] * K, 0), (map_box[2] * K, h * K)], fill=RULE, width=2 * K)
    for p, q in lanes:
        d.line([(p[0] * K, p[1] * K), (q[0] * K, q[1] * K)], fill=EMPTY_LANE, width=int(LANE_W * K))
    under = box_down(big, size)

    mask = Image.new("L", (w * K, h * K), 0)
    for image, solid in ((big, None), (mask, 255)):
        _draw_stations(ImageDraw.Draw(image), m, geo, rings, solid)
        _draw_badges(ImageDraw.Draw(image), nr, conn, solid)
    # names at their size (FreeType's own anti-aliasing is crisper, and smaller in a PNG)
    full = box_down(big, size)
    over = box_down(mask, size)
    draw_labels(full, labels, 1, BACKGROUND)
    draw_labels(over, labels, 1, 255, 255)
    return Static(geo, size, under, full, over, {lab.sid: lab for lab in labels}, nr, conn)


def _draw_stations(d: ImageDraw.ImageDraw, m, geo: Geometry, rings: dict[str, float], solid: int | None) -> None:
    def c(colour):
        return colour if solid is None else solid

    for s in m.stations.values():
        x, y = geo.points[s.name]
        x, y = x * K, y * K
        r = geo.radius[s.name] * K
        if s.destination:
            rr = rings[s.name] * K
            fill, ink = (EXPRESS, EXPRESS_INK) if s.destination == "express" else (STANDARD, STATION_INK)
            d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=c(fill), outline=c(ink), width=int(1.6 * K))
        width = int((3.0 if s.terminus else 2.3) * K)
        if s.terminus:
            d.rounded_rectangle(
                [x - r, y - r, x + r, y + r],
                radius=int(2 * K),
                fill=c((255, 255, 255)),
                outline=c(STATION_INK),
                width=width,
            )
        else:
            d.ellipse([x - r, y - r, x + r, y + r], fill=c((255, 255, 255)), outline=c(STATION_INK), width=width)


def _draw_badges(d: ImageDraw.ImageDraw, nr: dict[str, Point], conn: dict[str, Point], solid: int | None) -> None:
    def c(colour):
        return colour if solid is None else solid

    for x, y in nr.values():
        x, y = x * K, y * K
        hw, hh = NR_W / 2 * K, NR_H / 2 * K
        d.rounded_rectangle(
            [x - hw, y - hh, x + hw, y + hh],
            radius=int(3 * K),
            fill=c(NATIONAL_RAIL),
            outline=c((255, 255, 255)),
            width=K,
        )
        if solid is None:
            national_rail_arrows(d, (x, y), hw * 0.62, hh * 0.42, K)
    for x, y in conn.values():
        x, y = x * K, y * K
        r = CONN_R * K
        d.ellipse([x - r, y - r, x + r, y + r], fill=c((255, 255, 255)), outline=c(STATION_INK), width=int(2 * K))


def national_rail_arrows(d: ImageDraw.ImageDraw, c: Point, hw: float, hh: float, k: float) -> None:
    """The double arrow of British Rail: right along the top, left along the bottom."""
    x, y = c
    w = max(1, int(1.6 * k))
    head = hh * 1.1
    for sign, yy in ((1, y - hh), (-1, y + hh)):
        d.line([(x - sign * hw, yy), (x + sign * (hw - head * 0.5), yy)], fill=(255, 255, 255), width=w)
        tip = x + sign * hw
        d.polygon(
            [(tip, yy), (tip - sign * head, yy - head * 0.75), (tip - sign * head, yy + head * 0.75)],
            fill=(255, 255, 255),
        )
