"""Builds the fonts shipped in metrobot/render/fonts that DejaVu Sans does not cover, cut down to the
characters the bot may draw so the repository stays small:

- Hangul, from Noto Sans CJK KR (SIL Open Font License; Debian's fonts-noto-cjk);
- Japanese, from Noto Sans CJK JP (the same files): kana, CJK punctuation, full-width forms and
  the kanji of JIS X 0208 (levels 1 and 2, the 6,355 of Japan's standard character set, in which
  nearly every Japanese name is written) with the NEC/IBM extensions Windows adds (髙, 﨑), plus
  any other kanji the Japanese catalogue uses;
- emoji, from Noto Emoji, the monochrome outline font (SIL Open Font License; npm's
  @expo-google-fonts/noto-emoji carries its TTF files): every emoji of Unicode 15, in a
  regular and a bold weight — outlines, which Pillow draws at any size (colour bitmap
  emoji fonts come in one size and need scaling);
- the pictographs, arrows and dingbats that neither has, from Symbola ("free for any
  use"; Debian's fonts-symbola);
- Thai and Devanagari, from Noto Sans Thai and Noto Sans Devanagari (SIL Open Font License;
  Debian's fonts-noto-core): their blocks, with every layout table (Pillow's raqm shapes them:
  Thai's stacked marks, Devanagari's conjuncts and vowel signs need the font's GSUB and GPOS);
- Chinese, from Noto Sans CJK SC and TC (fonts-noto-cjk): the hanzi the Japanese cut lacks —
  of GB 2312's 6,763 (simplified, the set nearly every name in mainland China is written in) in
  the simplified forms, and of Big5's 5,401 common characters (traditional, Taiwan) what GB
  2312 lacks too, in Taiwan's forms — plus every hanzi the Chinese catalogues use and the CJK
  punctuation, Japanese's or not: a picture in Chinese draws with its own cut first, so its
  words come in one font and its forms. Otherwise a hanzi Japanese shares is drawn by the
  Japanese font, in its Japanese form (a name's, say): the chain picks a font by character,
  and that keeps the two Chinese cuts small (Greek and Cyrillic are DejaVu Sans', Vietnamese's
  letters too).

    apt-get install fonts-noto-cjk fonts-noto-core fonts-symbola   # Debian's packages, once
    python tools/fonts.py                           # fetches Noto Emoji with npm, writes metrobot/render/fonts/*
    python tools/fonts.py emoji                     # only the emoji fonts (fonts-symbola and npm needed)
    python tools/fonts.py japanese                  # only the Japanese fonts (fonts-noto-cjk needed)
    python tools/fonts.py thai devanagari chinese   # only those (fonts-noto-core, fonts-noto-cjk)

The outputs are committed: `make run` needs nothing but Python.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

OUT = Path(__file__).resolve().parents[1] / "metrobot" / "render" / "fonts"
NOTO = {
    "Regular": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "Bold": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
}
NOTO_EMOJI_PACKAGE = "@expo-google-fonts/noto-emoji@0.4.7"
NOTO_EMOJI = {"Regular": "package/400Regular/NotoEmoji_400Regular.ttf", "Bold": "package/700Bold/NotoEmoji_700Bold.ttf"}
SYMBOLA = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"
NOTO_CORE = "/usr/share/fonts/truetype/noto/NotoSans{script}-{style}.ttf"
# Each script's block, and what its shaping inserts or its texts use around it: the dotted
# circle (U+25CC, a mark with nothing to sit on), the joiners, the danda and the rupee sign.
THAI = [(0x0E01, 0x0E5B), (0x200B, 0x200D), (0x25CC, 0x25CC)]
DEVANAGARI = [
    (0x0900, 0x097F),
    (0x1CD0, 0x1CFF),
    (0xA8E0, 0xA8FF),
    (0x200B, 0x200D),
    (0x20B9, 0x20B9),
    (0x25CC, 0x25CC),
]

# CJK symbols and punctuation, full-width forms (，。：；！？（）「」 and the like).
CHINESE_PUNCTUATION = [(0x3000, 0x303F), (0xFF01, 0xFF60), (0xFFE0, 0xFFEF)]
JAPANESE = [(0x3000, 0x30FF), (0x31F0, 0x31FF), (0xFF01, 0xFF9F), (0xFFE0, 0xFFEF)]
HANGUL = [
    (0x1100, 0x11FF),
    (0x3000, 0x303F),
    (0x3130, 0x318F),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7A3),
    (0xD7B0, 0xD7FF),
    (0xFF01, 0xFF60),
]
# Emoji and pictographs: the blocks emoji come from, and symbols people put in names.
EMOJI = [
    (0x00A9, 0x00A9),
    (0x00AE, 0x00AE),
    (0x203C, 0x203C),
    (0x2049, 0x2049),
    (0x20E3, 0x20E3),
    (0x2122, 0x2122),
    (0x2139, 0x2139),
    (0x2190, 0x21FF),
    (0x2300, 0x23FF),
    (0x2460, 0x24FF),
    (0x25A0, 0x27BF),
    (0x2900, 0x297F),
    (0x2B00, 0x2BFF),
    (0x3030, 0x3030),
    (0x303D, 0x303D),
    (0x3297, 0x3297),
    (0x3299, 0x3299),
    (0x1F000, 0x1F0FF),
    (0x1F100, 0x1F1FF),
    (0x1F200, 0x1F2FF),
    (0x1F300, 0x1F6FF),
    (0x1F700, 0x1F7FF),
    (0x1F800, 0x1F8FF),
    (0x1F900, 0x1F9FF),
    (0x1FA00, 0x1FAFF),
]


def codepoints(ranges: list[tuple[int, int]]) -> list[int]:
    return [c for lo, hi in ranges for c in range(lo, hi + 1)]


def cjk_face(path: str, region: str) -> TTFont:
    """One region's face of a Noto Sans CJK collection ("KR", "JP"): the same characters are
    drawn the way that region writes them."""
    for font in TTCollection(path).fonts:
        if font["name"].getDebugName(1) == f"Noto Sans CJK {region}":
            return font
    raise SystemExit(f"{path}: no {region} face")


def jis_kanji() -> set[int]:
    """The kanji of JIS X 0208 and of the NEC and IBM extensions that Windows' Shift JIS adds
    (髙, 﨑: common in names), read from Python's cp932 codec (every two-byte code)."""
    out = set()
    for high in [*range(0x81, 0xA0), *range(0xE0, 0xFD)]:
        for low in [*range(0x40, 0x7F), *range(0x80, 0xFD)]:
            try:
                ch = bytes([high, low]).decode("cp932")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1 and (0x3400 <= ord(ch) <= 0x9FFF or 0xF900 <= ord(ch) <= 0xFAFF):
                out.add(ord(ch))
    return out


def is_han(code: int) -> bool:
    return 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF


def catalogue_kanji(code: str = "ja") -> set[int]:
    """The ideographs a catalogue writes (whatever the standard set lacks is added)."""
    po = Path(__file__).resolve().parents[1] / "metrobot" / "i18n" / "locales" / f"{code}.po"
    return {ord(ch) for ch in po.read_text(encoding="utf-8") if is_han(ord(ch))} if po.exists() else set()


def two_byte_han(codec: str, rows: range, cells: list[int]) -> set[int]:
    """The hanzi of a two-byte national character set, read from Python's codec for it."""
    out = set()
    for high in rows:
        for low in cells:
            try:
                ch = bytes([high, low]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(ch) == 1 and is_han(ord(ch)):
                out.add(ord(ch))
    return out


def chinese() -> tuple[list[int], list[int]]:
    """The characters of the simplified and the traditional cut: what the Japanese cut lacks of
    GB 2312 (levels 1 and 2, rows 0xB0-0xF7) and of Big5's common characters (level 1, rows
    0xA4-0xC6) — the traditional cut leaves out what the simplified has (the chain draws a
    character with the first font that has it) —, and, in each, every hanzi its catalogue writes
    and the CJK punctuation and full-width forms (`CHINESE_PUNCTUATION`), Japanese's or not: a
    picture in Chinese draws with its own cut first (`metrobot/render/text.py`, `HAN_FIRST`), so
    that every word of its catalogue is drawn in one font, in its own forms, and its punctuation
    sits where its readers put it (centred in Taiwan's)."""
    japanese = set(TTFont(OUT / "NotoSansJP-Regular-Japanese.otf").getBestCmap() or ())
    punctuation = set(codepoints(CHINESE_PUNCTUATION))
    gb2312 = two_byte_han("gb2312", range(0xB0, 0xF8), [*range(0xA1, 0xFF)]) - japanese
    simplified = gb2312 | catalogue_kanji("zh_CN") | punctuation
    big5 = two_byte_han("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    traditional = (big5 - japanese - gb2312) | catalogue_kanji("zh_TW") | punctuation
    return sorted(simplified), sorted(traditional)


def cut(font: TTFont, wanted: list[int], out: Path, *, layout: bool = True) -> None:
    options = subset.Options()
    options.layout_features = ["*"] if layout else []
    options.name_IDs = ["*"]  # pyright: ignore[reportAttributeAccessIssue] - set from a table of defaults the stub does not list
    options.notdef_outline = True
    options.hinting = False  # small files; Pillow's FreeType renders them unhinted well enough
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    font.flavor = None
    font.save(out)
    print(f"wrote {out.name}: {out.stat().st_size // 1024} KiB, {len(font.getBestCmap() or {})} characters")


def noto_emoji(where: Path) -> dict[str, Path]:
    """Noto Emoji's TTF files, from its npm package (fetched with npm, unpacked in `where`)."""
    done = subprocess.run(
        ["npm", "pack", NOTO_EMOJI_PACKAGE, "--pack-destination", str(where)],
        capture_output=True,
        text=True,
        check=True,
    )
    with tarfile.open(where / done.stdout.strip().splitlines()[-1]) as archive:
        archive.extractall(where, filter="data")
    return {style: where / path for style, path in NOTO_EMOJI.items()}


def main(argv: list[str]) -> int:
    parts = argv or ["hangul", "japanese", "emoji", "thai", "devanagari", "chinese"]
    needed = (
        ([*NOTO.values()] if {"hangul", "japanese", "chinese"} & set(parts) else [])
        + ([SYMBOLA] if "emoji" in parts else [])
        + [
            NOTO_CORE.format(script=script.title(), style=style)
            for script in ("thai", "devanagari")
            if script in parts
            for style in NOTO
        ]
    )
    missing = [p for p in needed if not Path(p).exists()]
    if missing:
        print(
            "missing: "
            + ", ".join(missing)
            + "\ninstall: apt-get install fonts-noto-cjk fonts-noto-core fonts-symbola",
            file=sys.stderr,
        )
        return 2
    for script, ranges in (("thai", THAI), ("devanagari", DEVANAGARI)):
        if script in parts:  # (every layout table kept: raqm shapes with them)
            for style in NOTO:
                source = NOTO_CORE.format(script=script.title(), style=style)
                cut(TTFont(source), codepoints(ranges), OUT / f"NotoSans{script.title()}-{style}.ttf")
    if "chinese" in parts:
        simplified, traditional = chinese()
        for style, path in NOTO.items():
            cut(cjk_face(path, "SC"), simplified, OUT / f"NotoSansSC-{style}-Chinese.otf")
            cut(cjk_face(path, "TC"), traditional, OUT / f"NotoSansTC-{style}-Chinese.otf")
    if "hangul" in parts:
        for style, path in NOTO.items():
            cut(cjk_face(path, "KR"), codepoints(HANGUL), OUT / f"NotoSansKR-{style}-Hangul.otf")
    if "japanese" in parts:
        wanted = sorted(set(codepoints(JAPANESE)) | jis_kanji() | catalogue_kanji())
        for style, path in NOTO.items():
            cut(cjk_face(path, "JP"), wanted, OUT / f"NotoSansJP-{style}-Japanese.otf")
    if "emoji" in parts:
        emoji_fonts(codepoints(EMOJI))
    return 0


def emoji_fonts(emoji: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        faces = noto_emoji(Path(tmp))
        covered = set(TTFont(faces["Regular"]).getBestCmap() or ())
        for style, path in faces.items():
            # Its layout tables (flags, keycaps, joined sequences) go: the chain draws
            # character by character, and they would only add size.
            cut(TTFont(path), [c for c in emoji if c in covered], OUT / f"NotoEmoji-{style}.ttf", layout=False)
        license_text = (Path(tmp) / "package" / "LICENSE_FONT").read_text(encoding="utf-8")
    (OUT / "LICENSE-NotoEmoji.txt").write_text(license_text, encoding="utf-8")
    # Symbola only for what Noto Emoji lacks (older pictographs, arrows, dingbats).
    cut(TTFont(SYMBOLA), [c for c in emoji if c not in covered], OUT / "Symbola-Emoji.ttf")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
