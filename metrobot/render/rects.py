"""Rectangle and segment geometry for placing labels (pixels; y grows downward)."""

from __future__ import annotations

import math

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom


def clip_len(p: Point, q: Point, r: Rect) -> float:
    """Length of segment pq inside rectangle r (Liang-Barsky)."""
    # The four edges (left, right, top, bottom) unrolled, the same steps in the same order as
    # Liang-Barsky's loop: label placement calls this millions of times a test run, and the
    # loop's tuples and max/min calls were most of its time. (`if t > t0: t0 = t` is max(t0, t).)
    x0, y0 = p
    dx, dy = q[0] - x0, q[1] - y0
    t0, t1 = 0.0, 1.0
    pk, qk = -dx, x0 - r[0]
    if pk == 0:
        if qk < 0:
            return 0.0
    else:
        t = qk / pk
        if pk < 0:
            if t > t1:
                return 0.0
            if t > t0:
                t0 = t
        else:
            if t < t0:
                return 0.0
            if t < t1:
                t1 = t
    pk, qk = dx, r[2] - x0
    if pk == 0:
        if qk < 0:
            return 0.0
    else:
        t = qk / pk
        if pk < 0:
            if t > t1:
                return 0.0
            if t > t0:
                t0 = t
        else:
            if t < t0:
                return 0.0
            if t < t1:
                t1 = t
    pk, qk = -dy, y0 - r[1]
    if pk == 0:
        if qk < 0:
            return 0.0
    else:
        t = qk / pk
        if pk < 0:
            if t > t1:
                return 0.0
            if t > t0:
                t0 = t
        else:
            if t < t0:
                return 0.0
            if t < t1:
                t1 = t
    pk, qk = dy, r[3] - y0
    if pk == 0:
        if qk < 0:
            return 0.0
    else:
        t = qk / pk
        if pk < 0:
            if t > t1:
                return 0.0
            if t > t0:
                t0 = t
        else:
            if t < t0:
                return 0.0
            if t < t1:
                t1 = t
    return (t1 - t0) * math.hypot(dx, dy) if t1 > t0 else 0.0


# A segment with its bounds: p, q, min x, max x, min y, max y (`bounded`)
Bounded = tuple[Point, Point, float, float, float, float]


def bounded(segments: list[tuple[Point, Point]]) -> list[Bounded]:
    return [(p, q, min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])) for p, q in segments]


def clip_len_sum(segments: list[Bounded], r: Rect) -> float:
    """sum(clip_len(p, q, r) for each segment), the same float, in a fraction of the time: a
    segment whose bounds lie more than a pixel outside r is not measured. Liang-Barsky
    gives it exactly 0.0 (the edge it lies beyond stops it: its parameter is below 0 or
    above 1 by far more than a rounding), and adding 0.0 changes no sum."""
    x0, y0, x1, y1 = r[0] - 1, r[1] - 1, r[2] + 1, r[3] + 1
    return sum(
        clip_len(p, q, r)
        for p, q, lo_x, hi_x, lo_y, hi_y in segments
        if hi_x >= x0 and lo_x <= x1 and hi_y >= y0 and lo_y <= y1
    )


def overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    if w <= 0:
        return 0.0
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if h > 0 else 0.0


def grow(r: Rect, m: float) -> Rect:
    return r[0] - m, r[1] - m, r[2] + m, r[3] + m


def dist_rect(p: Point, r: Rect) -> float:
    dx = max(r[0] - p[0], 0.0, p[0] - r[2])
    dy = max(r[1] - p[1], 0.0, p[1] - r[3])
    return math.hypot(dx, dy)


def inside(r: Rect, bounds: Rect) -> bool:
    return r[0] >= bounds[0] and r[1] >= bounds[1] and r[2] <= bounds[2] and r[3] <= bounds[3]
