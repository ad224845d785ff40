"""What a turn draws on the cached board: the passenger's last trip, the glow of the new
track, every colour's track in its slot (new pieces striped), then (over the stations and
names) the face-up destinations, the connection symbols of this game, the passenger's pawn
and, on top of all, the line codes at the ends of every built section (`tags.py`).
"""

from __future__ import annotations

import itertools
from typing import Any

from PIL import Image, ImageDraw

from metrobot.i18n import EN, Lang

from ..labelspots import LINE_HEIGHT, Label
from ..rects import overlap
from ..style import font
from .geometry import assign_lanes, occupancy, umap
from .glyphs import pawn, symbol
from .palette import CASING, EXPRESS, EXPRESS_INK, STATION_INK, Palette, palette, text_on
from .static import CONN_R, Static, ring_radius
from .strokes import lane_mask, paste, route_mask
from .tags import draw_tags, tags_of

PAWN_H = 52


def last_trips(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The passenger's moves of this turn, or else of the turn just played."""
    trips = (view.get("passenger") or {}).get("trips") or []
    if not trips:
        return []
    turn = view.get("turn_count", 0)
    latest = trips[-1]["turn"]
    return [t for t in trips if t["turn"] == latest] if latest >= turn - 1 else []


def new_placements(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The placements to highlight: this turn's so far, or else the last turn's when the view
    carries it (`last_turn`: {player, placements}, kept by the engine for the post after a turn)."""
    now = (view.get("turn") or {}).get("placements") or []
    if now:
        return list(now)
    return list((view.get("last_turn") or {}).get("placements") or [])


def trip_directions(m, trips: list[dict[str, Any]]) -> list[tuple[int, bool]]:
    """(gap, forward) of every gap the trips crossed, in gap order: forward when the
    passenger went from the gap's first station to its second (the first crossing counts)."""
    out: dict[int, bool] = {}
    for trip in trips:
        path = trip.get("path") or []
        for a, b in itertools.pairwise(path):
            gap = m.gap_between(a, b)
            if gap is not None and gap.id not in out:
                out[gap.id] = gap.a == a
    return sorted(out.items())


def draw_map(
    view: dict[str, Any], st: Static, pal: Palette | None = None, lang: Lang = EN
) -> tuple[Image.Image, dict[tuple[int, str], int]]:
    """The board with this view's pieces (the panel area left as the static layer has it);
    returns the image and the slot of every (gap, colour)."""
    pal = pal or palette()
    geo = st.geo
    m = umap(view)
    image = st.under.copy()
    occ = occupancy(view)
    slots = assign_lanes(geo, occ)

    new = {(p["gap"], p["colour"]) for p in new_placements(view)}
    for gap, colour in sorted(new):
        slot = slots.get((gap, colour))
        if slot is not None:
            paste(image, pal.new_glow, lane_mask(st, gap, slot, "glow"))
    for (gap, colour), slot in slots.items():
        fill = pal.line(colour)
        if colour in CASING:
            paste(image, CASING[colour], lane_mask(st, gap, slot, "track"))
            paste(image, fill, lane_mask(st, gap, slot, "inner"))
        else:
            paste(image, fill, lane_mask(st, gap, slot, "track"))
        if (gap, colour) in new:
            paste(image, text_on(fill), lane_mask(st, gap, slot, "stripe"))

    route = trip_directions(m, last_trips(view))
    for edge, colour in ((True, (255, 255, 255)), (False, pal.route)):
        for gap, forward in route:
            paste(image, colour, route_mask(st, gap, edge, forward))
    image.paste(st.full, (0, 0), st.over)
    d = ImageDraw.Draw(image)
    _destinations(image, d, view, st)
    for station, name in sorted((view.get("connection_tiles") or {}).items()):
        spot = st.conn_spots.get(station)
        if spot is not None:
            sprite = symbol(name, int(2 * CONN_R), True)
            image.paste(sprite, (round(spot[0] - sprite.width / 2), round(spot[1] - sprite.height / 2)), sprite)
    passenger = view.get("passenger") or {}
    if not passenger.get("gone") and passenger.get("at") in geo.points:
        sprite = pawn(PAWN_H, pal.route)
        image.paste(sprite, pawn_spot(st, passenger["at"]), sprite)
    draw_tags(image, view, st, slots, pal, lang, drawn_over(view, st))  # on top: never hidden
    return image, slots


def drawn_over(view: dict[str, Any], st: Static) -> list[tuple[float, float, float, float]]:
    """What a turn draws over the map that the line codes keep clear of: the pawn."""
    passenger = view.get("passenger") or {}
    if passenger.get("gone") or passenger.get("at") not in st.geo.points:
        return []
    x, y = pawn_spot(st, passenger["at"])
    return [(x + 4, y, x + int(PAWN_H * 0.72) - 4, y + PAWN_H)]


def map_tags(
    view: dict[str, Any], st: Static, slots: dict[tuple[int, str], int], pal: Palette | None = None, lang: Lang = EN
) -> list:
    """The line codes `draw_map` draws for this view (where, which colour, which end)."""
    return tags_of(view, st, slots, pal or palette(), lang, drawn_over(view, st))


def pawn_spot(st: Static, station: str) -> tuple[int, int]:
    """Where the pawn's sprite goes: standing on the station, or just beside it when that
    would hide a name (its own or a neighbour's)."""
    x, y = st.geo.points[station]
    r = st.geo.radius[station]
    w, h = int(PAWN_H * 0.72), PAWN_H
    foot = y + r * 0.5 - h * 0.92
    best, best_cost = None, float("inf")
    for i, dx in enumerate((0.0, -(w / 2 + r - 2), w / 2 + r - 2)):
        left, top = x + dx - w / 2, foot + (0 if i == 0 else r * 0.6)
        box = (left + 4, top + 2, left + w - 4, top + h * 0.85)
        cost = i * 20.0 + sum(
            overlap(box, b)
            for lab in st.labels.values()
            for b in lab.boxes
            if abs(lab.rect[0] - x) < 300 and abs(lab.rect[1] - y) < 200
        )
        if cost < best_cost:
            best, best_cost = (round(left), round(top)), cost
    assert best is not None, "three places tried, at finite costs"
    return best


def _destinations(image: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], st: Static) -> None:
    """The face-up destinations: a bold ring round the station, the name on a card of the
    destination's colour (yellow express, white standard)."""
    m = umap(view)
    for station in (view.get("deck") or {}).get("row") or []:
        if station not in st.geo.points:
            continue
        express = m.stations[station].destination == "express"
        x, y = st.geo.points[station]
        r = ring_radius(st.geo, station) + 3
        d.ellipse([x - r, y - r, x + r, y + r], outline=STATION_INK, width=3)
        label = st.labels.get(station)
        if label is not None:
            _card_label(
                image, d, label, EXPRESS if express else (255, 255, 255), EXPRESS_INK if express else STATION_INK
            )


def _card_label(image: Image.Image, d: ImageDraw.ImageDraw, lab: Label, fill, edge) -> None:
    f = font(lab.size)  # the name's own footprint, so the card covers no other name
    lh = lab.size * LINE_HEIGHT
    if lab.angle:
        text = lab.lines[0]
        w, h = int(f.getlength(text)) + 16, int(lh) + 8
        tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        td = ImageDraw.Draw(tile)
        td.rounded_rectangle([0, 0, w - 1, h - 1], radius=6, fill=fill + (255,), outline=edge + (255,), width=2)
        td.text((w / 2, h / 2), text, font=f, anchor="mm", fill=STATION_INK + (255,))
        tile = tile.rotate(lab.angle, resample=Image.Resampling.BICUBIC, expand=True)
        image.paste(tile, (round(lab.centre[0] - tile.width / 2), round(lab.centre[1] - tile.height / 2)), tile)
        return
    widths = [f.getlength(t) for t in lab.lines]
    left, top, right, bottom = lab.rect
    if lab.align == "l":
        x0, x1 = left, left + max(widths)
    elif lab.align == "r":
        x0, x1 = right - max(widths), right
    else:
        mid = (left + right) / 2
        x0, x1 = mid - max(widths) / 2, mid + max(widths) / 2
    d.rounded_rectangle([x0 - 5, top - 2, x1 + 5, bottom + 2], radius=6, fill=fill, outline=edge, width=2)
    for i, text in enumerate(lab.lines):
        y = top + i * lh + lh / 2
        x, anchor = {"l": (x0, "lm"), "r": (x1, "rm")}.get(lab.align, ((x0 + x1) / 2, "mm"))
        d.text((x, y), text, font=f, anchor=anchor, fill=STATION_INK)
