"""Where things are on an On the Underground board image: map units -> pixels, the lanes
(slots) of every gap, station sizes, and which colour runs in which lane this turn.

The board comes from the engine's map (by the view's map name and digest): stations with
schematic x/y in a ~160 x 100 box, y growing downwards (as in an image), and gaps holding
1-4 slots. A gap's slots are parallel lanes `SPACING` px apart, side by side across the
gap as on the real Tube map; a station is drawn big enough to cover every lane arriving.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Any

from metrobot.games.underground.board import board_named
from metrobot.games.underground.state import COLOURS

Point = tuple[float, float]
Rect = tuple[float, float, float, float]

LANE_W = 7.0  # a track's width, px
SPACING = 9.5  # lane centre to lane centre
DOT_R = 7.0  # an ordinary station's radius


def umap(view: dict[str, Any]):
    """The engine's map of a view (refused if the view was made on another version of it)."""
    return board_named(view["map"], view.get("map_digest")).map


@dataclass(frozen=True, eq=False)
class Geometry:
    """A map drawn into a box: station centres, gap lanes, station radii (pixels)."""

    key: tuple
    box: Rect
    scale: float
    points: dict[str, Point]
    gaps: dict[int, tuple[str, str, int]]  # id -> (a, b, slots)
    normals: dict[int, Point]  # unit vector to the left of a -> b (y down)
    radius: dict[str, float]
    at: dict[str, tuple[int, ...]]  # station -> gap ids

    def lane(self, gap: int, slot: int) -> tuple[Point, Point]:
        """The centre line of a slot of a gap, from station a to station b."""
        a, b, k = self.gaps[gap]
        off = (slot - (k - 1) / 2) * SPACING
        nx, ny = self.normals[gap]
        (ax, ay), (bx, by) = self.points[a], self.points[b]
        return (ax + nx * off, ay + ny * off), (bx + nx * off, by + ny * off)

    def lane_mid(self, gap: int, slot: int) -> Point:
        p, q = self.lane(gap, slot)
        return (p[0] + q[0]) / 2, (p[1] + q[1]) / 2

    def offset(self, gap: int, slot: int) -> Point:
        """A slot's offset from the gap's centre line."""
        _, _, k = self.gaps[gap]
        off = (slot - (k - 1) / 2) * SPACING
        nx, ny = self.normals[gap]
        return nx * off, ny * off


@lru_cache(maxsize=16)
def geometry(name: str, digest: str | None, box: Rect, pad: tuple[float, float, float, float]) -> Geometry:
    m = board_named(name, digest).map
    xs = [s.x for s in m.stations.values()]
    ys = [s.y for s in m.stations.values()]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    left, top, right, bottom = box
    aw, ah = right - left - pad[0] - pad[2], bottom - top - pad[1] - pad[3]
    scale = min(aw / max(x1 - x0, 1.0), ah / max(y1 - y0, 1.0))
    ox = left + pad[0] + (aw - (x1 - x0) * scale) / 2 - x0 * scale
    oy = top + pad[1] + (ah - (y1 - y0) * scale) / 2 - y0 * scale
    points = {s.name: (ox + s.x * scale, oy + s.y * scale) for s in m.stations.values()}
    gaps, normals = {}, {}
    at: dict[str, list[int]] = {s: [] for s in m.stations}
    widest: dict[str, int] = dict.fromkeys(m.stations, 1)
    for g in m.gaps:
        gaps[g.id] = (g.a, g.b, g.slots)
        (ax, ay), (bx, by) = points[g.a], points[g.b]
        n = math.hypot(bx - ax, by - ay) or 1.0
        normals[g.id] = ((by - ay) / n, -(bx - ax) / n)
        for s in (g.a, g.b):
            at[s].append(g.id)
            widest[s] = max(widest[s], g.slots)
    radius = {s: max(DOT_R, (k - 1) / 2 * SPACING + LANE_W / 2 + 2.5) for s, k in widest.items()}
    return Geometry(
        (m.name, m.digest, box, pad), box, scale, points, gaps, normals, radius, {s: tuple(v) for s, v in at.items()}
    )


# ---------------------------------------------------------------- lanes of this turn
def occupancy(view: dict[str, Any]) -> dict[int, list[str]]:
    """Colours in each gap (in the fixed colour order)."""
    occ: dict[int, list[str]] = {}
    for c in COLOURS:
        col = (view.get("colours") or {}).get(c)
        if col:
            for g in col["track"]:
                occ.setdefault(g, []).append(c)
    return occ


def assign_lanes(geo: Geometry, occ: dict[int, list[str]]) -> dict[tuple[int, str], int]:
    """Which slot each colour takes in each gap: (gap, colour) -> slot.

    A colour should run on the same side of a bundle from one gap to the next, as on the
    Tube map: every multi-slot gap picks the arrangement of its colours whose lane ends sit
    nearest to the same colours' lane ends in the neighbouring gaps (a few rounds of best
    responses, in gap order; deterministic). Ties go to the fixed colour order."""
    slots: dict[tuple[int, str], int] = {}
    multi = []
    for g, cs in sorted(occ.items()):
        k = geo.gaps[g][2]
        if k == 1:
            slots[(g, cs[0])] = 0
        else:
            multi.append(g)
            start = (k - len(cs)) // 2
            for i, c in enumerate(cs):
                slots[(g, c)] = start + i
    if not multi:
        return slots
    ends = {g: geo.gaps[g][:2] for g in multi}

    def pos(g: int, c: str, s: str) -> Point:
        ox, oy = geo.offset(g, slots[(g, c)]) if (g, c) in slots else (0.0, 0.0)
        return ox, oy

    for _ in range(3):
        changed = False
        for g in multi:
            cs = occ[g]
            k = geo.gaps[g][2]
            nbrs = {c: [(o, s) for s in ends[g] for o in geo.at[s] if o != g and c in occ.get(o, ())] for c in cs}
            best, best_cost = None, math.inf
            for perm in permutations(range(k), len(cs)):
                cost = 0.0
                for c, slot in zip(cs, perm):
                    ox, oy = geo.offset(g, slot)
                    for o, s in nbrs[c]:
                        px, py = pos(o, c, s)
                        cost += (ox - px) ** 2 + (oy - py) ** 2
                if cost < best_cost - 1e-6:
                    best, best_cost = perm, cost
            assert best is not None, "there is a permutation, at a finite cost"
            for c, slot in zip(cs, best):
                if slots[(g, c)] != slot:
                    changed = True
                slots[(g, c)] = slot
        if not changed:
            break
    return slots
