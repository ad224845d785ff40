"""What a round draws on a cached flip-and-write map: crosses, boxed transfer numbers,
filled dots of the small multiples, check marks. Each is an anti-aliased RGBA sprite,
drawn once (4x supersampled) and pasted, so a round costs a few hundred small pastes.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import lru_cache
from threading import Lock
from typing import cast

from PIL import Image, ImageDraw

from ..style import INK, font, ink_on

_K = 4  # sprite supersampling
Colour = tuple[int, int, int]


def _finish(big: Image.Image, size: int) -> Image.Image:
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def cross(radius: float, colour: Colour = INK, halo: Colour | None = None) -> Image.Image:
    """A pen cross over a station dot: a little wider than the dot, with a white edge."""
    size = int(radius * 3.2) | 1
    big = Image.new("RGBA", (size * _K, size * _K), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * _K / 2
    arm = radius * 1.3 * _K
    w = max(3.0, radius * 0.5) * _K
    if halo is not None:
        r = (radius + 3.5) * _K
        d.ellipse([c - r, c - r, c + r, c + r], fill=halo + (255,))
    # dot under the cross: marked stations read as filled at a glance
    r = radius * _K
    d.ellipse([c - r, c - r, c + r, c + r], fill=(255, 255, 255, 255), outline=colour + (255,), width=int(_K * 1.5))
    for sx in (-1, 1):
        d.line([(c - arm, c - sx * arm), (c + arm, c + sx * arm)], fill=(255, 255, 255, 255), width=int(w + 2.5 * _K))
    for sx in (-1, 1):
        d.line([(c - arm, c - sx * arm), (c + arm, c + sx * arm)], fill=colour + (255,), width=int(w))
    return _finish(big, size)


@lru_cache(maxsize=128)
def boxed(number: int, radius: float, halo: Colour | None = None) -> Image.Image:
    """A boxed transfer number written on a station (scores 2x the number)."""
    size = int(radius * 3.0) | 1
    big = Image.new("RGBA", (size * _K, size * _K), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * _K / 2
    h = radius * 1.32 * _K
    if halo is not None:
        r = h + 3.5 * _K
        d.rounded_rectangle([c - r, c - r, c + r, c + r], radius=r * 0.3, fill=halo + (255,))
    d.rectangle([c - h, c - h, c + h, c + h], fill=(255, 255, 255, 255), outline=INK + (255,), width=int(_K * 2.5))
    d.text((c, c + 0.06 * h), str(number), font=font(int(h * 1.5), True), anchor="mm", fill=INK + (255,))
    return _finish(big, size)


@lru_cache(maxsize=128)
def disc(radius: float, colour: Colour) -> Image.Image:
    """A marked station in a small multiple: a dot filled in the player's colour, dark rim."""
    size = int(radius * 2 + 4) | 1
    big = Image.new("RGBA", (size * _K, size * _K), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * _K / 2
    r = (radius + 0.8) * _K
    d.ellipse([c - r, c - r, c + r, c + r], fill=colour + (255,), outline=INK + (255,), width=int(_K * 1.2))
    return _finish(big, size)


@lru_cache(maxsize=256)
def square(radius: float, colour: Colour, number: int) -> Image.Image:
    """A boxed transfer number in a small multiple: a square in the player's colour."""
    size = int(radius * 3.4) | 1
    big = Image.new("RGBA", (size * _K, size * _K), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * _K / 2
    h = radius * 1.55 * _K
    d.rectangle([c - h, c - h, c + h, c + h], fill=colour + (255,), outline=INK + (255,), width=int(_K * 1.2))
    ink = ink_on(colour)
    d.text((c, c + 0.05 * h), str(number), font=font(int(h * 1.55), True), anchor="mm", fill=ink + (255,))
    return _finish(big, size)


@lru_cache(maxsize=64)
def tick(size: int, colour: Colour, ink: Colour = (255, 255, 255)) -> Image.Image:
    """A check mark in a filled circle (a completed line)."""
    big = Image.new("RGBA", (size * _K, size * _K), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    s = size * _K
    d.ellipse([1, 1, s - 2, s - 2], fill=colour + (255,), outline=(255, 255, 255, 255), width=int(_K * 1.5))
    d.line(
        [(0.26 * s, 0.53 * s), (0.43 * s, 0.70 * s), (0.75 * s, 0.33 * s)],
        fill=ink + (255,),
        width=int(0.13 * s),
        joint="curve",
    )
    return _finish(big, size)


def paste_centred(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    w, h = sprite.size
    image.paste(sprite, (round(x - w / 2), round(y - h / 2)), sprite)


# ---------------------------------------------------------------- many marks at once
class MarkedLayer:
    """A cached map with the same mark on every station, plus which stations stand clear of
    their neighbours: a round copies the marked stations' squares from it through one mask
    (one paste instead of one per mark); crowded stations get their own sprite."""

    def __init__(self, base: Image.Image, points: dict[str, tuple[float, float]], sprite: Image.Image):
        self.sprite = sprite
        self.points = points
        self.image = base.copy()
        for x, y in points.values():
            paste_centred(self.image, sprite, x, y)
        half = sprite.width / 2
        self.half = half
        # A station is clear unless another lies within `reach` in both directions; such a
        # one is in its grid cell (`reach` wide) or the next one each way (two each way: none
        # is missed for a division rounded at a cell's edge), so each station looks at those
        # only, not at every other station of the map.
        reach = 2 * half + 1
        cells: dict[tuple[int, int], list[tuple[str, float, float]]] = {}
        for sid, (x, y) in points.items():
            cells.setdefault((math.floor(x / reach), math.floor(y / reach)), []).append((sid, x, y))
        self.clear: dict[str, bool] = {}
        for sid, (x, y) in points.items():
            cx, cy = math.floor(x / reach), math.floor(y / reach)
            self.clear[sid] = all(
                abs(x - ox) >= reach or abs(y - oy) >= reach
                for i in (-2, -1, 0, 1, 2)
                for j in (-2, -1, 0, 1, 2)
                for other, ox, oy in cells.get((cx + i, cy + j), ())
                if other != sid
            )

    def paste(self, image: Image.Image, offset: tuple[int, int], sids) -> None:
        # Each clear station's square is copied from the marked layer (cut at its edges): the
        # same pixels as pasting the whole layer through a mask of those squares (a mask's 255
        # copies, its 0 keeps, exactly), without blending every pixel of the map.
        h = self.half
        w, sh = self.sprite.size
        width, height = self.image.size
        crowded = []
        for sid in sids:
            pt = self.points.get(sid)
            if pt is None:
                continue
            if not self.clear[sid]:
                crowded.append(pt)
                continue
            x, y = round(pt[0] - h), round(pt[1] - h)
            box = (max(x, 0), max(y, 0), min(x + w, width), min(y + sh, height))
            if box[0] < box[2] and box[1] < box[3]:
                image.paste(self.image.crop(box), (offset[0] + box[0], offset[1] + box[1]))
        for x, y in crowded:
            paste_centred(image, self.sprite, x + offset[0], y + offset[1])


_LAYERS: OrderedDict[tuple, MarkedLayer] = OrderedDict()
_LAYERS_LOCK = Lock()


def marked_layer(
    key: tuple, base: Image.Image, points: dict[str, tuple[float, float]], sprite: Image.Image
) -> MarkedLayer:
    """The MarkedLayer of a cached static map (LRU; `key` names the map, size and sprite)."""
    with _LAYERS_LOCK:
        hit = _LAYERS.get(key)
        if hit is not None:
            _LAYERS.move_to_end(key)
            return hit
    made = MarkedLayer(base, points, sprite)
    with _LAYERS_LOCK:
        _LAYERS[key] = made
        while len(_LAYERS) > 48:
            _LAYERS.popitem(last=False)
    return made


# ---------------------------------------------------------------- text
@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
    # Whole pixels, as FreeTypeFont measures them (Pillow's stub says float).
    left, top, right, bottom = cast("tuple[int, int, int, int]", f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, anchor=anchor, fill=255)
    return mask, left, top


def clear_cache() -> None:
    """Forget the marked layers and the rasterised texts."""
    _text_mask.cache_clear()
    with _LAYERS_LOCK:
        _LAYERS.clear()


def put_text(
    image: Image.Image, xy: tuple[float, float], text: str, size: int, fill, bold: bool = False, anchor: str = "la"
) -> None:
    """Like ImageDraw.text, but each (text, size, weight, anchor) is rasterised once and
    cached: a round's scores, counts and window codes repeat from round to round."""
    if not text:
        return
    mask, left, top = _text_mask(text, int(size), bool(bold), anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


class CachedDraw:
    """An ImageDraw whose `text` goes through `put_text` (same pixels, cached rasters);
    every other call is ImageDraw's own."""

    def __init__(self, image: Image.Image):
        self._image = image
        self._draw = ImageDraw.Draw(image)

    def text(self, xy, text, fill=None, font=None, anchor=None, **kw):
        if kw or font is None or fill is None:
            return self._draw.text(xy, text, fill=fill, font=font, anchor=anchor, **kw)
        put_text(self._image, xy, text, int(font.size), fill, "Bold" in str(font.path), anchor or "la")

    def __getattr__(self, name):
        return getattr(self._draw, name)


# What the sheets and the summary draw with: Pillow's ImageDraw, or CachedDraw in its place.
Draw = ImageDraw.ImageDraw | CachedDraw
