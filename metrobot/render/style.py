"""Shared look of every image: fonts shipped with the repo and a colour-blind-safe palette
(the PNG encoding is in `png.py`).

Player colours are Okabe-Ito (safe for the common colour-vision deficiencies); the line
style (solid/dashed) is a second cue that never depends on colour.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from PIL import ImageFont

from metrobot.i18n import Lang

from .breaking import shorter
from .text import chain_font, han, han_forms
from .vision import PaletteSet, colours, palette_key

FONT_DIR = Path(__file__).with_name("fonts")

# Okabe-Ito, in seat order; picked so that neighbours in the list differ in lightness too.
PLAYER_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
INK = (33, 33, 33)
MUTED = (100, 94, 86)  # 4.5:1 (WCAG AA) on every light ground the images use
PAPER = (250, 248, 243)
HIGHLIGHT = (255, 214, 10)


def luminance(colour: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21); AA asks 4.5 of text, 3 of large text."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever contrasts more with `colour`: at least 4.58:1 on any
    colour (WCAG AA for text of any size)."""
    black, white = (0, 0, 0), (255, 255, 255)
    return black if contrast(colour, black) >= contrast(colour, white) else white


def rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def player_colours(vision: str = "off") -> list[tuple[int, int, int]]:
    """The players' colours in seat order, in the palette of `vision` (metrobot/render/vision.py)."""
    return _player_colours(palette_key(vision))


@lru_cache(maxsize=16)
def _player_colours(key: str) -> list[tuple[int, int, int]]:
    originals = {str(i): rgb(c) for i, c in enumerate(PLAYER_COLOURS)}
    chosen = colours("players", key, originals) or originals
    return [chosen[str(i)] for i in range(len(PLAYER_COLOURS))]


def palette_sets() -> dict[str, PaletteSet]:
    """The players' colours, for `tools/palettes.py`: up to eight share an image."""
    return {
        "players": PaletteSet({str(i): rgb(c) for i, c in enumerate(PLAYER_COLOURS)}, fixed=("7",), background=PAPER)
    }


def player_colour(seat: int, vision: str = "off") -> tuple[int, int, int]:
    shown = player_colours(vision)
    return shown[seat % len(shown)]


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, falling back to Noto Sans JP, KR, SC, TC, Thai, Devanagari, Noto Emoji and Symbola
    for what it lacks (see text.py); in a Chinese picture (`in_language`), SC or TC before JP."""
    return chain_font(size, bold, han())


_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_language(draw: Callable[_P, _R]) -> Callable[_P, _R]:
    """A function that draws a picture in a language (the `Lang` among its arguments, or its
    `lang=`) draws its text in that language's Han forms (`text.han_forms`): each game's
    `image`, `size`, `targets` and `final`, the standings and the sparkline."""

    @functools.wraps(draw)
    def drawn(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        language: Any = kwargs.get("lang") or next((a for a in args if _is_lang(a)), None)
        with han_forms(getattr(language, "code", None)):
            return draw(*args, **kwargs)

    return drawn


def _is_lang(value: Any) -> bool:
    return isinstance(value, Lang)


def text_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """Shorten text with an ellipsis so that it fits (long Discord names), a whole character
    as drawn at a time (`breaking.shorter`)."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
        text = shorter(text)  # never inside a letter with its marks, a conjunct, an emoji
    return text.rstrip() + "…"  # ("Väinö…", not "Väinö …")


def fit_around(fill: Callable[[str], str], name: str, size: int, max_width: float, bold: bool = False) -> str:
    """`fill(name)` made to fit by shortening the name in it ("Цветелина…  (ти)"), so that the
    words around it stay; where even they do not fit, the whole is shortened (`fit_text`)."""
    if text_width(fill(name), size, bold) <= max_width:
        return fill(name)
    short = name
    while short and text_width(fill(short + "…"), size, bold) > max_width:
        short = shorter(short)
    return fill(short.rstrip() + "…") if short.strip() else fit_text(fill(name), size, max_width, bold)
