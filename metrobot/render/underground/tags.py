"""Line codes on the board, so that colour is never the only cue.

Every built section of a colour (its track's connected pieces) carries a tag at each of its
ends (and a long one in its middle too): a white pill ringed in the colour, on the
colour's own lane, with the colour's code ("R", "Bk", ...; in the image's language: "빨"
for 빨간색) in dark ink. A loop, which has no end, carries one; a section of one short gap
carries one in its middle. The panel shows the
same tags beside every colour's name (`draw_tag`), so a code leads to its word.

A tag goes on its lane as near to the section's end station as it can: at the first spot,
stepping away from the station, that covers no other tag and as little of the station
names and dots as possible. Tags are drawn whatever the palette (`MARKS` switches them
off for the benchmark's baseline only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from metrobot.i18n import EN, NP_, Lang

from ..pill import paste_pill, pill
from ..rects import overlap
from .palette import CASING, Palette
from .static import CONN_R, NR_H, NR_W, Static

MARKS = True  # False only for the benchmark's "before" (bench/underground_render.py)
TAG_H = 19  # px: the code (13 px bold) fits 2 Latin letters or a Hangul syllable
STEP = 7.0  # px between the spots tried along a lane
CELL = 64  # the index of names and dots: square cells of this size
LONG = 4  # a section with a gap this many gaps from all its ends gets a tag there too

# The code of each colour: a letter or two of its name, in the image's language (the
# translators' note lists them; a test checks that no two colours share one).
CODES = {
    "red": NP_("line code", "R"),
    "black": NP_("line code", "Bk"),
    "yellow": NP_("line code", "Y"),
    "blue": NP_("line code", "Bl"),
    "purple": NP_("line code", "Pu"),
    "pink": NP_("line code", "Pk"),
    "orange": NP_("line code", "O"),
    "green": NP_("line code", "G"),
    "brown": NP_("line code", "Br"),
    "white": NP_("line code", "W"),
    "grey": NP_("line code", "Gy"),
}

Rect = tuple[float, float, float, float]


def code(colour: str, lang: Lang = EN) -> str:
    """A colour's code in `lang` (a colour we do not know: its first letter)."""
    return lang.p(*CODES[colour]) if colour in CODES else colour[:1].upper()


@dataclass(frozen=True)
class Tag:
    colour: str
    gap: int
    station: str | None  # the section's end it marks (None: a loop or a one-gap section)
    centre: tuple[float, float]
    box: Rect


def sprite(text: str, ring: tuple[int, int, int], height: int = TAG_H) -> Image.Image:
    """The pill (`metrobot/render/pill.py`): white, ringed in the line's colour (or its casing)."""
    return pill(text, ring, height)


def ring_of(colour: str, pal: Palette) -> tuple[int, int, int]:
    """A light colour is ringed in its casing (a white ring would not show on paper)."""
    return CASING[colour] if colour in CASING else pal.line(colour)


def draw_tag(
    image: Image.Image, centre: tuple[float, float], colour: str, pal: Palette, lang: Lang = EN, height: int = TAG_H
) -> tuple[int, int]:
    """A tag centred at `centre`; returns its size."""
    return paste_pill(image, centre, code(colour, lang), ring_of(colour, pal), height)


# ---------------------------------------------------------------- where the tags go
def sections(track: list[int], gaps: dict[int, tuple[str, str, int]]) -> list[tuple[list[int], list[str]]]:
    """A colour's track as connected sections: (gap ids, end stations) each; the ends are
    the stations where one gap of the section meets (a loop has none)."""
    at: dict[str, list[int]] = {}
    for g in track:
        a, b, _ = gaps[g]
        at.setdefault(a, []).append(g)
        at.setdefault(b, []).append(g)
    seen: set[int] = set()
    out = []
    for first in sorted(track):
        if first in seen:
            continue
        part, todo = [], [first]
        seen.add(first)
        while todo:
            g = todo.pop()
            part.append(g)
            for s in gaps[g][:2]:
                for o in at[s]:
                    if o not in seen:
                        seen.add(o)
                        todo.append(o)
        stations = {s for g in part for s in gaps[g][:2]}
        out.append((sorted(part), sorted(s for s in stations if len(at[s]) == 1)))
    return out


def _middle(part: list[int], ends: list[str], gaps: dict[int, tuple[str, str, int]]) -> int | None:
    """The gap of a long section farthest from its ends (a tag there too: a line crossing
    the whole map is not followed from an end), if `LONG` gaps or more from each."""
    if len(part) < 2 * LONG or not ends:
        return None
    at: dict[str, list[int]] = {}
    for g in part:
        for s in gaps[g][:2]:
            at.setdefault(s, []).append(g)
    far = dict.fromkeys(ends, 0)
    todo = list(ends)
    while todo:  # stations by gaps from the nearest end
        s = todo.pop(0)
        for g in at[s]:
            o = gaps[g][1] if gaps[g][0] == s else gaps[g][0]
            if o not in far:
                far[o] = far[s] + 1
                todo.append(o)
    best = max(part, key=lambda g: (min(far[s] for s in gaps[g][:2]), -g))
    return best if min(far[s] for s in gaps[best][:2]) >= LONG else None


def _index(st: Static) -> dict[tuple[int, int], list[Rect]]:
    """Name boxes, station dots and badges by cell (kept with the static layers)."""
    hit: dict[tuple[int, int], list[Rect]] | None = st.tag_index
    if hit is None:
        rects = [b for lab in st.labels.values() for b in lab.boxes]
        rects += [
            (x - st.geo.radius[s], y - st.geo.radius[s], x + st.geo.radius[s], y + st.geo.radius[s])
            for s, (x, y) in st.geo.points.items()
        ]
        rects += [(x - NR_W / 2, y - NR_H / 2, x + NR_W / 2, y + NR_H / 2) for x, y in st.nr_spots.values()]
        rects += [(x - CONN_R, y - CONN_R, x + CONN_R, y + CONN_R) for x, y in st.conn_spots.values()]
        hit = {}
        for r in rects:
            for cx in range(int(r[0] // CELL), int(r[2] // CELL) + 1):
                for cy in range(int(r[1] // CELL), int(r[3] // CELL) + 1):
                    hit.setdefault((cx, cy), []).append(r)
        st.tag_index = hit
    return hit


def _covered(index, box: Rect) -> float:
    near = {
        r
        for cx in range(int(box[0] // CELL), int(box[2] // CELL) + 1)
        for cy in range(int(box[1] // CELL), int(box[3] // CELL) + 1)
        for r in index.get((cx, cy), ())
    }
    return sum(overlap(box, r) for r in near)


def place_tags(
    view: dict[str, Any],
    st: Static,
    slots: dict[tuple[int, str], int],
    widths: dict[str, int],
    avoid: list[Rect] | None = None,
) -> list[Tag]:
    """Every tag of this view's track (`widths`: each colour's tag width; `avoid`: what
    this turn draws that a tag should not cover, the pawn)."""
    geo = st.geo
    index = _index(st)
    placed: list[Tag] = [Tag("", -1, None, ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2), r) for r in avoid or []]
    first = len(placed)
    h = TAG_H
    for colour, col in (view.get("colours") or {}).items():
        track = [g for g in col.get("track") or [] if (g, colour) in slots]
        if not track:
            continue
        w = widths[colour]
        for part, ends in sections(track, geo.gaps):
            wanted: list[tuple[int, str | None]] = []
            for s in ends:
                wanted.append((next(g for g in part if s in geo.gaps[g][:2]), s))
            if len(part) == 1 and len(ends) == 2:
                a, b = geo.gaps[part[0]][:2]
                p, q = geo.points[a], geo.points[b]
                if math.dist(p, q) < geo.radius[a] + geo.radius[b] + 2 * w + 3 * STEP:
                    wanted = [(part[0], None)]  # too short for two: one in the middle
            middle = _middle(part, ends, geo.gaps)
            if not wanted or middle is not None:
                wanted.append((middle if middle is not None else part[0], None))
            for gap, station in wanted:
                placed.append(_place(geo, index, placed, colour, gap, slots[(gap, colour)], station, w, h))
    return placed[first:]


def _place(geo, index, placed: list[Tag], colour: str, gap: int, slot: int, station: str | None, w: int, h: int) -> Tag:
    p, q = geo.lane(gap, slot)
    a, b, _ = geo.gaps[gap]
    if station == b:
        p, q = q, p
    length = math.dist(p, q) or 1.0
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    reach = abs(ux) * w / 2 + abs(uy) * h / 2  # the tag's half length along the lane
    start_station = station if station is not None else a
    first = geo.radius[start_station] + reach + 2
    last = length - geo.radius[b if start_station == a else a] - reach - 2
    if station is None or last < first:
        spots = [length / 2]
    else:
        n = int((last - first) // STEP) + 1
        spots = [first + i * STEP for i in range(n)]
    best, best_cost = None, math.inf
    for i, t in enumerate(spots):
        c = (p[0] + ux * t, p[1] + uy * t)
        box = (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)
        clash = sum(overlap(box, o.box) for o in placed)
        cost = 50.0 * clash + _covered(index, box) + 3.0 * i
        if cost < best_cost:
            best, best_cost = (c, box), cost
        if clash == 0 and cost < 1.0:
            break
    assert best is not None, "there is a spot, at a finite cost"
    return Tag(colour, gap, station, best[0], best[1])


def tags_of(
    view: dict[str, Any],
    st: Static,
    slots: dict[tuple[int, str], int],
    pal: Palette,
    lang: Lang = EN,
    avoid: list[Rect] | None = None,
) -> list[Tag]:
    """Where the tags of this view go, drawn in `pal` and `lang` (their widths vary)."""
    widths = {c: sprite(code(c, lang), ring_of(c, pal)).width for c in (view.get("colours") or {})}
    return place_tags(view, st, slots, widths, avoid)


def draw_tags(
    image: Image.Image,
    view: dict[str, Any],
    st: Static,
    slots: dict[tuple[int, str], int],
    pal: Palette,
    lang: Lang = EN,
    avoid: list[Rect] | None = None,
) -> list[Tag]:
    """Place and draw every tag; returns them."""
    if not MARKS:
        return []
    tags = tags_of(view, st, slots, pal, lang, avoid)
    for tag in tags:
        draw_tag(image, tag.centre, tag.colour, pal, lang)
    return tags
