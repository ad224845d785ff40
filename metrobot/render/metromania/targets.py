"""Where MetrOmania steps are tapped on the board image.

A tunnel (starting a line, digging on, finishing) is tapped where the image will draw it:
on its own drawn segment (`pieces.tunnel_segment`, the edge shifted into the tunnel's
cell), most of the way towards the vertex it goes to. So the left and the right cell of one
edge are two spots, and so are the two edges from the line's tip that border one cell (the
cell left of one, right of the other), which meet at the tip and part towards their ends.
The marker dropped on a spot cell does not move the spot: the letters share it (the page
asks which). A station, intermediate or bonus, is tapped on its vertex; "no bonus" has no
spot. Positions come from the drawing's own geometry (`image.geometry`).
"""

from __future__ import annotations

from typing import Any

from metrobot.games.metromania.board import ARROW_BY_CELL
from metrobot.i18n import EN, Lang

from ..targets import Box, Spot, fit_boxes
from .board import Geometry
from .image import HEIGHT, WIDTH, geometry
from .pieces import STATION_R, tunnel_segment

TOWARDS = 0.7  # how far along the drawn tunnel, from the tip, its spot sits
TUNNEL_HALF = 0.22  # edges: the half side of a tunnel's box
STATION_HALF = 0.3  # edges: the half side of a station's box (its dot and a ring round it)


def targets(
    view: dict[str, Any],
    viewer: str | None,
    steps: list[tuple[str, dict[str, Any]]],
    names: dict[str, str] | None = None,
    lang: Lang = EN,
    vision: str = "off",
) -> list[Box | None]:
    geo = geometry()
    seat = view["players"][view["current"]]
    tips = {
        line["style"]: line["vertices"][-1] for line in view["lines"] if line["player"] == seat and line["vertices"]
    }
    return fit_boxes([_spot(geo, action, tips) for _, action in steps], (WIDTH, HEIGHT))


def _spot(geo: Geometry, action: dict[str, Any], tips: dict[str, list[int]]) -> Spot | None:
    kind = action.get("type")
    if kind in ("station", "bonus"):
        v = tuple(action["at"])
        x, y = geo.px(v)
        half = max(STATION_HALF, STATION_R + 0.05) * geo.edge
        return Spot(("vertex", v), x, y, half, half)
    if kind != "tunnel":
        return None
    cell, to = tuple(action["cell"]), tuple(action["to"])
    arrow = ARROW_BY_CELL.get(cell)
    tip = tuple(tips[action["line"]]) if action["line"] in tips else None
    if arrow is not None and arrow.kind == "start":
        tip = arrow.apex  # a line starts at its arrow's outer apex
    if tip is None:
        return None
    (ax, ay), (bx, by) = tunnel_segment(geo, tip, to, cell)
    x, y = ax + (bx - ax) * TOWARDS, ay + (by - ay) * TOWARDS
    half = TUNNEL_HALF * geo.edge
    return Spot(("tunnel", tip, to, cell), x, y, half, half)
