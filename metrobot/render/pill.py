"""The tag that names a line or a player on a board, whatever the colours: a white pill
ringed in the line's colour with a short code in dark ink ("R", "Bk", "2", "빨"). Dark ink
on white reads the same in every palette and passes WCAG AA at any size; the ring ties
the code to its colour. Each (code, ring, height) is drawn once, 4x supersampled."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from .style import INK, font

SS = 4
Colour = tuple[int, int, int]


@lru_cache(maxsize=512)
def pill(text: str, ring: Colour, height: int) -> Image.Image:
    """An RGBA sprite `height` px high, as wide as the code needs (round when it is short)."""
    size = round(height * 0.68)
    f = font(size * SS, True)
    w = max(height, math.ceil(f.getlength(text) / SS) + 8)
    big = Image.new("RGBA", (w * SS, height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        [0, 0, w * SS - 1, height * SS - 1],
        radius=height * SS // 2,
        fill=(255, 255, 255, 255),
        outline=ring + (255,),
        width=max(SS, round(height * 0.12 * SS)),
    )
    d.text((w * SS / 2, height * SS / 2 + SS // 2), text, font=f, anchor="mm", fill=INK + (255,))
    return big.resize((w, height), Image.Resampling.LANCZOS)


def paste_pill(
    image: Image.Image, centre: tuple[float, float], text: str, ring: Colour, height: int
) -> tuple[int, int]:
    """A pill centred at `centre`; returns its size."""
    tag = pill(text, ring, height)
    image.paste(tag, (round(centre[0] - tag.width / 2), round(centre[1] - tag.height / 2)), tag)
    return tag.size
