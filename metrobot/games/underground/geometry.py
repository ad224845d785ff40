"""Plane geometry for the board's planarity check and the loop scoring: exact orientation
tests (float coordinates turned into Fractions), segment intersection, distances."""

from __future__ import annotations

import math
from fractions import Fraction

Point = tuple[float, float]


def orientation(p: Point, q: Point, r: Point) -> int:
    """+1 if p, q, r turn counter-clockwise (in x-right, y-up terms), -1 clockwise, 0 collinear.
    Exact for any float coordinates."""
    px, py = Fraction(p[0]), Fraction(p[1])
    value = (Fraction(q[0]) - px) * (Fraction(r[1]) - py) - (Fraction(q[1]) - py) * (Fraction(r[0]) - px)
    return (value > 0) - (value < 0)


def on_segment(p: Point, q: Point, r: Point) -> bool:
    """r, known to be collinear with p-q, lies within the segment's bounding box."""
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Do the closed segments p1-p2 and q1-q2 share at least one point?"""
    if (
        max(p1[0], p2[0]) < min(q1[0], q2[0])
        or max(q1[0], q2[0]) < min(p1[0], p2[0])
        or max(p1[1], p2[1]) < min(q1[1], q2[1])
        or max(q1[1], q2[1]) < min(p1[1], p2[1])
    ):
        return False
    o1, o2 = orientation(p1, p2, q1), orientation(p1, p2, q2)
    o3, o4 = orientation(q1, q2, p1), orientation(q1, q2, p2)
    if o1 != o2 and o3 != o4 and 0 not in (o1, o2, o3, o4):
        return True
    return (
        (o1 == 0 and on_segment(p1, p2, q1))
        or (o2 == 0 and on_segment(p1, p2, q2))
        or (o3 == 0 and on_segment(q1, q2, p1))
        or (o4 == 0 and on_segment(q1, q2, p2))
    )


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))
