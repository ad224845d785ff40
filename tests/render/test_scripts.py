"""Names in any script are drawn, not boxed: Hangul, kanji and kana, Latin with accents,
Cyrillic, Greek and common emoji go through the font chain (metrobot/render/text.py) on every game's
images."""

from __future__ import annotations

import unicodedata

import pytest
from PIL import Image, ImageChops, ImageDraw

from metrobot.gamelog import self_play
from metrobot.games import get_game
from metrobot.render import render_image
from metrobot.render.style import font
from metrobot.render.text import CHAINS, FONT_DIR, INVISIBLE, coverage, missing_glyphs

NAMES = ["김민준", "Zoë", "Ђорђе", "🚇 Metro", "Αλέξης", "山田太郎", "髙橋さくら", "ミナ・ヨシダ"]
TOFU = "\U0010fffd"  # a private-use character no font here has: drawn as the empty box


def drawn(text: str, size: int = 24) -> Image.Image:
    im = Image.new("L", (40 * len(text) + 20, 2 * size), 0)
    ImageDraw.Draw(im).text((10, size // 2), text, fill=255, font=font(size))
    return im


@pytest.mark.parametrize("name", NAMES)
def test_every_character_has_a_glyph(name):
    assert missing_glyphs(name) == []
    for ch in name.replace(" ", ""):  # and each draws as itself, not as the box
        assert ImageChops.difference(drawn(ch), drawn(TOFU)).getbbox() is not None, ch


# Emoji people put in their names, the newer ones (Unicode 12-14) among them: coloured
# circles and squares, faces, hands, people (joined and with skin tones), flags, keycaps.
COMMON_EMOJI = [
    "🟢",
    "🟥",
    "🟠",
    "🟡",
    "🟣",
    "🟤",
    "🟦",
    "🟧",
    "🟨",
    "🟩",
    "🟪",
    "🟫",
    "🥲",
    "🫶",
    "🫠",
    "🫡",
    "🫣",
    "🥹",
    "🪩",
    "🪐",
    "🧋",
    "🦩",
    "😀",
    "😂",
    "🤣",
    "😍",
    "🥰",
    "😎",
    "🤔",
    "😭",
    "😡",
    "🤯",
    "🥳",
    "🤖",
    "👻",
    "💀",
    "🙏",
    "👍",
    "👍🏽",
    "👋🏿",
    "💪",
    "🫱🏼\u200d🫲🏾",
    "❤️",
    "🧡",
    "💚",
    "💙",
    "💜",
    "🖤",
    "🤍",
    "💯",
    "✨",
    "🔥",
    "⭐",
    "🌟",
    "⚡",
    "☀️",
    "🌈",
    "❄️",
    "☕",
    "🍕",
    "🍺",
    "🎉",
    "🎲",
    "🏆",
    "⚽",
    "🎮",
    "🚇",
    "🚆",
    "🚉",
    "🚊",
    "🚝",
    "🚄",
    "🚌",
    "🚲",
    "🛴",
    "🗺️",
    "🧭",
    "🌍",
    "🏙️",
    "🏠",
    "🐱",
    "🐶",
    "🦊",
    "🐼",
    "🦄",
    "🐍",
    "🌵",
    "🍀",
    "✅",
    "❌",
    "⛔",
    "⚠️",
    "♻️",
    "✈️",
    "☎️",
    "👨\u200d👩\u200d👧",
    "🧑\u200d💻",
    "🏳️\u200d🌈",
    "🇳🇱",
    "🇪🇸",
    "🇰🇷",
    "1️⃣",
    "#️⃣",
    "©️",
    "™️",
]
# The main emoji blocks, as the issue lists them: every character Unicode assigns there.
EMOJI_BLOCKS = [
    (0x1F300, 0x1F5FF),
    (0x1F600, 0x1F64F),
    (0x1F680, 0x1F6FF),
    (0x1F7E0, 0x1F7EB),
    (0x1F900, 0x1F9FF),
    (0x1FA70, 0x1FAFF),
    (0x2600, 0x27BF),
]


@pytest.mark.parametrize("emoji", COMMON_EMOJI)
def test_common_emoji_have_glyphs_and_are_drawn(emoji):
    assert missing_glyphs(emoji) == []
    box = drawn(TOFU)
    for size, bold in ((13, False), (24, True)):
        im = Image.new("L", (60 * len(emoji) + 20, 2 * size), 0)
        ImageDraw.Draw(im).text((10, size // 2), emoji, fill=255, font=font(size, bold))
        assert im.getbbox() is not None, emoji
    for ch in emoji:
        if missing_glyphs(ch) == [] and unicodedata.category(ch) == "So":
            assert ImageChops.difference(drawn(ch), box).getbbox() is not None, f"{emoji}: U+{ord(ch):04X}"


@pytest.mark.parametrize("low, high", EMOJI_BLOCKS, ids=[f"{lo:X}-{hi:X}" for lo, hi in EMOJI_BLOCKS])
def test_every_character_of_the_emoji_blocks_is_drawn(low, high):
    chars = [chr(c) for c in range(low, high + 1) if unicodedata.name(chr(c), None) and c not in INVISIBLE]
    assert chars and missing_glyphs("".join(chars)) == []
    box = drawn(TOFU, 16)
    blank = [f"U+{ord(ch):04X}" for ch in chars if drawn(ch, 16).getbbox() is None]
    boxed = [f"U+{ord(ch):04X}" for ch in chars if ImageChops.difference(drawn(ch, 16), box).getbbox() is None]
    assert not blank and not boxed, (blank, boxed)


def test_the_box_is_what_a_missing_glyph_looks_like():
    assert missing_glyphs(TOFU) == [TOFU]


@pytest.mark.parametrize("kind, players", [("metromania", 4), ("flipwrite", 4), ("underground", 5)])
def test_boards_with_names_in_every_script(kind, players):
    game = get_game(kind)
    seats = [f"p{i}" for i in range(players)]
    options = {"map": "berlin"} if kind == "flipwrite" else {}
    _, state = self_play(game, seats, options, 3)
    names = dict(zip(seats, NAMES))
    plain = render_image(game, state, None, {s: f"Player {i}" for i, s in enumerate(seats)})
    named = render_image(game, state, None, names)
    assert plain.size == named.size and ImageChops.difference(plain, named).getbbox() is not None


def test_japanese_names_and_texts_have_every_glyph():
    """Kana, and every kanji of JIS X 0208 with Windows' NEC/IBM extensions (the characters
    Japanese names are written in), are drawn by Noto Sans JP; so is every character of the
    Japanese catalogue (kanji outside that set would need `tools/fonts.py japanese` again)."""
    from babel.messages.pofile import read_po

    from tools import messages

    kana = [chr(c) for c in range(0x3041, 0x3097)] + [chr(c) for c in range(0x30A1, 0x30FB)]
    codes = (
        bytes([hi, lo]).decode("cp932", "ignore")
        for hi in [*range(0x88, 0xA0), *range(0xE0, 0xEF), *range(0xFA, 0xFD)]
        for lo in range(0x40, 0xFD)
    )
    kanji = {ch for ch in codes if len(ch) == 1 and ("\u4e00" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff")}
    assert len(kanji) > 6000 and missing_glyphs("".join(kana) + "".join(sorted(kanji))) == []
    with (messages.LOCALES / "ja.po").open("rb") as f:
        texts = [t for m in read_po(f, locale="ja") for t in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert missing_glyphs("".join(texts)) == []


@pytest.mark.parametrize("name", sorted(p.name for p in FONT_DIR.iterdir() if p.suffix in (".ttf", ".otf")))
def test_coverage_is_fonttools_best_cmap(name):
    """`coverage` reads the cmap itself (fontTools names every glyph to give it, ~0.3 s a process):
    the same characters as fontTools' best cmap, for every font shipped."""
    from fontTools.ttLib import TTFont

    with TTFont(FONT_DIR / name, lazy=True) as ttfont:
        expected = frozenset(ttfont.getBestCmap() or ())
    assert expected and coverage(name) == expected


@pytest.mark.parametrize("text", ["Metro", "King's Cross", *NAMES])
def test_a_grey_mask_is_the_same_in_any_ink(text):
    """The chain keeps a text's mask whatever the ink it was asked in (a station's name drawn on
    a board and then on its mask): FreeType's grey masks do not depend on the ink."""
    from PIL import ImageFont

    for name in (*CHAINS[False], *CHAINS[True]):
        plain = ImageFont.truetype(str(FONT_DIR / name), 32)
        for mode in ("", "L", "1"):
            start = (0.25, 0.5)
            first = plain.getmask2(text, mode, None, None, None, 0, "ls", 0, start)
            for ink in (255, 0x00FF00FF, 0x123456):
                again = plain.getmask2(text, mode, None, None, None, 0, "ls", ink, start)
                assert (again[0].size, bytes(again[0]), again[1]) == (first[0].size, bytes(first[0]), first[1])
