"""Builds the fonts shipped in render/fonts that DejaVu Sans does not cover: Hangul (from
Noto Sans CJK KR, SIL Open Font License) and emoji and pictographs (from Symbola, "free for
any use"), cut down to the characters the bot may draw so the repository stays small.

    apt-get install fonts-noto-cjk fonts-symbola     # Debian's packages, once
    python tools/fonts.py                            # writes render/fonts/*.ttf

The outputs are committed: `make run` needs nothing but Python.
"""
from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

OUT = Path(__file__).resolve().parents[1] / "render" / "fonts"
NOTO = {"Regular": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "Bold": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"}
SYMBOLA = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"

HANGUL = [(0x1100, 0x11FF), (0x3000, 0x303F), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7A3),
          (0xD7B0, 0xD7FF), (0xFF01, 0xFF60)]
EMOJI = [(0x2190, 0x21FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x27BF), (0x2900, 0x297F),
         (0x2B00, 0x2BFF), (0x1F000, 0x1F0FF), (0x1F100, 0x1F1FF), (0x1F300, 0x1F6FF), (0x1F900, 0x1F9FF),
         (0x1FA70, 0x1FAFF)]


def codepoints(ranges: list[tuple[int, int]]) -> list[int]:
    return [c for lo, hi in ranges for c in range(lo, hi + 1)]


def korean_face(path: str) -> TTFont:
    for font in TTCollection(path).fonts:
        if "KR" in font["name"].getDebugName(1):
            return font
    raise SystemExit(f"{path}: no KR face")


def cut(font: TTFont, ranges: list[tuple[int, int]], out: Path) -> None:
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False  # small files; Pillow's FreeType renders them unhinted well enough
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints(ranges))
    subsetter.subset(font)
    font.flavor = None
    font.save(out)
    print(f"wrote {out.name}: {out.stat().st_size // 1024} KiB")


def main() -> int:
    missing = [p for p in [*NOTO.values(), SYMBOLA] if not Path(p).exists()]
    if missing:
        print("missing: " + ", ".join(missing) + "\ninstall: apt-get install fonts-noto-cjk fonts-symbola",
              file=sys.stderr)
        return 2
    for style, path in NOTO.items():
        cut(korean_face(path), HANGUL, OUT / f"NotoSansKR-{style}-Hangul.otf")
    cut(TTFont(SYMBOLA), EMOJI, OUT / "Symbola-Emoji.ttf")
    return 0


if __name__ == "__main__":
    sys.exit(main())
