"""Anti-aliased strokes as small masks: a track in a slot, its casing, the glow of a new
piece and the dashes along its middle, the arrows of the passenger's trip. Each mask is drawn once (4x supersampled) per
map, size and slot and kept with the static layers; a turn pastes a colour through them,
a few hundred small pastes.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFilter

from ..supersample import box_down
from .geometry import LANE_W, Geometry, Point
from .static import Static

SS = 4
GLOW_W = LANE_W + 11
CASED_INNER = LANE_W - 3.2
Box = tuple[int, int, int, int]


def stroke_mask(
    p: Point, q: Point, width: float, *, blur: float = 0.0, caps: bool = False, strength: float = 1.0
) -> tuple[Box, Image.Image]:
    """The mask of a straight stroke p-q (pixel box, L image)."""
    m = width / 2 + 3 * blur + 2
    x0, y0 = math.floor(min(p[0], q[0]) - m), math.floor(min(p[1], q[1]) - m)
    x1, y1 = math.ceil(max(p[0], q[0]) + m), math.ceil(max(p[1], q[1]) + m)
    big = Image.new("L", ((x1 - x0) * SS, (y1 - y0) * SS), 0)
    d = ImageDraw.Draw(big)
    a = ((p[0] - x0) * SS, (p[1] - y0) * SS)
    b = ((q[0] - x0) * SS, (q[1] - y0) * SS)
    level = round(255 * strength)
    d.line([a, b], fill=level, width=round(width * SS))
    if caps:
        r = width * SS / 2
        for cx, cy in (a, b):
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=level)
    mask = box_down(big, (x1 - x0, y1 - y0))
    if blur:
        mask = mask.filter(ImageFilter.GaussianBlur(blur))
    return (x0, y0, x1, y1), mask


def lane_mask(st: Static, gap: int, slot: int, kind: str) -> tuple[Box, Image.Image]:
    """kind: "track" (a whole lane), "inner" (the colour inside a casing), "glow",
    "stripe" (short dashes along the middle of a new piece: new track is told by shape
    too, not only by the glow's hue)."""
    key = ("lane", gap, slot, kind)
    hit = st.masks.get(key)
    if hit is None:
        p, q = st.geo.lane(gap, slot)
        if kind == "glow":
            hit = stroke_mask(p, q, GLOW_W, blur=1.4, caps=True)
        elif kind == "stripe":
            a, b, _ = st.geo.gaps[gap]
            hit = dashes_mask(_dashes(p, q, st.geo.radius[a] + 2, st.geo.radius[b] + 2, STRIPE, STRIPE_GAP), STRIPE_W)
        else:
            hit = stroke_mask(p, q, LANE_W if kind == "track" else CASED_INNER)
        st.masks[key] = hit
    return hit


STRIPE, STRIPE_GAP, STRIPE_W = 5.0, 4.0, 2.2
CHEVRON, CHEVRON_GAP = 9.0, 7.0  # an arrow's length along the trip, and the space between two
ROUTE_W, ROUTE_EDGE = 3.6, 2.0


def _dashes(p: Point, q: Point, skip_p: float, skip_q: float, dash: float, gap: float) -> list[tuple[Point, Point]]:
    """Dashes of `dash` px `gap` apart from p to q, centred between `skip_p` px after p
    and `skip_q` px before q (at least one, shortened to fit)."""
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    run = max(length - skip_p - skip_q, 0.0)
    n = max(1, int((run + gap) // (dash + gap)))
    dash = min(dash, run)
    spare = run - n * dash - (n - 1) * gap
    out = []
    for i in range(n):
        t0 = skip_p + spare / 2 + i * (dash + gap)
        out.append(((p[0] + ux * t0, p[1] + uy * t0), (p[0] + ux * (t0 + dash), p[1] + uy * (t0 + dash))))
    return out


def route_mask(st: Static, gap: int, edge: bool, forward: bool = True) -> tuple[Box, Image.Image]:
    """The passenger's trip over a gap: arrows along its middle pointing the way the
    passenger went (`forward`: from the gap's first station to its second), between the
    two stations' dots (`edge`: the wider white edge drawn under them)."""
    key = ("route", gap, edge, forward)
    hit = st.masks.get(key)
    if hit is None:
        geo: Geometry = st.geo
        a, b, _ = geo.gaps[gap]
        if not forward:
            a, b = b, a
        p, q = geo.points[a], geo.points[b]
        length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
        nx, ny = -(q[1] - p[1]) / length, (q[0] - p[0]) / length
        spread = CHEVRON * 0.62
        pieces = []
        for s, t in _dashes(p, q, geo.radius[a] + 1, geo.radius[b] + 1, CHEVRON, CHEVRON_GAP):
            if math.dist(s, t) < CHEVRON * 0.6:  # no room for an arrow: a dash
                pieces.append((s, t))
                continue
            for side in (1, -1):  # ">" : both arms end at the tip
                pieces.append(((s[0] + side * nx * spread, s[1] + side * ny * spread), t))
        width = ROUTE_W + (2 * ROUTE_EDGE if edge else 0)
        hit = st.masks[key] = dashes_mask(pieces, width)
    return hit


def dashes_mask(pieces: list[tuple[Point, Point]], width: float) -> tuple[Box, Image.Image]:
    """One mask of several round-capped strokes."""
    m = width / 2 + 2
    x0 = math.floor(min(min(p[0], q[0]) for p, q in pieces) - m)
    y0 = math.floor(min(min(p[1], q[1]) for p, q in pieces) - m)
    x1 = math.ceil(max(max(p[0], q[0]) for p, q in pieces) + m)
    y1 = math.ceil(max(max(p[1], q[1]) for p, q in pieces) + m)
    big = Image.new("L", ((x1 - x0) * SS, (y1 - y0) * SS), 0)
    d = ImageDraw.Draw(big)
    r = width * SS / 2
    for p, q in pieces:
        a = ((p[0] - x0) * SS, (p[1] - y0) * SS)
        b = ((q[0] - x0) * SS, (q[1] - y0) * SS)
        d.line([a, b], fill=255, width=round(width * SS))
        for cx, cy in (a, b):
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=255)
    return (x0, y0, x1, y1), box_down(big, (x1 - x0, y1 - y0))


def paste(image: Image.Image, colour, box_mask: tuple[Box, Image.Image]) -> None:
    box, mask = box_mask
    image.paste(colour, box, mask)
