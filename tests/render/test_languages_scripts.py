"""Every script of Discord's 32 locales is drawn, and drawn right (issue 76): for each language
in progress, its letters (every one it writes, upper and lower case; for Chinese the common
hanzi of GB 2312 and Big5), people's names in its script and its longest translated labels
come out with no missing glyph (`tests/render/tofu.py` counts them, 0), and Thai and
Devanagari are shaped (raqm) rather than drawn mark after letter.

`make test` renders a board with names in every new script once and checks each language's
letters and labels against the font chain; `make reliability` (METROBOT_RELIABILITY=full) renders
a board in each language in progress, with its names and its labels."""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from metrobot.gamelog import self_play
from metrobot.games import get_game
from metrobot.i18n import lang
from metrobot.render import render_image
from metrobot.render.pill import SS as PILL_SS
from metrobot.render.pill import layout as pill_layout
from metrobot.render.style import font
from metrobot.render.text import FONT_DIR, LAYOUT, chain_font, han, han_forms, missing_glyphs
from metrobot.render.underground.tags import CODES, TAG_H
from metrobot.render.underground.tags import code as line_code
from tests.languages import NEW, checked, sample_in_progress
from tests.render.tofu import assert_no_tofu
from tools.fonts import two_byte_han
from tools.language_pictures import DOCS as DOCS_PAGE
from tools.language_pictures import NAMES as PICTURE_NAMES
from tools.language_pictures import SCRIPTS as PICTURE_SCRIPTS
from tools.translations import LOCALES

# Each language's own letters beyond ASCII (lower case; upper case is checked too), as its
# alphabet writes them.
LETTERS = {
    "bg": "абвгдежзийклмнопрстуфхцчшщъьюя",
    "cs": "áčďéěíňóřšťúůýž",
    "da": "æøåé",
    "el": "αάβγδεέζηήθιίϊΐκλμνξοόπρσςτυύϋΰφχψωώ",
    "fi": "äöåšž",
    "hi": "".join(chr(c) for c in range(0x0900, 0x0980) if c not in (0x0978,)),
    "hr": "čćđšž",
    "hu": "áéíóöőúüű",
    "id": "é",
    "it": "àèéìíîòóùú",
    "lt": "ąčęėįšųūž",
    "nb": "æøåéèóòâô",
    "pl": "ąćęłńóśźż",
    "ro": "ăâîșțşţ",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "sv": "åäöé",
    "th": "".join(chr(c) for c in range(0x0E01, 0x0E5C) if not 0x0E3B <= c <= 0x0E3E),
    "tr": "çğıöşüâîû",
    "uk": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя’",
    "vi": "ăâđêôơưàảãáạằẳẵắặầẩẫấậèẻẽéẹềểễếệìỉĩíịòỏõóọồổỗốộờởỡớợùủũúụừửữứựỳỷỹýỵ",
    "zh_CN": "，。、：；！？“”（）《》",
    "zh_TW": "，。、：；！？「」『』（）《》",
}
# People's names as they are written in each script (and a long one: names are what fit least).
NAMES = {
    "bg": "Цветелина Стефанова",
    "cs": "Jiří Dvořák-Šťastný",
    "da": "Søren Kierkegaard Ærø",
    "el": "Αικατερίνη Παπαδοπούλου",
    "fi": "Väinö Hämäläinen",
    "hi": "प्रियंका क्षत्रिय शर्मा",
    "hr": "Đurđica Čačić",
    "hu": "Erdős Győző Ünőke",
    "id": "Siti Nurhaliza",
    "it": "Niccolò Caffè",
    "lt": "Žemyna Ąžuolaitė-Šimkūnė",
    "nb": "Bjørn Ødegård",
    "pl": "Grzegorz Brzęczyszczykiewicz",
    "ro": "Ștefan Țăranu",
    "ru": "Ёлкина Щукина-Подъячева",
    "sv": "Åsa Öberg",
    "th": "สมชาย ใจดีมีน้ำใจ",
    "tr": "Şükrü İğdeli Çağlayan",
    "uk": "Ґалина Їжакевич-Єрмоленко",
    "vi": "Nguyễn Thị Phượng Trường",
    "zh_CN": "欧阳晓燕",
    "zh_TW": "歐陽曉燕",
}
# One language of each script the new languages bring (Latin with the most marks: Vietnamese).
SCRIPTS = {"Thai": "th", "Devanagari": "hi", "Han, simplified": "zh_CN", "Han, traditional": "zh_TW", "Greek": "el"}
SCRIPTS |= {"Cyrillic": "uk", "Latin": "vi"}


# (read once a process: the board test below draws every new language's longest texts, and each
# language's own glyph test reads its catalogue again; babel's parse is most of their CPU)
@cache
def _translations(code: str) -> tuple[str, ...]:
    with (LOCALES / f"{code}.po").open("rb") as f:
        cat = read_po(f, locale=code)
    return tuple(
        str(t) for m in cat if m.id for t in (m.string if isinstance(m.string, (tuple, list)) else (m.string,)) if t
    )


def _longest(code: str, most: int = 12) -> list[str]:
    """The language's longest translated texts (none while nothing is translated)."""
    return sorted(_translations(code), key=len, reverse=True)[:most]


def test_every_new_language_has_letters_and_a_name():
    assert set(LETTERS) == set(NAMES) == set(NEW)


@pytest.mark.parametrize("code", NEW)
def test_every_letter_name_and_translation_has_a_glyph(code):
    """Every letter, in both cases, the name and every text translated so far: no missing glyph."""
    letters = LETTERS[code] + LETTERS[code].upper() + NAMES[code]
    assert missing_glyphs(letters) == []
    assert missing_glyphs("".join(_translations(code))) == []


def test_the_common_hanzi_of_both_chinese_forms_have_glyphs():
    """GB 2312's 6,763 hanzi (simplified) and Big5's 5,401 common ones (traditional): every one,
    and every character the two Chinese catalogues write (a new one needs `tools/fonts.py chinese`)."""
    simplified = two_byte_han("gb2312", range(0xB0, 0xF8), [*range(0xA1, 0xFF)])
    traditional = two_byte_han("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    assert len(simplified) == 6763 and len(traditional) == 5401
    assert missing_glyphs("".join(map(chr, sorted(simplified | traditional)))) == []


def _draw_labels(code: str) -> None:
    image = Image.new("RGB", (1600, 60), "white")
    draw = ImageDraw.Draw(image)
    for text in [NAMES[code], LETTERS[code], *_longest(code)]:
        for bold in (False, True):
            draw.text((0, 0), text, fill="black", font=font(18, bold))


def test_a_board_with_names_in_every_new_script_has_no_missing_glyph():
    """A board whose players' names are Thai, Devanagari, simplified and traditional Chinese and
    Greek (the seats of one game), and each language's name, letters and longest labels drawn in
    its font: every character drawn has a glyph."""
    game = get_game("underground")
    seats = [f"p{i}" for i in range(5)]
    _, state = self_play(game, seats, {}, 3)
    names = {seat: NAMES[SCRIPTS[script]] for seat, script in zip(seats, SCRIPTS)}
    recorded = assert_no_tofu(lambda: [render_image(game, state, None, names), *(_draw_labels(code) for code in NEW)])
    drawn = "".join(text for _, text in recorded)
    assert all(name in drawn for name in names.values())


@pytest.mark.parametrize("code", sample_in_progress() if len(sample_in_progress()) > 1 else [])
def test_a_board_in_each_language_in_progress(code):
    """(make reliability) A board in the language, with names in its script: no missing glyph."""
    game = get_game("metromania")
    seats = ["a", "b", "c"]
    _, state = self_play(game, seats, {}, 3)
    names = dict(zip(seats, [NAMES[code], NAMES[code].split()[0], NAMES[code][::-1]]))
    assert_no_tofu(lambda: render_image(game, state, None, names, lang(code)))


@pytest.mark.parametrize(
    "text, script", [("ก่ำน้ำใจ", "Thai"), ("किप्रियाक्षत्रिय", "Devanagari")], ids=["Thai", "Devanagari"]
)
def test_thai_and_devanagari_are_shaped(text, script):
    """The chain lays them out with raqm (HarfBuzz): the font's own layout tables stack Thai's
    marks and put Devanagari's vowel sign ि before its consonant and join its conjuncts; the
    basic layout draws each mark after its letter, so the two differ."""
    if not features.check("raqm"):
        pytest.skip("this Pillow has no raqm (its wheels do)")
    assert LAYOUT == ImageFont.Layout.RAQM
    chain = chain_font(32)
    ((shaping, piece),) = chain.runs(text)  # (one script: one run, laid out whole)
    assert script in str(shaping.path) and shaping.layout_engine == ImageFont.Layout.RAQM
    basic = ImageFont.truetype(
        str(FONT_DIR / f"NotoSans{script}-Regular.ttf"), 32, layout_engine=ImageFont.Layout.BASIC
    )

    def drawn(f: ImageFont.FreeTypeFont) -> Image.Image:
        image = Image.new("L", (600, 80), 0)
        ImageDraw.Draw(image).text((10, 10), piece, fill=255, font=f)
        return image

    assert ImageChops.difference(drawn(shaping), drawn(basic)).getbbox() is not None


# The font each script is drawn with, whatever the language (Han and the CJK punctuation: by
# the picture's language, `HAN_FONT`).
SCRIPT_FONT = {
    "LATIN": "DejaVuSans",
    "GREEK": "DejaVuSans",
    "CYRILLIC": "DejaVuSans",
    "THAI": "NotoSansThai",
    "DEVANAGARI": "NotoSansDevanagari",
    "HANGUL": "NotoSansKR",
    "HIRAGANA": "NotoSansJP",
    "KATAKANA": "NotoSansJP",
}
HAN_FONT = {"zh_CN": "NotoSansSC", "zh_TW": "NotoSansTC"}


def _script_font(ch: str, code: str) -> str | None:
    """The font a character of a language's text must be drawn with (None: any, e.g. digits,
    ASCII, symbols)."""
    point = ord(ch)
    cjk_punctuation = 0x3000 <= point <= 0x303F or 0xFF00 <= point <= 0xFFEF
    if point < 128 or (unicodedata.category(ch)[0] not in "LM" and not cjk_punctuation):
        return None
    if cjk_punctuation or unicodedata.name(ch, "").startswith("CJK"):
        return HAN_FONT.get(code, "NotoSansJP")
    return SCRIPT_FONT.get(unicodedata.name(ch, "").split(" ")[0])


@pytest.mark.parametrize("code", checked())
def test_every_letter_of_a_catalogue_is_drawn_with_its_scripts_font(code):
    """In a picture in its language, every letter (and mark, and CJK punctuation) of each text
    of the catalogue is drawn with the font of its script, regular and bold: no Thai, Devanagari
    or Hangul word in two fonts, no Latin letter of Vietnamese or Romanian from a CJK font, and a
    Chinese text's hanzi and punctuation in its own forms (simplified: Noto Sans SC; Taiwan's:
    Noto Sans TC), not the Japanese ones (the chain puts Japanese first for everyone else)."""
    texts = _translations(code) if code != "en" else []
    assert texts or code == "en"
    wrong: dict[str, set[str]] = {}
    with han_forms(code):
        for bold in (False, True):
            chain = chain_font(18, bold, han())  # (what `style.font` gives here)
            for text in texts:
                for drawn, piece in chain.runs(text):
                    used = Path(str(drawn.path)).stem.split("-")[0]
                    for ch in piece:
                        want = _script_font(ch, code)
                        if want is not None and used != want:
                            wrong.setdefault(f"{ch} U+{ord(ch):04X} wants {want}", set()).add(used)
    assert not wrong, sorted(wrong.items())[:20]


@pytest.mark.parametrize("code", checked())
def test_every_line_code_stays_inside_its_pill(code):
    """On the Underground's line codes ("Bk", "Чр", "黑", "भू") in their pills, at the sizes the
    board and the panel draw them: the code's ink stays off the ring's outer half, and a
    Devanagari code with a vowel sign below is drawn smaller rather than over the ring."""
    with han_forms(code):
        for colour in CODES:
            text = line_code(colour, lang(code))
            for height in (15, TAG_H):
                f, y, ring = pill_layout(text, height)
                _, top, _, bottom = f.getbbox(text, anchor="mm")
                assert ring / 2 <= y + top and y + bottom <= height * PILL_SS - ring / 2, (text, height)


def test_the_language_pictures_name_players_in_every_new_language():
    """`tools/language_pictures.py` (the pictures looked at, docs/players/languages.md) names four
    players in each new language's script: one as long as Discord's display names go (at most
    32 characters), each drawn with no missing glyph; its docs' pictures are files of the page."""
    assert set(PICTURE_NAMES) == set(NEW)
    for code, people in PICTURE_NAMES.items():
        assert len(people) == 4 and all(0 < len(name) <= 32 for name in people), code
        assert missing_glyphs("".join(people)) == [], code
    page = (DOCS_PAGE.parent / "languages.md").read_text(encoding="utf-8")
    assert all(f"(languages/{code}.png)" in page and (DOCS_PAGE / f"{code}.png").exists() for code in PICTURE_SCRIPTS)
