"""Line breaking in every language: never inside a word or a number; Japanese between its
characters, by the kinsoku rules (no line begins with a closing mark or small kana, none ends
with an opening bracket). Checked on examples and on every text of every catalogue, wrapped
narrow. A text too long for its box is shortened a whole character (as drawn) at a time."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from metrobot.render.breaking import NO_END, NO_START, breaks, cjk, joined, pieces, shorter, wrap
from metrobot.render.style import fit_around, fit_text, text_width
from tests.languages import checked
from tools import messages


def narrow(width: int):
    return lambda line: len(line) <= width


def test_latin_breaks_at_spaces_and_after_hyphens_only():
    assert pieces("Tottenham Court Road") == ["Tottenham ", "Court ", "Road"]
    assert pieces("Mendelssohn-Bartholdy-Park") == ["Mendelssohn-", "Bartholdy-", "Park"]
    assert pieces("Gare du Nord / Magenta") == ["Gare ", "du ", "Nord ", "/ ", "Magenta"]
    assert wrap("Tottenham Court Road", narrow(12)) == ["Tottenham", "Court Road"]
    assert wrap("Zoë and Ђорђе", narrow(1)) == ["Zoë", "and", "Ђорђе"]  # a word longer than the line keeps whole


def test_hangul_breaks_between_words():
    assert pieces("김민준 님이 이겼어요!") == ["김민준 ", "님이 ", "이겼어요!"]


def test_japanese_breaks_between_characters_by_the_kinsoku_rules():
    text = "「実線」を選んでください。次は、ちょっと待って……次はG13に駅。"
    places = breaks(text)
    for i in places:
        assert text[i] not in NO_START and text[i - 1] not in NO_END, (text[:i], text[i:])
    assert text.index("」") not in places and text.index("。") not in places  # no line begins with them
    assert text.index("「") + 1 not in places  # none ends with an opening bracket
    assert text.index("っ") not in places and text.index("……") + 1 not in places  # small kana; "……" whole
    assert text.index("G13") + 1 not in places and text.index("G13") + 2 not in places  # not inside "G13"
    assert text.index("G13") in places and text.index("G13") + 3 in places  # but around it
    lines = wrap(text, narrow(5))
    assert "".join(lines) == text and all(len(line) <= 6 for line in lines)


@pytest.mark.parametrize("code", [c for c in checked() if c != "en"])
def test_every_catalogue_text_wraps_without_splitting_a_word(code):
    with (messages.LOCALES / f"{code}.po").open("rb") as f:
        catalogue = read_po(f, locale=code)
    checked = 0
    for message in catalogue:
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            for paragraph in (text or "").split("\n"):
                for i in breaks(paragraph):
                    a, b = paragraph[i - 1], paragraph[i]
                    if cjk(a) or cjk(b):
                        assert b not in NO_START and a not in NO_END, (code, paragraph[:i], paragraph[i:])
                    else:  # between words: after a space, or a hyphen or slash ending a word
                        assert a.isspace() or a in "-/–", (code, paragraph[:i], paragraph[i:])
                lines = wrap(paragraph, narrow(12))
                assert re.sub(r"\s+", "", "".join(lines)) == re.sub(r"\s+", "", paragraph)
                checked += 1
    assert checked > 500


# Texts and where they may be shortened (after each "|"): never inside a character as drawn.
SHORTENED = {
    "Thai marks and a leading vowel": "น้ำ|ใจ|ดี",
    "Devanagari conjuncts and vowel signs": "प्रि|यं|का| |क्ष|त्रि|य",
    "Vietnamese typed with combining accents": "N|g|u|y|e\u0302\u0303|n",
    "an emoji sequence and a flag": "Z|o\u0308|e|🧑\u200d🚀|🇫🇷|🇩🇪",
    "Hangul, kana and hanzi": "김|민|준| |か\u3099|な|欧|阳",
}


@pytest.mark.parametrize("marked", SHORTENED.values(), ids=SHORTENED)
def test_a_text_is_shortened_a_whole_character_at_a_time(marked):
    """`shorter` takes off one character as drawn (a grapheme cluster, UAX 29 with its Indic
    conjunct rule): never a mark from its letter, half a conjunct, a Thai vowel from the
    consonant it is written before, part of an emoji or of a flag."""
    text = marked.replace("|", "")
    expected, steps = [], marked.split("|")
    for n in range(len(steps) - 1, -1, -1):
        expected.append("".join(steps[:n]))
    got, left = [], text
    while left:
        left = shorter(left)
        got.append(left)
    assert got == expected
    assert all(not joined(text, i) for i in breaks(text)), "no line breaks inside a character either"


def test_a_shortened_text_ends_with_a_whole_character_and_no_space():
    """`fit_text` cuts a long name a whole character at a time, and puts its "…" after the last
    letter ("Väinö…", not "Väinö …"); `fit_around` shortens the name and keeps the words around it."""
    for name in (
        "प्रियंका क्षत्रिय शर्मा",
        "สมชาย ใจดีมีน้ำใจ",
        "Väinö Hämäläinen",
        "Nguye\u0302\u0303n Thi\u0323 Phu\u031bo\u031b\u0323ng",
    ):
        full = text_width(name, 22, True)
        for width in range(10, int(full) + 20, 7):
            cut = fit_text(name, 22, width, True)
            if cut == name:
                continue
            kept = cut.removesuffix("…")
            assert name.startswith(kept) and (not kept or not joined(name, len(kept))), (name, cut)
            assert kept == kept.rstrip()
    you = fit_around(lambda n: f"{n}  (you)", "Цветелина Стефанова", 22, 200, True)
    assert you.endswith("…  (you)") and text_width(you, 22, True) <= 200
    assert fit_around(lambda n: f"{n}  (you)", "Bo", 22, 200, True) == "Bo  (you)"
