"""Where a legal step is tapped on a board picture: the shared part of `board_targets`.

A game's image package knows where it draws things; for each step it names a *spot*: what
the step points at (a key: steps with the same key share one box, and the page opens a
chooser there), the spot's centre and how big a box it would like, in the picture's pixels.
`fit_boxes` turns the spots into boxes that keep the hit rules every page relies on:

- a box is `(x, y, width, height)`, holds the pixels x <= px < x + width, y <= py < y + height,
  and lies inside the picture;
- its centre, `(x + width / 2, y + height / 2)`, is the centre of the pixel the game named
  (boxes have odd sides), and no other spot's box contains it: a tap on a box's centre lands
  on that spot alone (boxes may overlap elsewhere: a tap there is best given to the nearest
  centre);
- both sides are at least `MIN_SIDE` pixels, unless two spots are closer than that (a
  game's layout would have to change; the tests check that it never happens).

Boxes shrink only where another spot's centre would fall inside them, on the axis that
keeps the larger box, so a lone station keeps its whole wanted box and a crowded corner gets
boxes as large as the crowd allows.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

Box = tuple[int, int, int, int]  # x, y, width, height in the picture's pixels

MIN_SIDE = 15  # pixels: the smallest side a box is given (a finger needs the page's zoom)


@dataclass(frozen=True)
class Spot:
    """What a step points at on the picture: `key` names the place (equal keys share a box),
    (`x`, `y`) its centre, `half_w` and `half_h` the half sides of the box it would like."""

    key: Hashable
    x: float
    y: float
    half_w: float
    half_h: float


def fit_boxes(spots: Sequence[Spot | None], size: tuple[int, int]) -> list[Box | None]:
    """A box for each spot (None stays None) in a picture of `size`, by the rules above.
    The first spot of a key gives its place. Two keys on one pixel cannot be told apart by a
    tap: they share the first one's box (a chooser), as if they were one place."""
    width, height = size
    first: dict[Hashable, Spot] = {}
    for spot in spots:
        if spot is not None and spot.key not in first:
            first[spot.key] = spot
    same: dict[Hashable, Hashable] = {}  # key -> the key whose box it takes
    at: dict[tuple[int, int], Hashable] = {}
    for key, spot in first.items():
        pixel = (_clamp(round(spot.x), width), _clamp(round(spot.y), height))
        same[key] = at.setdefault(pixel, key)
    keys = list(at.values())
    centres = list(at)
    order = sorted(range(len(keys)), key=lambda i: centres[i])
    xs = [centres[i][0] for i in order]
    boxes: dict[Hashable, Box] = {}
    for i, key in enumerate(keys):
        cx, cy = centres[i]
        spot = first[key]
        hw = max(0, min(round(spot.half_w), cx, width - 1 - cx))
        hh = max(0, min(round(spot.half_h), cy, height - 1 - cy))
        lo, hi = bisect_left(xs, cx - hw), bisect_right(xs, cx + hw)
        near = sorted((centres[j] for j in order[lo:hi] if j != i), key=lambda c: max(abs(c[0] - cx), abs(c[1] - cy)))
        for ox, oy in near:
            dx, dy = abs(ox - cx), abs(oy - cy)
            if dx > hw or dy > hh:
                continue  # that centre is outside this box already
            hw, hh = _shrink(hw, hh, dx, dy)
        boxes[key] = (cx - hw, cy - hh, 2 * hw + 1, 2 * hh + 1)
    return [None if spot is None else boxes[same[spot.key]] for spot in spots]


def _shrink(hw: int, hh: int, dx: int, dy: int) -> tuple[int, int]:
    """Half sides that leave out a centre `dx`, `dy` away (which lies inside now): narrower
    or shorter, whichever keeps the box larger while both sides stay at least MIN_SIDE."""
    options = []
    if dx >= 1:
        options.append((dx - 1, hh))
    if dy >= 1:
        options.append((hw, dy - 1))

    def worth(half: tuple[int, int]) -> tuple[bool, int]:
        w, h = 2 * half[0] + 1, 2 * half[1] + 1
        return min(w, h) >= MIN_SIDE, w * h

    return max(options, key=worth)


def _clamp(value: int, extent: int) -> int:
    return max(0, min(extent - 1, value))


def contains(box: Box, point: tuple[float, float]) -> bool:
    """Whether a tap at `point` falls in `box` (the rule every page and test uses)."""
    x, y, w, h = box
    return x <= point[0] < x + w and y <= point[1] < y + h


def centre(box: Box) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2
