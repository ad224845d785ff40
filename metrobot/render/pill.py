"""The tag that names a line or a player on a board, whatever the colours: a white pill
ringed in the line's colour with a short code in dark ink ("R", "Bk", "2", "빨"). Dark ink
on white reads the same in every palette and passes WCAG AA at any size; the ring ties
the code to its colour. Each (code, ring, height) is drawn once, 4x supersampled."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .style import INK, font
from .text import han

SS = 4
Colour = tuple[int, int, int]


def pill(text: str, ring: Colour, height: int) -> Image.Image:
    """An RGBA sprite `height` px high, as wide as the code needs (round when it is short)."""
    return _pill(text, ring, height, han())


@lru_cache(maxsize=512)
def _pill(text: str, ring: Colour, height: int, forms: str) -> Image.Image:
    """(kept per Han forms too: a hanzi is drawn in a Chinese picture's own forms)"""
    f, y, ring_width = layout(text, height)
    w = max(height, math.ceil(f.getlength(text) / SS) + 8)
    big = Image.new("RGBA", (w * SS, height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        [0, 0, w * SS - 1, height * SS - 1],
        radius=height * SS // 2,
        fill=(255, 255, 255, 255),
        outline=ring + (255,),
        width=ring_width,
    )
    d.text((w * SS / 2, y), text, font=f, anchor="mm", fill=INK + (255,))
    return big.resize((w, height), Image.Resampling.LANCZOS)


def layout(text: str, height: int) -> tuple[ImageFont.FreeTypeFont, float, int]:
    """How a pill `height` px high draws its code, supersampled: the font, the code's middle
    ("mm" anchor) and the ring's width."""
    size = round(height * 0.68)
    f = font(size * SS, True)
    ring_width = max(SS, round(height * 0.12 * SS))
    y = height * SS / 2 + SS // 2
    # The code's ink stays off the ring's outer half (a descender may touch its inner half, as
    # "Gy" does): a Devanagari code with a vowel sign below ("भू", "गु") reaches further; it is
    # drawn smaller, its ink centred.
    inside = (ring_width / 2, height * SS - ring_width / 2)
    _, top, _, bottom = f.getbbox(text, anchor="mm")
    if y + top < inside[0] or y + bottom > inside[1]:
        f = font(max(1, math.floor(size * SS * (inside[1] - inside[0]) / (bottom - top))), True)
        _, top, _, bottom = f.getbbox(text, anchor="mm")
        y = height * SS / 2 - (top + bottom) / 2
    return f, y, ring_width


def paste_pill(
    image: Image.Image, centre: tuple[float, float], text: str, ring: Colour, height: int
) -> tuple[int, int]:
    """A pill centred at `centre`; returns its size."""
    tag = pill(text, ring, height)
    image.paste(tag, (round(centre[0] - tag.width / 2), round(centre[1] - tag.height / 2)), tag)
    return tag.size
