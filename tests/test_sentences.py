"""A refusal said as a sentence in the reader's language (`service.core.sentence`, `i18n.then`): no
"." after a Chinese, Japanese or Hindi full stop, "。" where a Chinese or Japanese text has none, and
no space between two Chinese or Japanese sentences."""

from __future__ import annotations

import pytest

from metrobot.games.protocol import RuleError
from metrobot.i18n import lang, then
from metrobot.service.core import sentence


@pytest.mark.parametrize(
    "code,text,said",
    [
        ("en", "no such station", "No such station."),
        ("en", "Not yet!", "Not yet!"),
        ("zh_CN", "这条线路不通。", "这条线路不通。"),
        ("zh_CN", "这条线路不通", "这条线路不通。"),
        ("ja", "その駅はありません", "その駅はありません。"),
        ("hi", "यह स्टेशन नहीं है।", "यह स्टेशन नहीं है।"),
        ("hi", "यह स्टेशन नहीं है", "यह स्टेशन नहीं है।"),
        ("ko", "그런 역은 없습니다", "그런 역은 없습니다."),
        ("en", "  spaced  ", "Spaced."),
        ("en", "", ""),
    ],
)
def test_a_sentence_ends_as_its_language_ends_one(code, text, said):
    assert sentence(text, lang(code)) == said


def test_two_sentences_are_joined_as_their_script_joins_them():
    assert then("不行。", "请换一个。") == "不行。请换一个。"
    assert then("ダメです！", "別の手を。") == "ダメです！別の手を。"
    assert then("Not here.", "Try another.") == "Not here. Try another."
    assert then("यहाँ नहीं।", "दूसरा चुनें।") == "यहाँ नहीं। दूसरा चुनें।"


@pytest.mark.parametrize("code", ["zh_CN", "zh_TW", "ja"])
def test_a_refusal_and_its_hint_in_chinese_and_japanese_have_no_space_between(code):
    error = RuleError(
        "{colour} already runs on {gap}: a block holds at most one piece of each colour.",
        "colour_in_gap",
        hint="Choose another gap.",
        colour="red",
        gap="A1-A2",
    )
    reader = lang(code)
    first = reader.t(error.template, **error.params)
    assert first.endswith(("。", "！"))  # the catalogue's own text, as a reader of it writes it
    assert error.in_language(reader) == first + reader.t("Choose another gap.")
