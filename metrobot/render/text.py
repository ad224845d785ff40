"""Text in any script the players write: one font object that draws each character with the
first font of a chain that has it — DejaVu Sans (Latin, Greek, Cyrillic), Noto Sans JP (kana,
kanji, CJK punctuation and full-width forms, drawn the Japanese way), Noto Sans KR (Hangul),
Noto Sans SC and TC (the simplified and traditional hanzi Japanese lacks), Noto Sans Thai and
Devanagari, Noto Emoji (every emoji, as outlines), Symbola (older pictographs and dingbats) —
so a name like "김민준", "山田太郎", "王晓明", "Ђорђе", "สมชาย", "प्रिया", "🚇 Metro" or
"🟢 Zoë 🫶" is drawn, not boxed.

Thai and Devanagari are shaped: their marks stack and their vowel signs and conjuncts take
their places only when the font's layout tables are applied, which Pillow's raqm layout does
(HarfBuzz, in Pillow's wheels); every font is opened with it where Pillow has it (`LAYOUT`),
and a run of one script goes to its font whole, so it is shaped as a word.

Han characters are drawn in the forms of the picture's language: the chain above, where Noto
Sans JP comes before SC and TC, draws the hanzi Japanese also writes in their Japanese forms
(kanji); a picture in Chinese (`han_forms("zh_CN")`, set by `style.in_language` around each
image) draws them with Noto Sans SC or TC first (`HAN_FIRST`), so that a word is not drawn
in two fonts ("伦敦地铁" was SC, JP, SC) and its punctuation sits where its readers put it.

`ChainFont` is a Pillow FreeTypeFont (the first font of the chain): anything that draws,
measures or lays out text with it (`ImageDraw.text`, `getlength`, `getbbox`) goes through
the chain, so the drawing code stays as it is. Text the first font covers entirely — almost
all of it — takes Pillow's own path unchanged.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, BinaryIO, cast

from PIL import Image, ImageFont, features

FONT_DIR = Path(__file__).with_name("fonts")
CHAINS = {
    False: (
        "DejaVuSans.ttf",
        "NotoSansJP-Regular-Japanese.otf",
        "NotoSansKR-Regular-Hangul.otf",
        "NotoSansSC-Regular-Chinese.otf",
        "NotoSansTC-Regular-Chinese.otf",
        "NotoSansThai-Regular.ttf",
        "NotoSansDevanagari-Regular.ttf",
        "NotoEmoji-Regular.ttf",
        "Symbola-Emoji.ttf",
    ),
    True: (
        "DejaVuSans-Bold.ttf",
        "NotoSansJP-Bold-Japanese.otf",
        "NotoSansKR-Bold-Hangul.otf",
        "NotoSansSC-Bold-Chinese.otf",
        "NotoSansTC-Bold-Chinese.otf",
        "NotoSansThai-Bold.ttf",
        "NotoSansDevanagari-Bold.ttf",
        "NotoEmoji-Bold.ttf",
        "Symbola-Emoji.ttf",
    ),
}
# A Chinese picture's own Han fonts, moved before the Japanese one (in this order); the rest of
# the chain keeps its order.
HAN_FIRST = {"zh_CN": ("SC", "TC"), "zh_TW": ("TC", "SC")}
_HAN: ContextVar[str] = ContextVar("han", default="ja")


def chain(bold: bool, han: str = "ja") -> tuple[str, ...]:
    """The fonts of the chain, in the order they are tried, for a picture whose Han
    characters are drawn in the forms of `han` (a language code; any but Chinese: Japanese)."""
    names = CHAINS[bold]
    first = HAN_FIRST.get(han)
    if first is None:
        return names
    own = [next(n for n in names if f"NotoSans{form}-" in n) for form in first]
    at = next(i for i, n in enumerate(names) if n.startswith("NotoSansJP-"))
    rest = [n for n in names if n not in own]
    return (*rest[:at], *own, *rest[at:])


@contextmanager
def han_forms(code: str | None) -> Iterator[None]:
    """Text drawn inside is drawn with the Han forms of language `code` (`style.font`)."""
    token = _HAN.set(code if code in HAN_FIRST else "ja")
    try:
        yield
    finally:
        _HAN.reset(token)


def han() -> str:
    """The Han forms text is drawn in here ("ja", "zh_CN" or "zh_TW")."""
    return _HAN.get()


# Complex text layout (HarfBuzz and FriBiDi, through raqm) where Pillow has it, as its wheels do:
# Thai and Devanagari need it. Without it (a Pillow built without raqm) they come out unshaped,
# every mark after its letter, but still drawn.
LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
# Zero-width joiners, variation selectors and skin-tone modifiers: they shape emoji in
# colour fonts; drawn one by one as outlines, they would only be boxes and swatches.
INVISIBLE = {0x200B, 0x200C, 0x200D, 0x2060, 0xFE0E, 0xFE0F, *range(0x1F3FB, 0x1F400)}


@cache
def coverage(name: str) -> frozenset[int]:
    """The characters a font of metrobot/render/fonts has glyphs for: the character codes of
    the font's best cmap subtable (fontTools' `getBestCmap` order) that map to a glyph other
    than 0, read straight from the table. fontTools gave the same set but named every glyph
    of the fonts to do it (16,000 in the Japanese ones): ~0.24 s with its import in every
    process that draws text (tests/render/test_scripts.py compares the two on every font)."""
    with open(FONT_DIR / name, "rb") as f:
        return frozenset(_cmap_codes(f))


# fontTools' `getBestCmap` preferences: the first (platform, encoding) subtable found is used
_CMAP_PREFERENCES = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


def _cmap_codes(f: BinaryIO) -> set[int]:
    """The codes mapped to a glyph other than 0 by a font file's best cmap subtable
    (formats 4 and 12: those of the fonts shipped; ValueError for another)."""
    f.seek(0)
    _, tables = struct.unpack(">IH", f.read(6))
    f.seek(12)
    directory = f.read(16 * tables)
    offsets = {
        directory[i : i + 4]: struct.unpack(">I", directory[i + 8 : i + 12])[0] for i in range(0, len(directory), 16)
    }
    start = offsets[b"cmap"]
    f.seek(start)
    _, count = struct.unpack(">HH", f.read(4))
    records = f.read(8 * count)
    subtables: dict[tuple[int, int], int] = {}
    for i in range(0, len(records), 8):
        platform, encoding, offset = struct.unpack(">HHI", records[i : i + 8])
        subtables.setdefault((platform, encoding), start + offset)
    at = next((subtables[k] for k in _CMAP_PREFERENCES if k in subtables), None)
    if at is None:
        return set()
    f.seek(at)
    (form,) = struct.unpack(">H", f.read(2))
    codes: set[int] = set()
    if form == 4:
        length = struct.unpack(">H", f.read(2))[0]
        data = f.read(length - 4)
        segments = struct.unpack(">H", data[2:4])[0] // 2
        words = struct.unpack(f">{(len(data) - 10) // 2}H", data[10 : 10 + (len(data) - 10) // 2 * 2])
        ends = words[:segments]
        starts = words[segments + 1 : 2 * segments + 1]  # (after the reserved pad)
        deltas = words[2 * segments + 1 : 3 * segments + 1]
        range_offsets = words[3 * segments + 1 : 4 * segments + 1]
        glyphs = words[4 * segments + 1 :]
        for i in range(segments - 1):  # (the last segment, 0xFFFF, is left out, as fontTools does)
            first, last, delta, range_offset = starts[i], ends[i], deltas[i], range_offsets[i]
            if range_offset == 0:
                codes.update(c for c in range(first, last + 1) if (c + delta) & 0xFFFF)
            else:
                partial = range_offset // 2 - first + i - segments
                codes.update(
                    c for c in range(first, last + 1) if glyphs[c + partial] and (glyphs[c + partial] + delta) & 0xFFFF
                )
    elif form == 12:
        _, _, _, groups = struct.unpack(">HIII", f.read(14))
        data = f.read(12 * groups)
        for i in range(0, len(data), 12):
            first, last, glyph = struct.unpack(">III", data[i : i + 12])
            codes.update(range(first + (glyph == 0), last + 1))
    else:
        raise ValueError(f"cmap format {form} is not read here")
    return codes


def _clean(text: str) -> str:
    return "".join(ch for ch in text if ord(ch) not in INVISIBLE)


class ChainFont(ImageFont.FreeTypeFont):
    def __init__(self, size: float, bold: bool = False, han: str = "ja"):
        names = chain(bold, han)
        super().__init__(str(FONT_DIR / names[0]), size, layout_engine=LAYOUT)
        self.bold = bold
        self.han = han
        self._others = [
            (coverage(n), ImageFont.truetype(str(FONT_DIR / n), size, layout_engine=LAYOUT)) for n in names[1:]
        ]
        self._first = coverage(names[0])
        # Text in several fonts is laid out run by run, which costs; a board draws the same
        # names and words every turn, so their layouts and widths are kept (bounded).
        self._layouts: dict[tuple[str, str, float], tuple[list, tuple[int, int, int, int]]] = {}
        self._lengths: dict[tuple[str, str], float] = {}
        self._boxes: dict[tuple[str, str, float, str | None], tuple[int, int, int, int]] = {}
        self._masks: dict[tuple, tuple[Any, tuple[int, int]]] = {}

    # ------------------------------------------------------------ splitting
    def runs(self, text: str) -> list[tuple[ImageFont.FreeTypeFont, str]]:
        """The text cut where the font must change: [(font, piece), ...]."""
        out: list[tuple[ImageFont.FreeTypeFont, str]] = []
        for ch in _clean(text):
            code = ord(ch)
            font: ImageFont.FreeTypeFont = self
            if code not in self._first:
                font = next((f for cover, f in self._others if code in cover), self)
            if out and out[-1][0] is font:
                out[-1] = (font, out[-1][1] + ch)
            else:
                out.append((font, ch))
        return out

    def _single(self, text: str) -> bool:
        return self._first.issuperset(map(ord, text))

    def _parent(self, font: ImageFont.FreeTypeFont) -> Any:
        return super() if font is self else font

    # ------------------------------------------------------------ measuring
    def getlength(  # pyright: ignore[reportIncompatibleMethodOverride] - our texts are str, never bytes
        self,
        text: str,
        mode: str = "",
        direction: str | None = None,  # type: ignore[override]
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if direction or features or language:
            if self._single(text):
                return super().getlength(text, mode, direction, features, language)
            return sum(
                self._parent(f).getlength(piece, mode, direction, features, language) for f, piece in self.runs(text)
            )
        # (kept for text in the first font too: a board measures the same names every turn)
        key = (text, mode)
        length = self._lengths.get(key)
        if length is None:
            _keep_small(self._lengths)
            if self._single(text):
                length = super().getlength(text, mode)
            else:
                length = sum(self._parent(f).getlength(piece, mode) for f, piece in self.runs(text))
            self._lengths[key] = length
        return length

    def _layout(self, text: str, mode: str, stroke_width: float) -> tuple[list, tuple[int, int, int, int]]:
        """Each run's bbox from the common baseline origin (anchor "ls"), and their union."""
        key = (text, mode, stroke_width)
        if key not in self._layouts:
            _keep_small(self._layouts)
            self._layouts[key] = self._lay_out(text, mode, stroke_width)
        return self._layouts[key]

    def _lay_out(self, text: str, mode: str, stroke_width: float) -> tuple[list, tuple[int, int, int, int]]:
        x, boxes = 0.0, []
        for font, piece in self.runs(text):
            box = self._parent(font).getbbox(piece, mode, None, None, None, stroke_width, "ls")
            boxes.append((font, piece, x, box))
            x += self._parent(font).getlength(piece, mode)
        left = min((x0 + b[0] for _, _, x0, b in boxes), default=0)
        top = min((b[1] for *_, b in boxes), default=0)
        right = max((x0 + b[2] for _, _, x0, b in boxes), default=0)
        bottom = max((b[3] for *_, b in boxes), default=0)
        return boxes, (int(left), int(top), int(right), int(bottom))

    def _anchor_offset(self, text: str, anchor: str | None, mode: str) -> tuple[float, float]:
        """Where the baseline origin lies for `anchor` (horizontal text)."""
        anchor = anchor or "la"
        width = self.getlength(text, mode)
        ascent, descent = self.getmetrics()
        _, (_, top, _, bottom) = self._layout(text, mode, 0)
        dx = {"l": 0.0, "m": -width / 2, "r": -width}[anchor[0]]
        dy = {"a": ascent, "t": -top, "m": (ascent - descent) / 2, "s": 0.0, "b": -bottom, "d": -descent}[anchor[1]]
        return dx, dy

    def getbbox(  # pyright: ignore[reportIncompatibleMethodOverride] - our texts are str, never bytes
        self,
        text: str,
        mode: str = "",
        direction: str | None = None,  # type: ignore[override]
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
    ) -> tuple[int, int, int, int]:
        if self._single(text):
            if direction or features or language:
                return cast(
                    "tuple[int, int, int, int]",
                    super().getbbox(text, mode, direction, features, language, stroke_width, anchor),
                )
            # (kept, as the lengths: a board measures the same words every turn)
            key = (text, mode, stroke_width, anchor)
            box = self._boxes.get(key)
            if box is None:
                _keep_small(self._boxes)
                # Whole pixels, as FreeTypeFont measures them (Pillow's stub says float).
                box = self._boxes[key] = cast(
                    "tuple[int, int, int, int]", super().getbbox(text, mode, None, None, None, stroke_width, anchor)
                )
            return box
        dx, dy = self._anchor_offset(text, anchor, mode)
        _, (left, top, right, bottom) = self._layout(text, mode, stroke_width)
        # Whole pixels, as Pillow's own bboxes are (callers size images with them).
        return (math.floor(left + dx), math.floor(top + dy), math.ceil(right + dx), math.ceil(bottom + dy))

    # ------------------------------------------------------------ drawing
    def getmask2(
        self,
        text: str,
        mode: str = "",
        direction: str | None = None,  # type: ignore[override]
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        # A board draws the same words every turn: their masks are kept (drawing code only
        # reads a mask, except an RGBA one, which is never kept).
        single = self._single(text)
        keep = not args and not direction and not features and not language and mode in ("", "1", "L")
        # (several fonts: the fractional start is not used, each run is drawn from whole pixels;
        # the ink is not in the key: FreeType's grey masks ("", "1", "L", the only ones kept) are
        # the same in any ink — it colours only an RGBA mask — so a name drawn on a layer and
        # then on its mask, in another ink, is drawn once: tests/render/test_scripts.py)
        key = (text, mode, stroke_width, anchor, start if single else None, tuple(sorted(kwargs.items())))
        if keep and key in self._masks:
            return self._masks[key]
        if single:
            drawn = super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        else:
            drawn = self._draw_runs(text, mode, stroke_width, anchor, ink, *args, **kwargs)
        if keep:
            _keep_small(self._masks, 512)
            self._masks[key] = drawn
        return drawn

    def _draw_runs(
        self, text: str, mode: str, stroke_width: float, anchor: str | None, ink: int, *args: Any, **kwargs: Any
    ) -> tuple[Any, tuple[int, int]]:
        boxes, (left, top, right, bottom) = self._layout(text, mode or "L", stroke_width)
        canvas = Image.new(mode if mode in ("1", "L") else "L", (max(1, right - left), max(1, bottom - top)), 0)
        for font, piece, x0, _ in boxes:
            mask, (ox, oy) = self._parent(font).getmask2(
                piece, mode, None, None, None, stroke_width, "ls", ink, None, *args, **kwargs
            )
            if mask.size[0] and mask.size[1]:
                canvas.paste(Image.Image()._new(mask), (int(x0) + ox - left, oy - top))
        dx, dy = self._anchor_offset(text, anchor, mode)
        return canvas.im, (int(left + dx), int(top + dy))


def _keep_small(cache: dict, most: int = 4096) -> None:
    if len(cache) >= most:
        cache.clear()


@lru_cache(maxsize=64)
def chain_font(size: int, bold: bool = False, han: str = "ja") -> ChainFont:
    return ChainFont(size, bold, han)


def missing_glyphs(text: str) -> list[str]:
    """Characters no font of the chain can draw (they would come out as boxes)."""
    fonts = [coverage(n) for n in CHAINS[False]]
    return [ch for ch in _clean(text) if not ch.isspace() and not any(ord(ch) in cover for cover in fonts)]
