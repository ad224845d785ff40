"""PNG bytes of the images the bot posts: indexed colour with a palette made from each
image, or truecolour when asked (`lossless`: for comparison, and for tests of exact pixels).

The images are flat-colour drawings: a few dozen colours cover ~95 % of the pixels and the
rest are anti-aliased edges between them. The palette is the image's commonest colours,
counted on a sample of its pixels: first the *main* colours, kept exactly, then edge
colours, each more than `EDGE_SPACING` from every colour already taken (closer ones would
add bytes and no visible detail). No dithering: text and thin lines keep their edges.

Pillow maps pixels to a palette through a cache of 4x4x4-value cells, each cell taking the
entry nearest to its corner, so a colour off a corner may go to a neighbour (the paper of a
board would come out two or three values darker, and pale tints only a few values apart,
such as a board's districts, would merge). So the mapping is done on a copy whose channel
values are moved, by a monotone table per channel, to put every main colour exactly on a
corner, where nothing can be nearer; the palette then gets the true colours back. A table
can place at most 64 values a channel on corners, which bounds how many colours are main.

Measured on the seed-7 images of every game (`python -m bench png_palette`): about 30 % of
the truecolour bytes, a mean difference of 0.05-0.25 per channel (of 255), and in less
time than the truecolour encoding alone.
"""

from __future__ import annotations

import io
import itertools
import math
from collections import defaultdict
from collections.abc import Iterable
from operator import itemgetter
from typing import cast

from PIL import Image

COLOURS = 256
EDGE_SPACING = 10  # an edge colour within this distance of a taken one maps to it instead
# Pixels counted for the palette (every k-th row and column of a bigger image): 100,000 rather
# than 300,000 gave the same bytes and differences, and encodes 5-10 % faster (2026-11-26,
# `python -m bench png_palette`: a third of the colours to sort and look through).
SAMPLE = 100_000
LEVEL = 6  # zlib's default: on indexed images ~15-30 % smaller than level 1, for 10-20 ms an image
# (a bot may choose another: METROBOT_PNG_COMPRESSION, passed down as `level`; a `level` left
# None is this one, read at each call, so that the tests can draw faster: tests/conftest.py)
CORNERS = 64  # cell corners along a channel (0, 4, ..., 252)
_SIDE = 256 // EDGE_SPACING + 3  # cells along a channel, with room for a neighbour on each side
_AROUND = [(a * _SIDE + b) * _SIDE + c for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]

Colour = tuple[int, int, int]


def encode_png(image: Image.Image, *, lossless: bool = False, level: int | None = None) -> bytes:
    """The PNG the bot posts; `lossless`: truecolour, every pixel as drawn; `level`: zlib's
    compression of the indexed image (0-9: the same pixels, fewer bytes for more time; None:
    LEVEL)."""
    buf = io.BytesIO()
    if lossless:
        # Level 1 is several times faster than the default and only a few per cent larger
        # on truecolour flat-colour drawings.
        image.save(buf, "PNG", compress_level=1)
    else:
        indexed(image).save(buf, "PNG", compress_level=LEVEL if level is None else level)
    return buf.getvalue()


def indexed(image: Image.Image) -> Image.Image:
    """`image` in palette mode ("P"), the palette made from its own colours (see above)."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    main, edges = palette_of(rgb)
    tables = [_onto_corners({c[i] for c in main}) for i in range(3)]
    moved = [tuple(tables[i][c[i]] for i in range(3)) for c in main + edges]
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for colour in moved for v in colour])
    out = rgb.point(tables[0] + tables[1] + tables[2]).quantize(palette=holder, dither=Image.Dither.NONE)
    out.putpalette([v for colour in main + edges for v in colour])
    return out


def palette_of(image: Image.Image) -> tuple[list[Colour], list[Colour]]:
    """(main colours, edge colours) of an RGB image, commonest first, COLOURS in all at most.
    Main: the commonest while no channel has more than CORNERS distinct values among them;
    edges: the next commonest, each more than EDGE_SPACING from every colour taken."""
    w, h = image.size
    k = max(1, math.ceil(math.sqrt(w * h / SAMPLE)))
    sample = image if k == 1 else image.resize((max(1, w // k), max(1, h // k)), Image.Resampling.NEAREST)
    # Never None (room for a colour a pixel); RGB: each colour is (r, g, b).
    counted = cast("list[tuple[int, Colour]]", sample.getcolors(sample.width * sample.height))
    # Commonest first, ties by colour (the same image, the same palette): two stable sorts on
    # one field each, in C, rather than a key tuple made per colour.
    counted.sort(key=itemgetter(1))
    counted.sort(key=itemgetter(0), reverse=True)
    main: list[Colour] = []
    edges: list[Colour] = []
    values: list[set[int]] = [set(), set(), set()]
    # Each colour taken is listed in its cell (EDGE_SPACING wide) and the 26 around it, so a
    # candidate looks in its own cell only: thousands of candidates, at most COLOURS taken.
    # A cell is one number, its neighbours that number plus one of `_AROUND`.
    around: defaultdict[int, list[Colour]] = defaultdict(list)
    near = EDGE_SPACING * EDGE_SPACING
    taking_main = True
    for _, colour in counted:
        if len(main) + len(edges) == COLOURS:
            break
        r, g, b = colour
        cell = ((r // EDGE_SPACING + 1) * _SIDE + g // EDGE_SPACING + 1) * _SIDE + b // EDGE_SPACING + 1
        if taking_main and all(colour[i] in values[i] or len(values[i]) < CORNERS for i in range(3)):
            main.append(colour)
            for i in range(3):
                values[i].add(colour[i])
        else:
            taking_main = False
            if _near_one(r, g, b, around.get(cell, ()), near):
                continue
            edges.append(colour)
        for step in _AROUND:
            around[cell + step].append(colour)
    return main, edges


def _near_one(r: int, g: int, b: int, taken: Iterable[Colour], near: int) -> bool:
    """Whether a colour is within sqrt(`near`) of one of `taken`."""
    # (a loop, not any() over a generator: this runs for thousands of candidates an image)
    for p, q, s in taken:  # noqa: SIM110
        if (r - p) * (r - p) + (g - q) * (g - q) + (b - s) * (b - s) <= near:
            return True
    return False


def _onto_corners(values: set[int]) -> list[int]:
    """A monotone table of a channel's 256 values that puts each of `values` (at most
    CORNERS) on its own multiple of 4, as near as it can, and the values between them in
    proportion."""
    pinned = sorted(values)
    to: list[int] = []
    for v in pinned:
        to.append(max(4 * round(v / 4), to[-1] + 4 if to else 0))
    for i in range(len(to) - 1, -1, -1):  # back under 252 (4 * (CORNERS - 1)) if pushed over
        to[i] = min(to[i], 4 * (CORNERS - 1) if i == len(to) - 1 else to[i + 1] - 4)
    table = [0] * 256
    anchors = [(0, 0)] + list(zip(pinned, to)) + [(255, 255)]
    for (v0, t0), (v1, t1) in itertools.pairwise(anchors):
        for v in range(v0, v1 + 1):
            table[v] = t0 if v1 == v0 else round(t0 + (t1 - t0) * (v - v0) / (v1 - v0))
    return table
