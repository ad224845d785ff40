"""Texts the code puts together from translated pieces (alt texts, text boards, a profile's
standings line, a tournament's and a rating chart's alt text) are punctuated as their language
punctuates: in Chinese and Japanese a sentence ends with "。" and the next follows with no space,
clauses are separated by "；" — never an ASCII "." or "; " written in the code (`Lang.stop`,
`Lang.semicolon`, `Lang.ended`, `Lang.clauses`, `Lang.sentences`). English reads as before."""

from __future__ import annotations

import random
import re

import pytest

from metrobot.games import get_plugin
from metrobot.i18n import lang
from metrobot.service.pictures import chart_alt
from metrobot.standings.standings import Standings
from metrobot.storage.history import Record
from metrobot.tournaments.reports import standings_alt

WIDE = ["zh_CN", "zh_TW", "ja"]
_HAN_KANA = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e"
# Latin punctuation the code wrote around a Chinese or Japanese text: "; ", a "." after a han or
# kana character or before one, a "." ending a line, a space after a full-width stop. (A station
# named "St. Paul's" keeps its own ". ": a capital letter follows.)
LATIN = re.compile(rf"; |(?<=[{_HAN_KANA}])\.|\. ?(?=[{_HAN_KANA}])|\.$|[。；] ", re.MULTILINE)
NAMES = {"a": "Ann", "b": "Bob", "c": "张三"}
GAMES = [("underground", {}), ("metromania", {}), ("flipwrite", {"map": "berlin"})]


def latin_in(text: str) -> list[str]:
    return [text[max(0, m.start() - 12) : m.end() + 12] for m in LATIN.finditer(text)]


def test_each_language_s_punctuation():
    assert [(lang(c).stop, lang(c).semicolon) for c in ("zh_CN", "zh_TW", "ja", "hi", "ko", "th", "en")] == [
        ("。", "；"),
        ("。", "；"),
        ("。", "；"),
        ("।", "; "),
        (".", "; "),
        (".", "; "),  # Thai needs no full stop but tolerates one (see i18n._PUNCTUATION)
        (".", "; "),
    ]
    zh, en = lang("zh_CN"), lang("en")
    assert zh.ended("得分") == "得分。" and zh.ended("得分。") == "得分。" and zh.ended("") == ""
    assert en.ended("Scores") == "Scores." and en.ended("Over!") == "Over!"
    assert zh.clauses(["甲", "", "乙"]) == "甲；乙" and en.clauses(["a", "", "b"]) == "a; b"
    assert zh.sentences("第一句。", "", "第二句。") == "第一句。第二句。"
    assert en.sentences("One.", "", "Two.") == "One. Two."
    assert lang("hi").sentences("पहला।", "दूसरा।") == "पहला। दूसरा।"


def _played(kind: str, options: dict, steps: int | None):
    """A game of three after `steps` random legal steps (None: to its end), seeded."""
    plugin = get_plugin(kind)
    state = plugin.new_game(list(NAMES), options, seed=7)
    rnd = random.Random(7)
    for _ in range(steps if steps is not None else 1000):
        movers = sorted(plugin.game.to_move(state))
        if not movers:
            break
        state, _events = plugin.game.apply(state, movers[0], rnd.choice(plugin.game.legal_actions(state, movers[0])))
    return plugin, state


@pytest.mark.parametrize("kind, options", GAMES, ids=[g[0] for g in GAMES])
def test_a_game_s_alt_text_and_text_board_in_chinese_and_japanese(kind, options):
    plugin, state = _played(kind, options, 25)
    view = plugin.game.view(state, "a")
    english = plugin.alt_text(view, "a", NAMES, lang("en"))
    assert ". " in english and english.endswith(".")  # (as before: Latin stops and spaces)
    for code in WIDE:
        g = lang(code)
        alt = plugin.alt_text(view, "a", NAMES, g)
        assert "。" in alt and alt.endswith("。"), alt
        assert not latin_in(alt), (code, latin_in(alt))
        board = "\n".join(plugin.text_board(view, "a", NAMES, g))
        assert not latin_in(board), (code, latin_in(board))
    # the clauses of a list: "；" where English has "; "
    assert "; " in english + "\n".join(plugin.text_board(view, "a", NAMES, lang("en")))
    assert "；" in plugin.alt_text(view, "a", NAMES, lang("zh_CN")) + "\n".join(
        plugin.text_board(view, "a", NAMES, lang("zh_CN"))
    )


@pytest.mark.parametrize("kind, options", GAMES, ids=[g[0] for g in GAMES])
def test_a_game_s_end_in_chinese_and_japanese(kind, options):
    plugin, state = _played(kind, options, None)
    view = plugin.game.view(state, None)
    assert view.get("phase") == "finished"
    for code in WIDE:
        for picture in ("board", "final:summary"):
            alt = plugin.alt_text(view, None, NAMES, lang(code), picture=picture)
            assert alt.endswith("。") and not latin_in(alt), (code, picture, latin_in(alt))


RECORD = Record("metromania", 12, 5, 23.44, (30.0, 2.0), 3, [20.0, 22.5, 24.04], [], [30.0, 50.0])
ROWS = [{"rank": 1, "name": "Ann", "points": 2.5}, {"rank": 2, "name": "Bob", "points": 1}]
TRENDS = {"MetrOmania": [20.0, 22.5, 24.04], "Metro flip-and-write": [1.0, 2.0]}


def test_standings_a_tournament_and_a_chart_in_english_read_as_before():
    en = lang("en")
    assert Standings.record_line(RECORD, en) == (
        "**MetrOmania**: 12 games, 5 won, average score 23.4; rating **24.0** (μ 30.0 ± 2.0), number 3 here, "
        "trend ↗ +4.0 over the last 2 games; median time to move 40 seconds (over 2 moves)."
    )
    assert standings_alt("Spring — final standings", "Swiss", ROWS, en) == (
        "Spring — final standings. Swiss. 1. Ann, 2.5 points; 2. Bob, 1 point."
    )
    assert chart_alt("Ann", TRENDS, en) == (
        "Ann. MetrOmania: 3 rated games, from 20.0 to 24.0; Metro flip-and-write: 2 rated games, from 1.0 to 2.0."
    )
    assert chart_alt("Ann", {}, en) == "Ann. No rated games yet."


@pytest.mark.parametrize("code", WIDE)
def test_standings_a_tournament_and_a_chart_in_chinese_and_japanese(code):
    g = lang(code)
    heading = g.t("{name} — final standings", name="春季赛")
    texts = [
        Standings.record_line(RECORD, g),
        standings_alt(heading, "瑞士制", ROWS, g),
        chart_alt("张三", TRENDS, g),
        chart_alt("张三", {}, g),
    ]
    for text in texts:
        assert text.endswith("。") and not latin_in(text), (text, latin_in(text))
    assert "；" in texts[0] and "；" in texts[1] and "；" in texts[2]
