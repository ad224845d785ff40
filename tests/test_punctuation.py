"""Texts the code puts together from translated pieces (alt texts, text boards, a profile's
standings line, a tournament's and a rating chart's alt text) are punctuated as their language
punctuates: in Chinese and Japanese a sentence ends with "。" and the next follows with no space,
clauses are separated by "；", the phrases of one sentence by "，" (Japanese "、"), the items of a
list (names, scores) by the enumeration comma "、", a label from what it labels by "：", a note
on a piece is in full-width "（…）" with no space before it — never an ASCII "." , "; ", ", ", ": "
or " (…)" written in the code (`Lang.stop`, `.semicolon`, `.comma`, `.enumeration_comma`,
`.colon`, `.bracketed`, `.ended`, `.clauses`, `.enumerated`, `.sentences`). English reads as
before."""

from __future__ import annotations

import html
import random
import re
from types import SimpleNamespace

import aiohttp_jinja2
import pytest

from metrobot.games import get_plugin
from metrobot.games.alttext import plain_alt_text
from metrobot.games.flipwrite.textboard import mark_words
from metrobot.games.protocol import SaidItems, SaidList
from metrobot.i18n import lang
from metrobot.i18n.words import people
from metrobot.pages.webindex import rating_alt
from metrobot.service import fixed_seeds
from metrobot.service.pictures import chart_alt
from metrobot.service.turnclock import banks_line
from metrobot.standings.standings import Standings, _line
from metrobot.storage import Database
from metrobot.storage.history import Finished, Record
from metrobot.storage.rows import GameRow, Seat
from metrobot.tournaments.model import Round, Rules, Standing
from metrobot.tournaments.reports import standings_alt
from metrobot.tournaments.texts import number, standings_lines
from metrobot.tournaments.webpage import Line, TournamentPage, TournamentPages, picture_alt
from metrobot.web import make_app
from metrobot.web.reader import helpers
from metrobot.wiring import GameService
from tests.web.world import ANN, BOB, GUILD, play_turns

WIDE = ["zh_CN", "zh_TW", "ja"]
_HAN_KANA = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e"
# Latin punctuation the code wrote around a Chinese or Japanese text: "; ", ", ", ": ", a "." after
# a han or kana character or before one, a "." ending a line, a space after a full-width stop,
# comma or colon, a Latin parenthesis opened after a han or kana character or around one ("St.
# Paul's (普通)", "**A** (住宅区)"). (A station named "St. Paul's" keeps its own ". ": a capital letter follows. No
# name, station or map of these games holds ", " or ": ", and the catalogues write none in these
# languages but in typed words, which these texts do not show. Latin parentheses stay around Latin
# alone: a flip-and-write line's letter and its map's name, "线路 A (U1) 换乘".)
_HAN_KANA_WORDS = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
LATIN = re.compile(
    rf"; |, |: |(?<=[{_HAN_KANA}])\.|\. ?(?=[{_HAN_KANA}])|\.$|[。；，、：] "
    rf"|(?<=[{_HAN_KANA_WORDS}]) ?\(|\((?=[{_HAN_KANA_WORDS}])|(?<=[{_HAN_KANA_WORDS}])\)",
    re.MULTILINE,
)
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


def test_each_language_s_commas_and_colon():
    codes = ("zh_CN", "zh_TW", "ja", "hi", "ko", "th", "en")
    assert [(lang(c).comma, lang(c).enumeration_comma, lang(c).colon) for c in codes] == [
        ("，", "、", "："),  # Chinese: "，" between phrases, "、" between the items of a list
        ("，", "、", "："),
        ("、", "、", "："),  # Japanese: "、" for both
        (", ", ", ", ": "),  # Hindi keeps Latin commas
        (", ", ", ", ": "),
        (", ", ", ", ": "),
        (", ", ", ", ": "),
    ]
    assert lang("zh_CN").enumerated(["Ann 7", "", "Bob 6"]) == "Ann 7、Bob 6"
    assert lang("ja").enumerated(["Ann 7", "Bob 6"]) == "Ann 7、Bob 6"
    assert lang("en").enumerated(["Ann 7", "", "Bob 6"]) == "Ann 7, Bob 6"
    assert people(["1", "2"], separator=lang("zh_TW").enumeration_comma).count("、") == 1


def test_each_language_s_parentheses():
    codes = ("zh_CN", "zh_TW", "ja", "hi", "ko", "th", "en")
    assert [lang(c).bracketed("x") for c in codes] == ["（x）", "（x）", "（x）", " (x)", " (x)", " (x)", " (x)"]
    assert lang("zh_CN").bracketed("") == "" and lang("en").bracketed("") == ""
    assert "St. Paul's" + lang("zh_CN").bracketed("普通") == "St. Paul's（普通）"


def test_a_catalogue_note_in_parentheses_takes_no_space_before_a_full_width_one():
    """Notes whose parentheses are the catalogue's ("(host)", "(you)", "(your bank: …)", "(via …)")
    follow what comes before them with a space, none before "（"."""
    for code, host in (
        ("en", "Ann (host)"),
        ("zh_CN", "Ann（房主）"),
        ("zh_TW", "Ann（房主）"),
        ("ja", "Ann（ホスト）"),
    ):
        g = lang(code)
        assert "Ann" + g.noted(g.t("(host)")) == host
        assert "Ann" + g.noted(g.t("(you)")) == host.replace(g.t("(host)").strip(), g.t("(you)").strip())
    assert lang("en").noted("") == "" and lang("zh_CN").noted("") == ""


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


def _noted(kind: str, options: dict, code: str) -> str:
    """What a seeded game of three says with notes in parentheses, after 30 steps: the mover's
    choices (a placement's kind and points, a marker dropped), the hand, the board's alt text and
    text board (a card's kind after its station, a marker's holder, a line's state)."""
    g = lang(code)
    plugin, state = _played(kind, options, 30)
    seat = sorted(plugin.game.to_move(state))[0]
    view = plugin.game.view(state, "a")
    return "\n".join(
        [
            *(c.label for c in plugin.choices(state, seat, g)),
            plugin.hand_text(view, ["a"], g) or "",
            plugin.alt_text(view, "a", NAMES, g),
            *plugin.text_board(view, "a", NAMES, g),
        ]
    )


@pytest.mark.parametrize("kind, options", GAMES, ids=[g[0] for g in GAMES])
def test_a_game_s_notes_in_parentheses_in_chinese_and_japanese(kind, options):
    english = _noted(kind, options, "en")
    assert " (" in english and "（" not in english  # (as before: a space, then Latin parentheses)
    for code in WIDE:
        noted = _noted(kind, options, code)
        assert not latin_in(noted), (code, latin_in(noted))
        if kind != "flipwrite":  # (its notes are codes and map names, "A (U1)": Latin parentheses)
            assert "（" in noted and " （" not in noted, code


def test_notes_in_parentheses_read_as_their_language_writes_them():
    underground = {code: _noted("underground", {}, code) for code in ("en", "zh_CN", "ja")}
    assert "red Westbourne Park–Paddington (extend, +1)" in underground["en"]
    assert "红 Westbourne Park–Paddington（延伸，+1）" in underground["zh_CN"]
    assert "赤 Westbourne Park–Paddington（延長、+1）" in underground["ja"]
    assert "St. Paul's (standard)" in underground["en"] and "St. Paul's（普通）" in underground["zh_CN"]
    metromania = {code: _noted("metromania", {}, code) for code in ("en", "zh_CN", "zh_TW", "ja")}
    assert "**E** (commercial), **F** (entertainment)" in metromania["en"]
    assert "**E**（商业区）、**F**（娱乐区）" in metromania["zh_CN"]
    assert "**E**（商業區）、**F**（娛樂區）" in metromania["zh_TW"]
    assert "**E**（商業）、**F**（娯楽）" in metromania["ja"]
    assert "B entertainment (Ann)" in metromania["en"] and "B 娯楽（Ann）" in metromania["ja"]
    # (a special station's note: its option is off in the games above)
    assert [mark_words(None, True, lang(code)) for code in ("en", "zh_CN", "ja")] == [
        "empty (special station)",
        "空（特殊车站）",
        "空き（特別駅）",
    ]


def _told(kind: str, options: dict, code: str) -> list[str]:
    """Everything a seeded game of three composes in one language: each step's narration, and
    after 25 steps the board's alt text, a player's brief and hand; at the end, the alt texts
    and the plain alt text of a game with none of its own."""
    g = lang(code)
    plugin = get_plugin(kind)
    state = plugin.new_game(list(NAMES), options, seed=7)
    rnd = random.Random(7)
    told: list[str] = []
    for step in range(1000):
        movers = sorted(plugin.game.to_move(state))
        if not movers:
            break
        state, events = plugin.game.apply(state, movers[0], rnd.choice(plugin.game.legal_actions(state, movers[0])))
        told += plugin.narrate(state, events, lambda s: NAMES.get(s, s), g)
        if step == 25:
            view = plugin.game.view(state, "a")
            told += [plugin.board_brief(state, "a", g) or "", plugin.hand_text(view, ["a"], g) or ""]
    view = plugin.game.view(state, None)
    told += [plugin.alt_text(view, None, NAMES, g, picture=p) for p in ("board", "final:summary")]
    told.append(plain_alt_text(plugin.title, view, NAMES, g, waiting=["a", "b"]))
    told.append(plugin.option_summary(options, g))
    return [t for t in told if t]


@pytest.mark.parametrize("kind, options", GAMES, ids=[g[0] for g in GAMES])
def test_a_game_s_narration_brief_and_hand_in_chinese_and_japanese(kind, options):
    english = "\n".join(_told(kind, options, "en"))
    assert ", " in english and ": " in english  # (as before: Latin commas and colons)
    for code in WIDE:
        told = "\n".join(_told(kind, options, code))
        assert not latin_in(told), (code, latin_in(told))
        assert "、" in told and "：" in told


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


FINISHED = Finished(12, "metromania", "1", None, 0.0, [("1", "Ann", 7, True), ("2", "Bob", 6, False)])
ROW = GameRow(
    1, "c", None, "underground", "active", "1", {}, 1, [Seat("1", "Ann"), Seat("2", "Bob")], 4, None, 1, 0, 86400,
    None, False, None, 0.0, 0.0, waiting=["1"],
)  # fmt: skip
BANKS = {"1": 90000.0, "2": 200000.0}
TABLE = [Standing("1", 1, 3.0, played=3, byes=1, skipped=1), Standing("2", 2, 1.0, played=2, dropped=True, skipped=2)]
SWISS = Rules("swiss", 4, 2, 4, 3)


def _lists(code: str) -> list[str]:
    """Lists the code composes outside a game: a finished game's line in the standings, the bank
    clock's line, a tournament's standings, a list said with its "and" and one without."""
    g = lang(code)
    return [
        _line(FINISHED, g).rsplit(" · ", 1)[1],  # (the date before it is a part, read by the medium)
        banks_line(ROW, BANKS, g, {"1": "Ann", "2": "Bob"}.__getitem__),
        *(line.rsplit("**", 1)[1] for line in standings_lines(TABLE, {}, g, SWISS)),  # (after the name)
        SaidList(["Euston", "Bank", "Angel"]).in_language(g),
        SaidItems(["Euston–Bank", "Angel–Old Street"]).in_language(g),  # (a refusal's list, made before its reader)
    ]


def test_lists_in_english_read_as_before():
    assert _lists("en") == [
        "🏆 Ann 7, Bob 6",
        "Banks: Ann 25 hours ⏳, Bob 2 days",
        " — 3 pts · 3 games · 1 bye, 1 skipped",
        " — 1 pt · 2 games · 2 skipped, dropped",
        "Euston, Bank and Angel",
        "Euston–Bank, Angel–Old Street",
    ]


def test_lists_in_chinese_and_japanese_take_the_enumeration_comma():
    assert _lists("zh_CN") == [
        "🏆 Ann 7、Bob 6",
        "时间银行：Ann 25小时 ⏳、Bob 2天",
        "——3 分 · 3 局 · 1 次轮空、缺席 1 局",
        "——1 分 · 2 局 · 缺席 2 局、已退出",
        "Euston、Bank和Angel",
        "Euston–Bank、Angel–Old Street",
    ]
    assert _lists("ja")[:2] == ["🏆 Ann 7、Bob 6", "タイムバンク：Ann 25 時間 ⏳、Bob 2 日"]
    for code in WIDE:
        assert not latin_in("\n".join(_lists(code))), (code, latin_in("\n".join(_lists(code))))
    # a record's clauses are the phrases of one sentence: "，" in Chinese, "、" in Japanese
    assert "12 局，胜 5 局，平均得分 23.4；" in Standings.record_line(RECORD, lang("zh_CN"))
    assert "12 ゲーム、5 勝、平均得点 23.4；" in Standings.record_line(RECORD, lang("ja"))


def test_a_tournament_line_counts_its_points_in_the_language_s_plural():
    def points(code: str) -> list[str]:
        table = [Standing(str(i), i, x, played=2) for i, x in enumerate((1.0, 2.5, 0.0, 3.0), 1)]
        return [line.split("— ", 1)[1].split(" ·", 1)[0] for line in standings_lines(table, {}, lang(code), SWISS)]

    assert points("en") == ["1 pt", "2.5 pts", "0 pts", "3 pts"]
    assert points("fr") == ["1 pt", "2,5 pts", "0 pt", "3 pts"]  # (French counts 0 as one)
    assert points("nl") == ["1 pt", "2,5 ptn", "0 ptn", "3 ptn"]
    assert points("es") == ["1 pto", "2,5 ptos", "0 ptos", "3 ptos"]
    assert points("de") == ["1 Pkt.", "2,5 Pkt.", "0 Pkt.", "3 Pkt."]


def _tournament_page(code: str) -> tuple[str, str]:
    """A finished tournament's web page as it renders in one language: the standings picture's alt
    text and the line naming a round's byes (two people sat it out)."""
    g = lang(code)
    lines = [
        Line(rank, name, number(points, g), ["", "", ""], 2, 0, 0, False)
        for rank, name, points in ((1, "Ann", 2.5), (2, "Bob", 2.0), (3, "Cat", 1.0), (4, "Dan", 0.0))
    ]
    snap = SimpleNamespace(rounds=[], row=SimpleNamespace(rules={}, status="finished"))
    played = TournamentPages._round_view(snap, Round(2, (), ("d", "e")), {"d": "Dan", "e": "Eve"}, {}, {}, b"", g)  # type: ignore[arg-type]
    page = TournamentPage(1, "Spring Cup", "MetrOmania", "Swiss", "", "finished", "", 2, 2, lines, [played])
    page.picture, page.picture_alt = "standings.png", picture_alt(page.name, lines, g)
    template = aiohttp_jinja2.get_env(make_app(None)).get_template("tournament.html")  # type: ignore[arg-type]
    text = html.unescape(template.render(helpers(g) | {"root": "", "page": page}))
    alt = re.search(r'<img class="chart" src="standings.png" alt="([^"]*)">', text)
    byes = re.search(r"<p>([^<]*Dan[^<]*)</p>", text)
    assert alt and byes, text
    return alt.group(1), byes.group(1)


def test_a_tournament_page_s_picture_and_byes_in_english_read_as_before():
    assert _tournament_page("en") == (
        "Spring Cup — final standings: 1. Ann (2.5), 2. Bob (2), 3. Cat (1)",
        "Bye: Dan, Eve",
    )


def test_a_tournament_page_s_picture_and_byes_in_chinese_and_japanese():
    """The page's alt text and byes are put together in Python with the reader's colon, list comma
    and parentheses, never the Latin ones a template would write for everyone."""
    assert _tournament_page("zh_CN") == (
        "Spring Cup——最终排名：1. Ann（2.5）、2. Bob（2）、3. Cat（1）",
        "轮空：Dan、Eve",
    )
    assert _tournament_page("zh_TW") == (
        "Spring Cup——最終排名：1. Ann（2.5）、2. Bob（2）、3. Cat（1）",
        "輪空：Dan、Eve",
    )
    assert _tournament_page("ja")[0] == "Spring Cup — 最終順位：1. Ann（2.5）、2. Bob（2）、3. Cat（1）"
    for code in WIDE:
        told = "\n".join(_tournament_page(code))
        assert not latin_in(told), (code, latin_in(told))


def test_a_person_page_s_chart_in_words():
    """The rating chart's alt text on a person's page: the reader's colon and list comma after each
    game kind, put together in Python like the tournament page's."""
    assert rating_alt("Ann", TRENDS, lang("en")) == (
        "Ann: rating over time — MetrOmania: 20.0, 22.5, 24.0 — Metro flip-and-write: 1.0, 2.0"
    )
    assert (
        rating_alt("张三", {"MetrOmania": [20.0, 22.5]}, lang("zh_CN")) == "张三：等级分走势 — MetrOmania：20.0、22.5"
    )
    for code in WIDE:
        alt = rating_alt("张三", TRENDS, lang(code))
        assert not latin_in(alt) and alt.count("：") == 3, (code, alt)


async def test_a_game_page_in_chinese_and_japanese(tmp_path):
    """A game's web page: the board's alt text and whose turn it is follow each other as two
    sentences (no space after "。"), and who won is said with the reader's list comma."""
    db = await Database(tmp_path / "page.sqlite3").open()
    service = GameService(db, seeds=fixed_seeds(8), images=False)
    channel = "910000000000000002"
    try:
        await service.lobby.new_game(channel, GUILD, ANN, "Ann", "metromania", {}, 2)
        await service.lobby.join(channel, BOB, "Bob")
        await service.lobby.start(channel, ANN)
        await play_turns(service, channel, 2)
        row = await db.open_game(channel)
        english = await service.web_game.game_page(row, lang("en"))
        assert english.prompt and english.description.endswith(english.prompt.replace("**", "")) and not english.ended
        for code in WIDE:
            page = await service.web_game.game_page(row, lang(code))
            assert page.prompt and "。 " not in page.description, (code, page.description)
            assert not latin_in(page.description), (code, latin_in(page.description))
        await play_turns(service, channel, None)
        row = await db.game(row.id)
        english = await service.web_game.game_page(row, lang("en"))
        assert english.ended in ("The game is over: Ann won.", "The game is over: Bob won.")
        for code in WIDE:
            page = await service.web_game.game_page(row, lang(code))
            assert page.ended.endswith("。") and page.winners[0] in page.ended, (code, page.ended)
            assert not latin_in(page.ended), (code, page.ended)
    finally:
        service.painter.close()
        await db.close()
