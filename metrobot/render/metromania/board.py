"""Drawing the MetrOmania city: geometry and the cached static layer (what changes is
drawn by `pieces.py`).

The static layer (districts, spots, lake, park, frame and arrows, coordinates) depends
only on the board's cells, so it is drawn once per board and kept in an LRU cache; a turn
only copies it and draws lines, stations, markers and the highlight of the last turn on top.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from threading import Lock
from typing import Any

from PIL import Image, ImageDraw

from metrobot.games.metromania.board import (
    ARROWS,
    CITY_CELLS,
    HEX_CORNERS,
    ROWS,
    SECTOR,
    VERTEX_NAMES,
    VERTICES,
    N,
    corners,
    dist,
)

from .. import keptlayers
from ..png import encode_png
from ..style import INK, MUTED, font

ARROW_CELLS = frozenset(a.cell for a in ARROWS)

Point = tuple[float, float]

SECTOR_TINTS = [(243, 238, 226), (236, 241, 229), (242, 234, 232), (231, 238, 242), (241, 238, 228), (236, 234, 243)]
GRID = (214, 207, 191)
FRAME = (188, 181, 168)
BACKGROUND = (233, 229, 220)
SPOT_FILL = {"res": (247, 210, 110), "com": (160, 196, 233), "ent": (240, 168, 203)}
SPOT_INK = {"res": (120, 72, 20), "com": (24, 62, 110), "ent": (128, 24, 78)}
LAKE, LAKE_INK = (142, 197, 232), (60, 128, 180)
PARK, PARK_INK = (159, 213, 154), (52, 128, 60)


class Geometry:
    """Axial vertex -> pixel. Rows are horizontal, so vertex names' columns are vertical."""

    def __init__(self, edge: float, origin: Point):
        self.edge = edge
        self.ox, self.oy = origin
        self.h = edge * math.sqrt(3) / 2

    def px(self, v: tuple[int, int]) -> Point:
        q, r = v
        return self.ox + self.edge * (q + r / 2), self.oy + self.h * r

    def col_x(self, col: int) -> float:
        return self.ox + self.edge * (col - 2 * N - 1) / 2

    def row_y(self, row: int) -> float:
        return self.oy + self.h * (row - N)

    def cell(self, cell) -> list[Point]:
        return [self.px(v) for v in corners(cell)]

    def centroid(self, cell) -> Point:
        pts = self.cell(cell)
        return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3

    def scaled(self, k: float, shift: Point = (0, 0)) -> Geometry:
        return Geometry(self.edge * k, (self.ox * k + shift[0], self.oy * k + shift[1]))


ROW_LABEL_OFFSET = 1.6  # edges beyond a row's outer vertex: clear of the frame and its markers
COL_LABEL_OFFSET = 1.55  # row heights beyond the top and bottom rows


def board_geometry(width: int, height: int, margin: float) -> Geometry:
    """The largest board whose frame and coordinate labels fit a width x height box."""
    half_w = N + ROW_LABEL_OFFSET + 0.3  # row G is widest: its labels sit furthest out
    half_h = (N + COL_LABEL_OFFSET + 0.4) * math.sqrt(3) / 2
    edge = min((width / 2 - margin) / half_w, (height / 2 - margin) / half_h)
    return Geometry(edge, (width / 2, height / 2))


def frame_triangles() -> list[tuple[tuple[int, int], ...]]:
    """Every triangle of the frame ring: corners at distance N or N+1, not all in the city."""
    out = []
    for q in range(-N - 2, N + 3):
        for r in range(-N - 2, N + 3):
            for up in (True, False):
                pts = corners((q, r, up))
                ds = {dist(v) for v in pts}
                if ds <= {N, N + 1} and N + 1 in ds:
                    out.append(pts)
    return out


# ---------------------------------------------------------------- icons
def _house(d: ImageDraw.ImageDraw, c: Point, s: float, ink) -> None:
    x, y = c
    d.polygon([(x - s, y - 0.05 * s), (x, y - s), (x + s, y - 0.05 * s)], fill=ink)
    d.rectangle([x - 0.7 * s, y - 0.1 * s, x + 0.7 * s, y + 0.8 * s], fill=ink)
    d.rectangle([x - 0.18 * s, y + 0.25 * s, x + 0.18 * s, y + 0.8 * s], fill=SPOT_FILL["res"])


def _office(d: ImageDraw.ImageDraw, c: Point, s: float, ink) -> None:
    x, y = c
    d.rectangle([x - 0.65 * s, y - 0.95 * s, x + 0.65 * s, y + 0.85 * s], fill=ink)
    for row in range(3):
        for col in range(2):
            wx = x - 0.42 * s + col * 0.52 * s
            wy = y - 0.72 * s + row * 0.5 * s
            d.rectangle([wx, wy, wx + 0.3 * s, wy + 0.28 * s], fill=SPOT_FILL["com"])


def _star(d: ImageDraw.ImageDraw, c: Point, s: float, ink) -> None:
    x, y = c
    pts = []
    for k in range(10):
        rad = s * (1.0 if k % 2 == 0 else 0.42)
        ang = -math.pi / 2 + k * math.pi / 5
        pts.append((x + rad * math.cos(ang), y + rad * math.sin(ang) + 0.08 * s))
    d.polygon(pts, fill=ink)


SPOT_ICONS = {"res": _house, "com": _office, "ent": _star}


def draw_spot_icon(d: ImageDraw.ImageDraw, kind: str, c: Point, size: float) -> None:
    SPOT_ICONS[kind](d, c, size, SPOT_INK[kind])


# ---------------------------------------------------------------- static layer
class _LRU:
    """A small thread-safe LRU map (renders run in worker threads)."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict[tuple, Any] = OrderedDict()
        self.lock = Lock()

    def get(self, key: tuple) -> Any:
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def put(self, key: tuple, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


# Two levels: decoded images for the boards in play right now, and the same images as
# PNG bytes (about 0.3 MB instead of 4 MB) for the many boards of a busy bot: decoding one
# costs a few milliseconds, drawing it again a few hundred.
_IMAGES = _LRU(24)
_PACKED = _LRU(400)


def clear_caches() -> None:
    _IMAGES.clear()
    _PACKED.clear()


def static_layer(kinds: tuple[str, ...], size: tuple[int, int], geo: Geometry, *, labels: bool = True) -> Image.Image:
    """The board without pieces, for cells' kinds in CITY_CELLS order (cached)."""
    key = (kinds, size, round(geo.edge, 3), round(geo.ox, 2), round(geo.oy, 2), labels)
    image = _IMAGES.get(key)
    if image is not None:
        return image
    packed = _PACKED.get(key) or keptlayers.read("metromania-static", key)  # (a PNG, kept between runs)
    image = _unpacked(packed, size) if packed else None
    if image is None:
        image = _draw_static(dict(zip(CITY_CELLS, kinds)), size, geo, labels)
        packed = encode_png(image, lossless=True)
        keptlayers.write("metromania-static", key, packed)
    _PACKED.put(key, packed)
    _IMAGES.put(key, image)
    return image


def _unpacked(png: bytes, size: tuple[int, int]) -> Image.Image | None:
    """The static layer from its PNG; None if it is not one of `size` (a damaged file)."""
    try:
        image = keptlayers.png_image(png)
    except ValueError:
        return None
    return image if image.size == size and image.mode == "RGB" else None


def _draw_static(cells: dict, size: tuple[int, int], geo: Geometry, labels: bool) -> Image.Image:
    # Drawn at the final size: supersampling looked no better on these straight edges and
    # doubled the PNG (every anti-aliased edge adds colours), hence upload time.
    image = Image.new("RGB", size, BACKGROUND)
    g = geo
    d = ImageDraw.Draw(image)
    for tri in frame_triangles():
        d.polygon([g.px(v) for v in tri], fill=FRAME, outline=FRAME)
    for c in CITY_CELLS:
        kind = cells[c]
        fill = SECTOR_TINTS[SECTOR[c]]
        if kind in SPOT_FILL:
            fill = SPOT_FILL[kind]
        elif kind == "lake":
            fill = LAKE
        elif kind == "park":
            fill = PARK
        d.polygon(g.cell(c), fill=fill, outline=GRID, width=1)
    for c in CITY_CELLS:
        kind = cells[c]
        centre = g.centroid(c)
        if kind in SPOT_ICONS:
            draw_spot_icon(d, kind, centre, g.edge * 0.17)
        elif kind == "lake":
            x, y = centre
            for dy in (-0.06, 0.06):
                d.arc(
                    [x - 0.16 * g.edge, y + dy * g.edge - 0.05 * g.edge, x, y + dy * g.edge + 0.05 * g.edge],
                    200,
                    340,
                    fill=LAKE_INK,
                    width=2,
                )
                d.arc(
                    [x, y + dy * g.edge - 0.05 * g.edge, x + 0.16 * g.edge, y + dy * g.edge + 0.05 * g.edge],
                    20,
                    160,
                    fill=LAKE_INK,
                    width=2,
                )
        elif kind == "park":
            x, y = centre
            r = 0.07 * g.edge
            d.ellipse([x - r, y - 1.6 * r, x + r, y + 0.4 * r], fill=PARK_INK)
            d.rectangle([x - 0.2 * r, y + 0.3 * r, x + 0.2 * r, y + 1.2 * r], fill=(90, 70, 40))
    # sector borders, slightly darker so districts read as districts
    for side in range(6):
        d.line([g.px((0, 0)), g.px(HEX_CORNERS[side])], fill=(196, 187, 168), width=2)
    for arrow in ARROWS:
        pts = g.cell(arrow.cell)
        start = arrow.kind == "start"
        d.polygon(pts, fill=(255, 255, 255) if start else (25, 25, 25), outline=INK, width=2)
        if labels:
            cx, cy = sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
            d.text(
                (cx, cy),
                arrow.name,
                font=font(int(0.2 * g.edge), True),
                anchor="mm",
                fill=INK if start else (255, 255, 255),
            )
    tiny = font(max(6, int(0.15 * g.edge)))
    for v in VERTICES:
        x, y = g.px(v)
        d.ellipse([x - 2, y - 2, x + 2, y + 2], fill=(150, 142, 128))
        if labels:  # small names at every vertex, for players who zoom in to type a move (a
            # white edge keeps them readable, WCAG AA, on every cell's tint)
            d.text(
                (x, y + 0.17 * g.edge),
                VERTEX_NAMES[v],
                font=tiny,
                anchor="mm",
                fill=MUTED,
                stroke_width=1,
                stroke_fill=(255, 255, 255),
            )
    if labels:
        _draw_labels(d, g)
    return image


def _draw_labels(d: ImageDraw.ImageDraw, g: Geometry) -> None:
    """Row letters beside the frame, column numbers above and below it: each vertex is
    'row letter + column number' (F7), and a column is a vertical line."""
    size = int(0.27 * g.edge)
    f = font(size, True)
    for i, letter in enumerate(ROWS):
        r = i - N
        y = g.row_y(i)
        row = [q for q in range(-N, N + 1) if dist((q, r)) <= N]
        left = g.px((row[0], r))[0] - ROW_LABEL_OFFSET * g.edge
        right = g.px((row[-1], r))[0] + ROW_LABEL_OFFSET * g.edge
        for x in (left, right):
            d.text((x, y), letter, font=f, anchor="mm", fill=MUTED)
    top = g.row_y(0) - COL_LABEL_OFFSET * g.h
    bottom = g.row_y(2 * N) + COL_LABEL_OFFSET * g.h
    small = font(int(0.22 * g.edge), True)
    for col in range(1, 4 * N + 2):
        x = g.col_x(col)
        for y in (top, bottom):
            d.text((x, y), str(col), font=small, anchor="mm", fill=MUTED)
