"""Small pictures of the On the Underground images, as anti-aliased RGBA sprites: the four
connection symbols (suitcase, umbrella, bowler hat, teapot), the passenger's pawn.
Each is drawn once, 4x supersampled; a turn pastes them.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from ..style import font
from .palette import ROUTE, STATION_INK

SS = 4
INK = STATION_INK + (255,)
# each symbol also has its own tint, so a pair is found by colour as well as by shape
SYMBOL_TINTS = {"suitcase": (178, 110, 40), "umbrella": (30, 110, 200), "bowler": (60, 60, 60), "teapot": (0, 140, 110)}


def _finish(big: Image.Image, size: int) -> Image.Image:
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def symbol(name: str, size: int, badge: bool = False) -> Image.Image:
    """A connection symbol in a `size` px square; with `badge`, on a white disc with a
    ring in the symbol's tint (as drawn on the map)."""
    n = size * SS
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    tint = SYMBOL_TINTS.get(name, (80, 80, 80)) + (255,)
    if badge:
        w = max(2, int(n * 0.09))
        d.ellipse([1, 1, n - 2, n - 2], fill=(255, 255, 255, 255), outline=tint, width=w)
        inset = n * 0.2
    else:
        inset = n * 0.06
    box = (inset, inset, n - inset, n - inset)
    {"suitcase": _suitcase, "umbrella": _umbrella, "bowler": _bowler, "teapot": _teapot}.get(name, _unknown)(
        d, box, tint, name
    )
    return _finish(big, size)


def _suitcase(d: ImageDraw.ImageDraw, box, tint, _name) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    t = max(2, int(w * 0.09))
    d.rounded_rectangle(
        [x0 + w * 0.32, y0 + h * 0.1, x1 - w * 0.32, y0 + h * 0.42], radius=w * 0.08, outline=INK, width=t
    )
    d.rounded_rectangle([x0, y0 + h * 0.3, x1, y1 - h * 0.08], radius=w * 0.12, fill=tint, outline=INK, width=t)
    d.line([(x0 + w * 0.02, y0 + h * 0.55), (x1 - w * 0.02, y0 + h * 0.55)], fill=INK, width=t)


def _umbrella(d: ImageDraw.ImageDraw, box, tint, _name) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    t = max(2, int(w * 0.09))
    cx = (x0 + x1) / 2
    d.pieslice([x0, y0 + h * 0.05, x1, y0 + h * 0.95], 180, 360, fill=tint, outline=INK, width=t)
    d.line([(cx, y0 + h * 0.45), (cx, y1 - h * 0.16)], fill=INK, width=t)
    r = w * 0.13
    d.arc([cx - 2 * r, y1 - h * 0.16 - r * 1.2, cx, y1 - h * 0.16 + r * 1.2], 0, 180, fill=INK, width=t)


def _bowler(d: ImageDraw.ImageDraw, box, tint, _name) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    t = max(2, int(w * 0.08))
    d.chord([x0 + w * 0.18, y0 + h * 0.12, x1 - w * 0.18, y0 + h * 1.05], 180, 360, fill=tint, outline=INK, width=t)
    d.rectangle([x0 + w * 0.2, y0 + h * 0.5, x1 - w * 0.2, y0 + h * 0.6], fill=(205, 205, 205, 255))
    d.rounded_rectangle([x0, y0 + h * 0.6, x1, y0 + h * 0.78], radius=h * 0.09, fill=tint, outline=INK, width=t)


def _teapot(d: ImageDraw.ImageDraw, box, tint, _name) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    t = max(2, int(w * 0.08))
    # spout (left), handle (right), body, lid
    d.polygon(
        [
            (x0 + w * 0.3, y0 + h * 0.55),
            (x0, y0 + h * 0.3),
            (x0 + w * 0.08, y0 + h * 0.26),
            (x0 + w * 0.34, y0 + h * 0.75),
        ],
        fill=tint,
        outline=INK,
    )
    d.line([(x0, y0 + h * 0.3), (x0 + w * 0.3, y0 + h * 0.55)], fill=INK, width=t)
    d.arc([x1 - w * 0.34, y0 + h * 0.38, x1, y0 + h * 0.78], 270, 90, fill=INK, width=t)
    d.ellipse([x0 + w * 0.2, y0 + h * 0.3, x1 - w * 0.16, y1 - h * 0.05], fill=tint, outline=INK, width=t)
    d.ellipse([x0 + w * 0.42, y0 + h * 0.1, x0 + w * 0.6, y0 + h * 0.3], fill=INK)


def _unknown(d: ImageDraw.ImageDraw, box, tint, name) -> None:
    x0, y0, x1, y1 = box
    d.text(
        ((x0 + x1) / 2, (y0 + y1) / 2),
        (name or "?")[0].upper(),
        font=font(int((y1 - y0) * 0.9), True),
        anchor="mm",
        fill=tint,
    )


@lru_cache(maxsize=8)
def pawn(height: int, colour: tuple[int, int, int] = ROUTE) -> Image.Image:
    """The passenger: a board-game pawn, white-edged, with a soft shadow at its foot.
    Its foot's centre is at (width / 2, height - height * 0.08)."""
    w = int(height * 0.72)
    W, H = w * SS, height * SS
    big = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = colour + (255,)
    edge = (255, 255, 255, 255)
    cx = W / 2
    e = max(2, int(H * 0.045))
    foot_y = H * 0.92
    d.ellipse([W * 0.12, foot_y - H * 0.06, W * 0.88, foot_y + H * 0.06], fill=(0, 0, 0, 90))
    body = [(cx - W * 0.36, foot_y), (cx - W * 0.2, H * 0.5), (cx + W * 0.2, H * 0.5), (cx + W * 0.36, foot_y)]
    d.polygon(body, fill=fill, outline=edge, width=e)
    d.rounded_rectangle(
        [cx - W * 0.44, foot_y - H * 0.1, cx + W * 0.44, foot_y], radius=H * 0.04, fill=fill, outline=edge, width=e
    )
    d.ellipse([cx - W * 0.26, H * 0.43, cx + W * 0.26, H * 0.56], fill=fill, outline=edge, width=e)
    r = W * 0.24
    d.ellipse([cx - r, H * 0.06, cx + r, H * 0.06 + 2 * r], fill=fill, outline=edge, width=e)
    return big.resize((w, height), Image.Resampling.LANCZOS)
