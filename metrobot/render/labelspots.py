"""Where a station's name may go, and what each spot costs on its own: the spots around its
dot (right, left, above, below, the diagonals, slid along the dot, a little further out) for
one text of the name, and at 45 degrees; a spot costs for the dots, badges and lines under
it, for sitting nearer to another dot than to its own (whose name is it?), for being
farther out and for a side other than the station's preferred one (`HINTS`). Each spot is
a `Label`, the name as it would be drawn there.

The weights of every cost are here, those of the search too (two names overlapping, a
smaller, abbreviated or wrapped text). Kept apart from the search among the spots of all
names (`labels.py`), which weighs them against one another.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .rects import Point, Rect, clip_len, dist_rect, inside
from .style import font

LINE_HEIGHT = 1.18  # of the font size


# ---------------------------------------------------------------- labels
@dataclass(frozen=True)
class Label:
    sid: str
    lines: tuple[str, ...]
    rect: Rect  # bounding box
    align: str  # "l", "r" or "m" (horizontal names)
    size: int
    angle: float = 0.0  # degrees, counter-clockwise; 45 or -45 for diagonal names
    centre: Point = (0.0, 0.0)  # of the text (diagonal names are drawn rotated about it)
    boxes: tuple[Rect, ...] = ()  # footprint used for collisions


# (dx sign, dy sign, along, preference cost). `along` slides a name above/below the dot to
# start (1) or end (-1) at it, or a side name up (-1) / down (1).
_POSITIONS = (
    (1, 0, 0, 0.0),
    (-1, 0, 0, 4.0),
    (0, -1, 0, 6.0),
    (0, 1, 0, 6.0),
    (1, -1, 0, 10.0),
    (1, 1, 0, 10.0),
    (-1, -1, 0, 12.0),
    (-1, 1, 0, 12.0),
    (0, -1, 1, 9.0),
    (0, -1, -1, 10.0),
    (0, 1, 1, 9.0),
    (0, 1, -1, 10.0),
    (1, 0, 1, 8.0),
    (1, 0, -1, 8.0),
    (-1, 0, 1, 11.0),
    (-1, 0, -1, 11.0),
)
# diagonal names: (direction of reading from the dot's side, sign) -> start at the dot or end there
_DIAGONALS = (("NE", 0.0), ("SE", 2.0), ("SW", 4.0), ("NW", 6.0))

# a station's preferred side (where the map's author would put its name), and the cost of another side
HINTS = {
    "e": (1, 0),
    "w": (-1, 0),
    "n": (0, -1),
    "s": (0, 1),
    "ne": (1, -1),
    "se": (1, 1),
    "nw": (-1, -1),
    "sw": (-1, 1),
}
HINT_MISS = 7.0

W_DOT = 6.0  # per px² of a name over a dot or badge
W_LINE = 1.6  # x line width, per px of line under a name
W_NAME = 14.0  # per px² of two names overlapping
W_AMBIGUOUS = 150.0  # a name nearer to another dot than to its own
AMBIG_MID, AMBIG_MARGIN = 0.5, 6.0  # "nearer": distance to the name plus this much of the distance to its middle
SMALLER = 45.0  # a size smaller
ABBREVIATED = 30.0
WRAPPED = 8.0  # per extra line
FARTHER = 25.0
DIAGONAL = 55.0


@dataclass
class Cand:
    label: Label
    static: float


@dataclass
class Surroundings:
    dots: list[Rect]
    segs: list[tuple]
    obstacles: list[Rect]
    points: list[Point]


def _static_cost(boxes: Iterable[Rect], env: Surroundings, line_width: float) -> float:
    cost = 0.0
    half = line_width / 2
    for b in boxes:
        ix0, iy0, ix1, iy1 = b[0] + 1, b[1] + 2, b[2] - 1, b[3] - 2
        for r in env.dots:
            if r[2] > ix0 and r[0] < ix1 and r[3] > iy0 and r[1] < iy1:
                cost += W_DOT * (min(r[2], ix1) - max(r[0], ix0)) * (min(r[3], iy1) - max(r[1], iy0))
        for r in env.obstacles:
            if r[2] > ix0 and r[0] < ix1 and r[3] > iy0 and r[1] < iy1:
                cost += W_DOT * (min(r[2], ix1) - max(r[0], ix0)) * (min(r[3], iy1) - max(r[1], iy0))
        wide = (ix0 - half, iy0 - half, ix1 + half, iy1 + half)
        for p, q, mnx, mxx, mny, mxy in env.segs:
            if mxx < wide[0] or mnx > wide[2] or mxy < wide[1] or mny > wide[3]:
                continue
            cost += W_LINE * line_width * clip_len(p, q, wide)
    return cost


def flat(
    sid: str,
    at: Point,
    lines: tuple[str, ...],
    fs: int,
    text_cost: float,
    far: float,
    radius: float,
    line_width: float,
    env: Surroundings,
    bounds: Rect,
    hint: tuple[int, int] | None = None,
) -> list[Cand]:
    """Every horizontal spot around the dot for this text, with its static cost (off the `hint` side: more)."""
    sx, sy = at
    f = font(fs)
    w = max(f.getlength(t) for t in lines)
    h = fs * LINE_HEIGHT * len(lines)
    gap = radius * 1.45 + 2
    out = []
    for dx, dy, along, pref in _POSITIONS:
        if hint is not None:
            pref = (0.0 if along == 0 else 3.0) if (dx, dy) == hint else pref + HINT_MISS
        diag = (0.75 if dx and dy else 1.0) * far
        pref += FARTHER if far > 1 else 0.0
        if dx > 0:
            left, align = sx + gap * diag, "l"
        elif dx < 0:
            left, align = sx - gap * diag - w, "r"
        elif along > 0:
            left, align = sx - radius * far, "l"
        elif along < 0:
            left, align = sx + radius * far - w, "r"
        else:
            left, align = sx - w / 2, "m"
        if dy > 0:
            top = sy + gap * diag - (0 if dx else 2)
        elif dy < 0:
            top = sy - gap * diag - h + (0 if dx else 2)
        elif along:
            top = sy - h / 2 + along * (h / 2 - fs * 0.3) * (1 if len(lines) > 1 else 0.6)
        else:
            top = sy - h / 2
        rect = (left, top, left + w, top + h)
        if not inside(rect, bounds):
            continue
        cost = pref + text_cost + _static_cost((rect,), env, line_width)
        # whose name is it? another dot nearer to the name (its edge and its middle) than its own
        cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        own = dist_rect(at, rect) + AMBIG_MID * math.hypot(sx - cx, sy - cy) + AMBIG_MARGIN
        for p in env.points:
            if (
                rect[0] - own < p[0] < rect[2] + own
                and rect[1] - own < p[1] < rect[3] + own
                and dist_rect(p, rect) + AMBIG_MID * math.hypot(p[0] - cx, p[1] - cy) < own
            ):
                cost += W_AMBIGUOUS
        out.append(Cand(Label(sid, lines, rect, align, fs, 0.0, (cx, cy), (rect,)), cost))
    return out


def diagonal(
    sid: str,
    at: Point,
    text: str,
    fs: int,
    text_cost: float,
    radius: float,
    line_width: float,
    env: Surroundings,
    bounds: Rect,
) -> list[Cand]:
    """The name at 45 degrees, starting (NE, SE) or ending (SW, NW) beside the dot."""
    sx, sy = at
    length = font(fs).getlength(text)
    h = fs * LINE_HEIGHT
    gap = radius * 1.3 + 3
    out = []
    c = math.sqrt(0.5)
    for name, pref in _DIAGONALS:
        ux = c if name in ("NE", "SE") else -c
        uy = -c if name in ("NE", "NW") else c
        # the text's middle line runs from the dot outwards along (ux, uy)
        start = (sx + ux * gap, sy + uy * gap)
        mid = (start[0] + ux * length / 2, start[1] + uy * length / 2)
        n = max(2, int(length / (h * 0.75)) + 1)
        side = h * 0.82
        boxes = []
        for i in range(n):
            t = (i + 0.5) / n * length
            px, py = start[0] + ux * t, start[1] + uy * t
            boxes.append((px - side / 2, py - side / 2, px + side / 2, py + side / 2))
        bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        if not inside(bbox, bounds):
            continue
        angle = 45.0 if uy * ux < 0 else -45.0  # reading left to right, rising or falling
        cost = DIAGONAL + pref + text_cost + _static_cost(boxes, env, line_width)
        out.append(Cand(Label(sid, (text,), bbox, "m", fs, angle, mid, tuple(boxes)), cost))
    return out
