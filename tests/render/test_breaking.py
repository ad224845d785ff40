"""Line breaking in every language: never inside a word or a number; Japanese between its
characters, by the kinsoku rules (no line begins with a closing mark or small kana, none ends
with an opening bracket). Checked on examples and on every text of every catalogue, wrapped
narrow."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from metrobot.render.breaking import NO_END, NO_START, breaks, cjk, pieces, wrap
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
