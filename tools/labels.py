"""Where each station's name is drawn on a board (the side of the station), chosen when the
board is built (`tools/citymap.py`) so that the renderer only follows the file.

A name is taken to be about LABEL_CHAR units wide per character and LABEL_HEIGHT high (the
renderer's intended size) and starts LABEL_GAP from the station. The greedy choice below is
what made London's file: changing it changes London's digest.
"""

from __future__ import annotations

import math

LABEL_CHAR, LABEL_HEIGHT, LABEL_GAP = 0.5, 1.2, 0.8
DIRECTIONS = {
    "e": (1, 0),
    "ne": (1, -1),
    "n": (0, -1),
    "nw": (-1, -1),
    "w": (-1, 0),
    "sw": (-1, 1),
    "s": (0, 1),
    "se": (1, 1),
}
Box = tuple[float, float, float, float]


def label_box(pos: dict[str, tuple[float, float]], name: str, direction: str) -> Box:
    x, y = pos[name]
    dx, dy = DIRECTIONS[direction]
    w, h, g = LABEL_CHAR * len(name), LABEL_HEIGHT, LABEL_GAP
    g = g * 0.75 if dx and dy else g
    left = x + g if dx > 0 else x - g - w if dx < 0 else x - w / 2
    top = y + g if dy > 0 else y - g - h if dy < 0 else y - h / 2
    return left, top, left + w, top + h


def _segment_hits_box(p: tuple[float, float], q: tuple[float, float], box: Box) -> bool:
    """Liang-Barsky clipping: does segment p-q enter the box?"""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, start in ((dx, x0, x1, p[0]), (dy, y0, y1, p[1])):
        if d == 0:
            if not lo <= start <= hi:
                return False
            continue
        a, b = (lo - start) / d, (hi - start) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return False
    return True


def place_labels(
    pos: dict[str, tuple[float, float]], gaps: list[tuple[str, str, list[str]]], fixed: dict[str, str]
) -> dict[str, str]:
    """Greedy: the busiest stations choose first; each takes the direction whose name box
    overlaps the fewest names already placed, stations and pieces of track (`fixed` names
    the side of a station outright)."""
    degree = dict.fromkeys(pos, 0)
    for a, b, _ in gaps:
        degree[a] += 1
        degree[b] += 1
    segments = [(pos[a], pos[b]) for a, b, _ in gaps]
    placed: dict[str, Box] = {}
    result: dict[str, str] = {}
    preference = ["e", "w", "ne", "se", "nw", "sw", "n", "s"]
    for name in sorted(pos, key=lambda s: (-degree[s], s)):
        best, best_cost = "e", math.inf
        for rank, direction in enumerate([fixed[name]] if name in fixed else preference):
            box = label_box(pos, name, direction)
            x0, y0, x1, y1 = box
            cost = 0.1 * rank
            if x0 < -2 or x1 > 162 or y0 < -2 or y1 > 102:
                cost += 50
            for other in placed.values():
                w = min(x1, other[2]) - max(x0, other[0])
                h = min(y1, other[3]) - max(y0, other[1])
                if w > 0 and h > 0:
                    cost += 20 + 10 * w * h
            for s, (px, py) in pos.items():
                if s != name and x0 - 0.6 <= px <= x1 + 0.6 and y0 - 0.6 <= py <= y1 + 0.6:
                    cost += 15
            cost += 3 * sum(1 for p, q in segments if _segment_hits_box(p, q, box))
            if cost < best_cost:
                best, best_cost = direction, cost
        placed[name] = label_box(pos, name, best)
        result[name] = best
    return result


def label_overlaps(pos: dict[str, tuple[float, float]], sides: dict[str, str]) -> list[tuple[str, str]]:
    """Pairs of stations whose name boxes overlap, and (name, station) pairs where a name
    covers another station's dot."""
    boxes = {s: label_box(pos, s, d) for s, d in sides.items()}
    names = sorted(boxes)
    found = []
    for i, a in enumerate(names):
        ax0, ay0, ax1, ay1 = boxes[a]
        for b in names[i + 1 :]:
            bx0, by0, bx1, by1 = boxes[b]
            if min(ax1, bx1) > max(ax0, bx0) and min(ay1, by1) > max(ay0, by0):
                found.append((a, b))
        for s, (px, py) in pos.items():
            if s != a and ax0 <= px <= ax1 and ay0 <= py <= ay1:
                found.append((a, s))
    return found
