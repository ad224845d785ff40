"""Where On the Underground steps are tapped on the board image: a placement on its gap.

Every colour placed in one gap shares the gap's spot (the page asks which colour there);
forgoing and a tied route have no spot. The positions are the drawing's own (`geometry.py`,
through `boardimage.board_geometry`): a gap's spot is the middle of the stretch of track
between its two stations' dots, as wide as its bundle of lanes.
"""

from __future__ import annotations

import math
from typing import Any

from metrobot.i18n import EN, Lang

from ..targets import Box, Spot, fit_boxes
from .boardimage import SIZE, board_geometry
from .geometry import SPACING, Geometry

REACH = 0.8  # how much of the track between the two dots the box spans
LONGEST = 60.0  # px: the half length of a long gap's box (the rest is open map)
ACROSS = 6.0  # px beyond the outer lanes
ASKEW = 14.0  # px: how far a slanting gap's box may reach off its track, at its corners
SQUARE = 22.0  # px: the half length a slanting gap's box keeps at least


def targets(
    view: dict[str, Any],
    viewer: str | None,
    steps: list[tuple[str, dict[str, Any]]],
    names: dict[str, str] | None = None,
    lang: Lang = EN,
    vision: str = "off",
) -> list[Box | None]:
    geo = board_geometry(view)
    spots = [
        gap_spot(geo, action["gap"]) if action.get("type") == "place" and action.get("gap") in geo.gaps else None
        for _, action in steps
    ]
    return fit_boxes(spots, SIZE)


def gap_spot(geo: Geometry, gap: int) -> Spot:
    """The middle of a gap's visible track, its lanes' whole width across."""
    a, b, slots = geo.gaps[gap]
    (ax, ay), (bx, by) = geo.points[a], geo.points[b]
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    # the track shows between the dots: its middle is the gap's middle when the dots match
    start, end = geo.radius[a], length - geo.radius[b]
    middle = (start + end) / 2
    along = min(LONGEST, max(0.0, (end - start) / 2 * REACH))
    # a box is upright: along a slanting track it would mostly hold open map (and other
    # gaps' track), so it stays nearer a square there
    slant = min(abs(ux), abs(uy))
    if slant > 0.05:
        along = min(along, max(SQUARE, ASKEW / slant))
    across = slots * SPACING / 2 + ACROSS
    return Spot(
        ("gap", gap),
        ax + ux * middle,
        ay + uy * middle,
        abs(ux) * along + abs(uy) * across,
        abs(uy) * along + abs(ux) * across,
    )
