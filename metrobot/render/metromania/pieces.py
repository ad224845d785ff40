"""What a MetrOmania turn draws over the static layer: the players' lines (solid or
dashed, in the player's colour, each with the player's number at its start disc, its end
square and where it grows), stations, placed destination markers (with their holder's
number) and the highlight of the last turn."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

from PIL import ImageDraw

from ..style import INK, font, ink_on, player_colour
from .board import ARROW_CELLS, Geometry, Point

MARKS = True  # the players' numbers on their lines; False only for the benchmark's "before"
LONG_LINE = 8  # tunnels from which a line carries its number in its middle too
TUNNEL_OFFSET = 0.2  # edges: how far a tunnel is drawn from its edge, into its cell
STATION_R = 0.17  # edges: a station's radius


def _unit(dx: float, dy: float) -> Point:
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def line_points(geo: Geometry, vertices: list, cells: list, offset: float) -> list[Point]:
    """The drawn path of a line: each edge shifted toward the cell that holds its tunnel,
    so two lines along one edge (one on each side) stay apart."""
    pts: list[Point] = []
    for i, c in enumerate(cells):
        a, b = geo.px(tuple(vertices[i])), geo.px(tuple(vertices[i + 1]))
        cx, cy = geo.centroid(tuple(c))
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        ux, uy = _unit(cx - mx, cy - my)
        # On an arrow cell (start or end) the line hugs the edge: the arrow's name stays readable.
        k = offset * (0.25 if tuple(c) in ARROW_CELLS else 1.0)
        pts.append((a[0] + ux * k, a[1] + uy * k))
        pts.append((b[0] + ux * k, b[1] + uy * k))
    return pts


def tunnel_segment(geo: Geometry, tip, to, cell) -> tuple[Point, Point]:
    """Where a tunnel from vertex `tip` to `to` on `cell` is drawn (as `draw_pieces` does)."""
    a, b = line_points(geo, [tip, to], [cell], TUNNEL_OFFSET * geo.edge)
    return a, b


def dashed(points: list[Point], dash: float, gap: float) -> Iterable[list[Point]]:
    """Split a polyline into dashes (the pattern runs on across corners)."""
    on, left = True, dash
    current: list[Point] = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > 1e-6:
            step = min(left, seg - pos)
            pos += step
            t = pos / seg
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(p)
            left -= step
            if left <= 1e-6:
                if on and len(current) > 1:
                    yield current
                on = not on
                left = dash if on else gap
                current = [p]
    if on and len(current) > 1:
        yield current


def draw_line(
    d: ImageDraw.ImageDraw, pts: list[Point], colour, style: str, width: float, casing=(255, 255, 255)
) -> None:
    w = max(2, round(width))
    if style == "solid":
        d.line(pts, fill=casing, width=w + 4, joint="curve")
        d.line(pts, fill=colour, width=w, joint="curve")
    else:
        pieces = list(dashed(pts, dash=width * 2.2, gap=width * 1.3))
        # dashes are short: round joints (costly in Pillow) only where a dash turns a corner
        for piece in pieces:
            d.line(piece, fill=casing, width=w + 4, joint="curve" if len(piece) > 2 else None)
        for piece in pieces:
            d.line(piece, fill=colour, width=w, joint="curve" if len(piece) > 2 else None)


def draw_pieces(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    geo: Geometry,
    *,
    highlight: bool = True,
    width_scale: float = 1.0,
    fade: bool = False,
    vision: str = "off",
) -> None:
    """Lines, start/end markers, stations, placed destination markers, last-turn highlight."""
    seat = {p: i for i, p in enumerate(view["players"])}
    e = geo.edge
    width = 0.13 * e * width_scale
    offset = TUNNEL_OFFSET * e
    recent = _recent(view) if highlight else {"tunnels": set(), "stations": set()}
    lines = view["lines"]
    for li, line in enumerate(lines):
        for k in range(len(line["cells"])):
            if (li, k) in recent["tunnels"]:
                pts = line_points(geo, line["vertices"][k : k + 2], [line["cells"][k]], offset)
                d.line(pts, fill=(255, 214, 10), width=int(width * 2.6))
    heads: list = []
    for line in lines:
        if not line["cells"]:
            continue
        colour = player_colour(seat[line["player"]], vision)
        if fade:
            r_, g_, b_ = (int(c * 0.45 + 235 * 0.55) for c in colour)
            colour = (r_, g_, b_)
        pts = line_points(geo, line["vertices"], line["cells"], offset)
        draw_line(d, pts, colour, line["style"], width)
        # start marker: a disc at the start apex; end marker: a square at the end apex; each
        # with the player's number (colour is never the only cue: see `player_marks`)
        number = str(seat[line["player"]] + 1)
        sx, sy = geo.px(tuple(line["vertices"][0]))
        r = 0.16 * e
        d.ellipse([sx - r, sy - r, sx + r, sy + r], fill=colour, outline=(255, 255, 255), width=2)
        if MARKS and r >= 6:  # (not on the small boards of the test trips)
            d.text((sx, sy + 0.5), number, font=font(round(1.35 * r), True), anchor="mm", fill=ink_on(colour))
        if line["status"] == "finished":
            ex, ey = geo.px(tuple(line["vertices"][-1]))
            d.rectangle([ex - r, ey - r, ex + r, ey + r], fill=colour, outline=(255, 255, 255), width=2)
            if MARKS and r >= 6:
                d.text((ex, ey + 0.5), number, font=font(round(1.35 * r), True), anchor="mm", fill=ink_on(colour))
        if MARKS and not fade:
            heads.append((line, pts, number, colour))
    r = STATION_R * e
    for v in view["stations"]:
        x, y = geo.px(tuple(v))
        if tuple(v) in recent["stations"]:
            R = r + 0.1 * e
            d.ellipse([x - R, y - R, x + R, y + R], fill=(255, 214, 10))
        d.ellipse([x - r, y - r, x + r, y + r], fill=(255, 255, 255), outline=INK, width=max(2, int(0.06 * e)))
    for m in view["markers"]:
        if m["cell"] is None:
            continue
        cx, cy = geo.centroid(tuple(m["cell"]))
        colour = player_colour(seat[m["holder"]], vision)
        s = 0.15 * e
        d.rounded_rectangle(
            [cx - s, cy - s, cx + s, cy + s],
            radius=s * 0.35,
            fill=(255, 255, 255),
            outline=colour,
            width=max(2, int(0.05 * e)),
        )
        if e >= 40:  # on the small boards of the test trips a letter would not fit inside its ring
            d.text((cx, cy + 0.01 * e), m["letter"], font=font(int(0.2 * e), True), anchor="mm", fill=INK)
        if MARKS and not fade:  # whose marker: the holder's number on a disc of their colour
            q = 0.12 * e
            bx, by = cx + s, cy - s
            d.ellipse([bx - q, by - q, bx + q, by + q], fill=colour, outline=(255, 255, 255), width=1)
            d.text(
                (bx, by + 0.5),
                str(seat[m["holder"]] + 1),
                font=font(max(9, round(1.5 * q)), True),
                anchor="mm",
                fill=ink_on(colour),
            )
    for line, pts, number, colour in heads:
        player_marks(d, line, pts, number, colour, e)


def player_marks(d: ImageDraw.ImageDraw, line: dict[str, Any], pts: list[Point], number: str, colour, e: float) -> None:
    """The player's number on a line, beside its disc and square: a white pill ringed in
    the player's colour in the middle of the line's last tunnel (where it grows; the end
    square holds it once finished) and in the middle of a long line, so that lines told
    apart by colour are told apart by number too."""
    spots = []
    if line["status"] != "finished":
        spots.append(len(pts) - 2)  # the last tunnel: its two points
    if len(pts) >= 2 * LONG_LINE:
        spots.append((len(pts) // 4) * 2)
    h = max(12, round(0.27 * e))
    f = font(round(h * 0.68), True)
    w = max(h, f.getlength(number) + 8)
    for i in spots:
        (ax, ay), (bx, by) = pts[i], pts[i + 1]
        x, y = (ax + bx) / 2, (ay + by) / 2
        d.rounded_rectangle(
            [x - w / 2, y - h / 2, x + w / 2, y + h / 2],
            radius=h / 2,
            fill=(255, 255, 255),
            outline=colour,
            width=max(2, round(h * 0.13)),
        )
        d.text((x, y + 0.5), number, font=f, anchor="mm", fill=INK)


def _recent(view: dict[str, Any]) -> dict[str, set]:
    """What the last (or the current, unfinished) turn built."""
    record = (view.get("turn") or {}).get("record") or {}
    if not record.get("tunnels") and not record.get("stations"):
        record = view.get("last_turn") or {}
    return {
        "tunnels": {tuple(t) for t in record.get("tunnels", [])},
        "stations": {tuple(v) for v in record.get("stations", [])},
    }
