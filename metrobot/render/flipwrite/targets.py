"""Where flip-and-write decisions are tapped on a player's own sheet (what their picture shows).

A ride is tapped on the last station it crosses (so "cross 3 on line C" is the third station
it would cross from the wagon, hops of an express included), a transfer on the station it
boxes, a free ride on its station; a ride that crosses nothing, or a transfer with no empty
station left, on the line's row in the table (badge, name and windows). Steps ending on one
station (two lines through it, a ring ridden either way) share its spot: the page asks
which. Letting a free ride go has no spot. What a step crosses comes from the engine's own
rule (`actions.perform` on the sheet the picture shows: the sealed steps of this round
included); where things are, from the drawing's own layout (`sheet.sheet_geometry`).
"""

from __future__ import annotations

from typing import Any

from metrobot.games.flipwrite.actions import perform
from metrobot.games.flipwrite.deck import parse_card
from metrobot.games.flipwrite.mapdata import MetroMap, map_of_view
from metrobot.games.flipwrite.sheet import Sheet
from metrobot.i18n import EN, Lang

from ..targets import Box, Spot, fit_boxes
from .mapdraw import SHEET_STYLE
from .sheet import sheet_geometry

STATION_HALF = SHEET_STYLE.radius + 7  # px: a station's dot and a ring round it


def targets(
    view: dict[str, Any],
    viewer: str | None,
    steps: list[tuple[str, dict[str, Any]]],
    names: dict[str, str] | None = None,
    lang: Lang = EN,
    vision: str = "off",
) -> list[Box | None]:
    if viewer is None or viewer not in view["sheets"] or view.get("card") is None:
        return [None] * len(steps)
    where = sheet_geometry(view)
    metro_map = _metro_map(view)
    mine = (view.get("pending") or {}).get("sheet") if view.get("you") == viewer else None
    raw = mine or view["sheets"][viewer]
    sheet = Sheet(dict(raw["marks"]), {lid: tuple(ws) for lid, ws in raw["windows"].items()}, {})
    card = parse_card(view["card"])
    spots = []
    for _, action in steps:
        kind = action.get("type")
        if kind == "free":
            station = action.get("station")
            spots.append(_station(where, station) if station else None)
            continue
        marked = perform(metro_map, sheet, card, action).marked
        spots.append(_station(where, marked[-1]) if marked else _line(where, action["line"]))
    return fit_boxes(spots, where["size"])


def _station(where: dict[str, Any], sid: str) -> Spot:
    x, y = where["stations"][sid]
    return Spot(("station", sid), x, y, STATION_HALF, STATION_HALF)


def _line(where: dict[str, Any], lid: str) -> Spot:
    """The line's row from its badge to its windows (where the card is written)."""
    parts = where["lines"][lid]
    left, top, _, _ = parts["badge"]
    _, _, right, bottom = parts["windows"]
    return Spot(("line", lid), (left + right) / 2, (top + bottom) / 2, (right - left) / 2, (bottom - top) / 2)


def _metro_map(view: dict[str, Any]) -> MetroMap:
    """The engine's map of the view's map data (parsed once per map)."""
    return map_of_view(view["map_data"])
