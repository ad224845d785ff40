"""Typed moves in every language: each legal step of seeded games, typed with the words
the game shows in each of our languages (Dutch, Spanish, Korean, German, Japanese…, and
English), means that very step.

MetrOmania: "doorgetrokken G21 links", "estación G9", "보너스 없음"…; flip-and-write:
"rit C 3", "transbordo A", "무료 Alexanderplatz"; On the Underground: "rood Euston –
Warren Street", "afzien", "ruta 1". Places, arrows, lines, station names and numbers are
the same in every language. The words themselves come from the catalogue, and are the
ones each language's menus show.
"""

from __future__ import annotations

from functools import cache

import pytest

from metrobot.gamelog import self_play
from metrobot.games import get_plugin
from metrobot.games.metromania import notation as metromania_notation
from metrobot.games.underground import words as underground_words
from metrobot.i18n import fold, lang, typed_text
from tests.languages import checked
from tests.typed import forms, metromania_typed

CODES = checked()  # every complete language, one in progress (tests/languages.py)
# The languages whose words are typed at every position of the flip-and-write and On the
# Underground games below in `make test`: those of `checked(costly=True)` (the first eight,
# Polish and Thai); the others at every fifth position, every kind of step still typed in each
# (the tests assert it), and at every position in `make reliability` (METROBOT_RELIABILITY=full:
# every language). The parsing is the game's, the same in every language; each language adds
# its words, and at every position they took 10 s of CPU of `make test`.
EVERY_POSITION = frozenset(checked(costly=True))


def tried(code: str, states: list) -> list:
    """The (index, state) pairs of `states` whose steps are typed in `code`'s words."""
    pairs = list(enumerate(states))
    return pairs if code in EVERY_POSITION else pairs[::5]


def positions(kind: str, players: int, options: dict, seed: int, every: int) -> list:
    """Every `every`-th state of a seeded game, each step of it (a turn's middle included).
    The same game for every language: played once a process (the tests only read the states)."""
    return _positions(kind, players, tuple(sorted(options.items())), seed, every)


@cache
def _positions(kind: str, players: int, options: tuple, seed: int, every: int) -> list:
    plugin = get_plugin(kind)
    log, _ = self_play(plugin, [f"p{i}" for i in range(players)], dict(options), seed, level="greedy")
    states: list = []
    log.replay(each=states.append)
    return [s for i, s in enumerate(states) if i % every == 0 and not plugin.game.is_over(s)]


def legal(kind: str, state) -> list[tuple[str, dict]]:
    game = get_plugin(kind).game
    return [(seat, a) for seat in sorted(game.to_move(state)) for a in game.legal_actions(state, seat)]


@pytest.fixture(scope="module")
def metromania_positions():
    return positions("metromania", 2, {}, 3, 1)


@pytest.mark.parametrize("code", CODES)
def test_metromania_steps_typed_in_every_language(metromania_positions, code):
    plugin = get_plugin("metromania")
    kinds = set()
    for i, state in enumerate(metromania_positions):
        for j, (seat, action) in enumerate(legal("metromania", state)):
            step = metromania_notation.code(state, action)
            typed = metromania_typed(code, step, i + j)
            assert plugin.parse(state, seat, typed) == action, (typed, step)
            kinds.add(step.split(":")[0] if step.count(":") < 3 else "marker")
    assert kinds == {"s", "d", "st", "b", "nb", "marker"}  # every kind of step was typed


@pytest.mark.parametrize("code", [c for c in CODES if c != "en"])
def test_metromania_words_are_the_ones_the_game_shows(code):
    """Each typed word is one the game writes in that language: its menus' labels, the
    line styles and the /station command."""
    language = lang(code)
    shown = {
        "st": [language.t("intermediate station at {place}", place=""), language.p("command name", "station")],
        "b": [language.t("bonus station at {place}", place="")],
        "nb": [language.t("no bonus station")],
        "L": [language.t("{line} → {vertex}, left cell", line="", vertex="")],
        "R": [language.t("{line} → {vertex}, right cell", line="", vertex="")],
    }
    tables = {**metromania_notation._WORDS, **metromania_notation._SIDE_WORDS}
    for key, texts in shown.items():
        typed = forms(code, *tables[key][0])
        labels = [fold(t) for t in texts]
        assert any(fold(f) in label for f in typed for label in labels), (code, key, typed, texts)


def test_metromania_typed_words_in_other_languages_read_as_english():
    N = metromania_notation
    assert N.normalise("halte G9") == N.normalise("estación G9") == N.normalise("역 G9") == ["st", "G9"]
    assert N.normalise("Estacion g9") == ["st", "G9"]  # accents and case do not matter
    assert N.normalise("doorgetrokken G21 links") == N.normalise("실선 G21 왼쪽") == ["s", "G21", "L"]
    assert N.normalise("continua G21 casilla derecha B") == ["s", "G21", "R", "B"]
    assert N.normalise("geen bonus") == N.normalise("sin extra") == N.normalise("보너스 없음") == ["nb"]
    assert N.normalise("bonushalte G9") == N.normalise("보너스 역 G9") == ["b", "G9"]
    # German and Japanese: the glossary's words, kana readings, and as Japanese keyboards type them
    assert N.normalise("Volllinie G21 links") == N.normalise(typed_text("実線G21左")) == ["s", "G21", "L"]
    assert (
        N.normalise("strichlinie g21 rechtes feld") == N.normalise(typed_text("破線 Ｇ２１ みぎ")) == ["d", "G21", "R"]
    )
    assert N.normalise("Haltestelle G9") == N.normalise("駅 G9") == N.normalise(typed_text("えきＧ９")) == ["st", "G9"]
    assert N.normalise("kein Bonus") == N.normalise("ボーナスなし") == N.normalise("ぼーなすなし") == ["nb"]
    assert N.normalise("Bonushaltestelle G9") == N.normalise(typed_text("ボーナス駅G9")) == ["b", "G9"]


# ---------------------------------------------------------------- flip-and-write
def flipwrite_typed(code: str, state, step: str) -> str | None:
    kind, *rest = step.split(":")
    word = {"r": "ride", "t": "transfer", "f": "free"}[kind]
    said = forms(code, None, word)[0]
    if kind == "f":
        return None if rest == ["-"] else f"{said} {state.map.stations[rest[0]].name}"
    return " ".join([said] + rest)


@pytest.mark.parametrize("code", CODES)
def test_flipwrite_decisions_typed_in_every_language(code):
    plugin = get_plugin("flipwrite")
    from metrobot.games.flipwrite import notation

    typed_kinds = set()
    for _, state in tried(code, positions("flipwrite", 2, {"map": "berlin", "special_stations": True}, 5, 1)):
        for seat, action in legal("flipwrite", state):
            typed = flipwrite_typed(code, state, notation.code(state, action))
            if typed is None:
                continue
            assert plugin.parse(state, seat, typed) == action, typed
            typed_kinds.add(action["type"])
    assert typed_kinds == {"ride", "transfer", "free"}


# ---------------------------------------------------------------- On the Underground
def underground_typed(code: str, state, action: dict, pick: int) -> str:
    if action["type"] == "forgo":
        n = action.get("count", 1)
        return forms(code, "menu", "forgo")[0] + ("" if n == 1 else f" {n}")
    if action["type"] == "route":
        return f"{forms(code, 'menu', 'route')[0]} {action['option']}"
    colour = forms(code, None, underground_words.COLOUR_WORDS[action["colour"]])[0]
    a, b = state.board.ends[action["gap"]]
    return f"{colour} {a} - {b}" if pick % 2 else f"{colour} {action['gap']}"


@pytest.mark.parametrize("code", CODES)
def test_underground_steps_typed_in_every_language(code):
    plugin = get_plugin("underground")
    kinds = set()
    for i, state in tried(code, positions("underground", 3, {}, 2, 3)):
        for j, (seat, action) in enumerate(legal("underground", state)):
            typed = underground_typed(code, state, action, i + j)
            assert plugin.parse(state, seat, typed) == action, typed
            kinds.add(action["type"])
    assert {"place", "forgo"} <= kinds


@pytest.mark.parametrize(
    "word, step",
    [
        ("afzien", "forgo"),
        ("Renunciar", "forgo"),
        ("포기", "forgo"),
        ("verzichten", "forgo"),
        ("見送り", "forgo"),
        ("ruta", "route"),
        ("경로", "route"),
        ("Route", "route"),
        ("ルート", "route"),
        ("るーと", "route"),
        ("Euston", None),
    ],
)
def test_underground_step_words(word, step):
    assert underground_words.step_named(word) == step


@pytest.mark.parametrize("code", CODES)
def test_underground_forgo_all_in_every_language(code):
    """'forgo all' forgoes the rest of the turn, with each language's own words for both."""
    plugin = get_plugin("underground")
    state = next(iter(positions("underground", 3, {}, 2, 3)))
    seat = sorted(plugin.game.to_move(state))[0]
    left = 4 - state.turn.step
    expected = {"type": "forgo"} if left == 1 else {"type": "forgo", "count": left}
    forgo = forms(code, "menu", "forgo")[0]
    for everything in forms(code, "typed word", "all, rest"):
        assert plugin.parse(state, seat, f"{forgo} {everything}") == expected
    assert not underground_words.means_all("Euston")


def test_how_typed_words_are_compared():
    """Accents, case and width do not matter, nor katakana against hiragana; kana's voicing
    marks do (か is not が). Typed moves get a space where kana, kanji or Hangul meet letters
    or digits, as a Japanese or Korean keyboard types them without one."""
    assert fold("Estación") == "estacion" and fold("ＳＴＡＴＩＯＮ") == "station" and fold("Straße") == "strasse"
    assert fold("ジッセン") == fold("じっせん") == fold("ｼﾞｯｾﾝ") == "じっせん"
    assert fold("が") != fold("か") and fold("実線") == "実線" and fold("실선") == "실선"
    assert typed_text("実線G9左") == "実線 G9 左" and typed_text("Ｇ９、左") == "G9,左"
    assert typed_text("실선G9 L") == "실선 G9 L" and typed_text("駅Ｇ９") == "駅 G9"
    for unchanged in ("red Euston - Warren Street", "s:G21:L:A", "f:Opéra", "ride C 3 cw"):
        assert typed_text(unchanged) == unchanged


def test_colours_and_card_words_in_german_and_japanese():
    from metrobot.games.flipwrite import notation as flipwrite_notation

    assert underground_words.colour_named("Rot") == underground_words.colour_named("赤") == "red"
    assert underground_words.colour_named("grün") == underground_words.colour_named("緑") == "green"
    assert (
        underground_words.means_all("alle")
        and underground_words.means_all("全部")
        and underground_words.means_all("のこり")
    )
    for word, kind in (
        ("Umsteigen", "transfer"),
        ("乗り換え", "transfer"),
        ("Freifahrt", "free"),
        ("フリー", "free"),
        ("Fahrt", "ride"),
        ("乗車", "ride"),
    ):
        assert flipwrite_notation._says(word, kind, kind[0])
