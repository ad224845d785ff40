"""No tofu: every character an image draws has a real glyph in the font it is drawn with.

    from tests.render.tofu import assert_no_tofu

    def test_korean_pages_have_no_tofu():
        assert_no_tofu(lambda: [page_png("underground", i, "ko") for i in range(n)])

`assert_no_tofu(draw)` empties the image packages' caches (`metrobot.render.clear_caches`), then
calls `draw()` (anything that draws images with PIL) while every call of
`PIL.ImageDraw.ImageDraw.text` is recorded as (font, text); then it asserts that
every non-space character of every recorded text has a glyph in its font, and returns the
recorded pairs (so a test can also check that something was drawn at all).

A character "has a glyph" when:
- the font is a `metrobot.render.text.ChainFont`: some font of its chain covers it (the chain draws
  each character with the first font that has it; what none has comes out as a box);
- the font is another FreeType font: its cmap (fontTools) maps it, or, without a readable
  file, its mask differs from the mask of an unassigned code point (U+10FFFD), which every
  font draws as its "missing glyph" box;
- zero-width joiners, variation selectors and the like (`metrobot.render.text.INVISIBLE`) are not
  drawn and are skipped, as are spaces and control characters.
Pillow's built-in bitmap font (font=None, no FreeType) cannot be checked and is reported as
a failure for anything outside ASCII.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from PIL import ImageDraw, ImageFont

from metrobot.render.text import INVISIBLE, ChainFont

UNASSIGNED = "\U0010fffd"


@cache
def _cmap(path: str) -> frozenset[int] | None:
    try:
        from fontTools.ttLib import TTFont

        with TTFont(path, lazy=True, fontNumber=0) as font:
            return frozenset(font.getBestCmap() or ())
    except Exception:  # no fontTools, not a file, a format fontTools cannot read
        return None


def _mask_bytes(font: Any, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(ch)
    return mask.size, bytes(mask)


def has_glyph(font: Any, ch: str) -> bool:
    """Whether `font` draws `ch` as a real glyph (not the missing-glyph box)."""
    code = ord(ch)
    if isinstance(font, ChainFont):
        # the chain's own view: the first font, then the others in order
        return code in font._first or any(code in cover for cover, _ in font._others)
    if isinstance(font, ImageFont.FreeTypeFont):
        path = font.path
        cover = _cmap(str(path)) if isinstance(path, str) or hasattr(path, "__fspath__") else None
        if cover is not None:
            return code in cover
        return _mask_bytes(font, ch) != _mask_bytes(font, UNASSIGNED)
    if isinstance(font, ImageFont.TransposedFont):
        return has_glyph(font.font, ch)
    return code < 128  # a bitmap font: ASCII only


def missing(font: Any, text: str) -> list[str]:
    """The characters of `text` that `font` would draw as boxes."""
    return [
        ch
        for ch in text
        if not ch.isspace() and ch.isprintable() and ord(ch) not in INVISIBLE and not has_glyph(font, ch)
    ]


def assert_no_tofu(draw: Callable[[], Any]) -> list[tuple[Any, str]]:
    """Run `draw()`, record every (font, text) given to ImageDraw.text, assert no character
    of them lacks a glyph in its font; returns the recorded pairs. The image packages'
    caches are emptied first: a word drawn earlier into a kept layer would not be recorded."""
    from metrobot.render import clear_caches

    clear_caches()
    recorded: list[tuple[Any, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(
        self: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        shown = getattr(text, "text", text)  # an ImageText.Text carries its own font
        used = getattr(text, "font", None) or font
        if used is None:
            used = self._getfont(kwargs.get("font_size"))
        if isinstance(shown, bytes):
            shown = shown.decode("latin-1")
        recorded.append((used, str(shown)))
        return original(self, xy, text, fill, font, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        draw()
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    bad = sorted(
        {
            (getattr(font, "path", repr(font)), text, "".join(missing(font, text)))
            for font, text in recorded
            if missing(font, text)
        },
        key=str,
    )
    assert not bad, "characters drawn without a glyph (font, text, missing): " + "; ".join(map(str, bad[:20]))
    return recorded
