"""Each language keeps its own words (issue 58, item 5): the glossaries in
`metrobot/i18n/glossary/<code>.toml`, and the commands' and options' translated names, are
enforced by `python -m tools.messages check` (through `check_language`, which
`tests/test_catalogue.py` runs on every language). Here: that the check finds what it is
for — a word the glossary avoids, a term said in another word, an English option name the
language renames — and lets inflected forms and untouched names through; and that every
term of every glossary can apply to some text (a term no English text says checks nothing)."""

from __future__ import annotations

import copy
from functools import cache

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from metrobot.i18n import IN_PROGRESS
from tests.languages import NEW, begun
from tools.glossary import GLOSSARIES, address, glossary, glossary_problems, renamed_commands
from tools.messages import TEMPLATE, TRANSLATED
from tools.translations import LOCALES, read

PASSENGER_TEXT = "No express destination is face up: the passenger skips that leg."
SETTINGS_TEXT = (
    "Say what to change: `clock_hours` (the turn clock), `level` (the automatic player), `language` (what the "
    "game posts in), `tidy` (old turn posts lose their buttons), `hints` (💡 suggestions; the game is then not "
    "rated) or `takeback_minutes` (how long a move may be taken back; 0: never)."
)


@pytest.fixture(scope="module")
def template() -> Catalog:
    with TEMPLATE.open("rb") as f:
        return read_po(f)


@cache
def _real(code: str) -> Catalog:
    """The language's real catalogue, read once a process (the tests change only copies)."""
    return read(LOCALES / f"{code}.po", code)


def _catalogue(code: str, **changed: str) -> Catalog:
    """The language's real catalogue with some translations replaced (English -> new text)."""
    cat = copy.deepcopy(_real(code))
    for english, text in changed.items():
        message = cat.get(english)
        assert message is not None and isinstance(message.string, str), english
        message.string = text
    return cat


def _about(problems: list[str], english: str) -> list[str]:
    return [p for p in problems if p.split(": ", 1)[1].startswith(repr(english))]


def _with(english: str, text: str) -> dict[str, str]:
    return {english: text}  # (English texts are no Python names: passed as **mapping)


def test_every_language_has_a_glossary_and_the_catalogues_keep_them(template):
    for code in TRANSLATED:
        assert (GLOSSARIES / f"{code}.toml").exists(), code
        assert glossary(code), code
    # (a language in progress is read only once it has some translation: an empty one keeps all)
    for code in [c for c in TRANSLATED if c not in IN_PROGRESS] + begun():
        assert glossary_problems(code, _real(code), template) == [], code


def test_a_language_in_progress_has_its_address_and_titles_and_may_leave_words_open(template, tmp_path):
    """Each new language's glossary says how it addresses the reader and what the games are
    called; a language in progress may leave its interface words open slots (checking nothing),
    which the check asks for once it is complete (shown on a glossary with one open slot: every
    language the bot has is complete since 2026-11-27)."""
    for code in NEW:
        assert address(code), code
        titles = {term.en[0]: term for term in glossary(code) if term.en[0] in ("MetrOmania", "On the Underground")}
        assert len(titles) == 2 and not any(t.open for t in titles.values()), code
    (tmp_path / "pl.toml").write_text(
        'address = "ty"\n\n[[term]]\nen = ["MetrOmania"]\nuse = ["MetrOmania"]\ncase = true\nsource = "ours"\n\n'
        '[[term]]\nen = ["passenger", "passengers"]\nuse = []\nsource = ""\n',
        encoding="utf-8",
    )
    # a translation that renders the title in other words is reported already
    cat = Catalog(locale="pl")
    cat.add("MetrOmania board.", "Metromania.")
    (problem,) = glossary_problems("pl", cat, template, tmp_path, in_progress=True)
    assert "'MetrOmania'" in problem
    # and, were the language complete, its open slot would be reported
    slots = [
        p
        for p in glossary_problems("pl", Catalog(locale="pl"), template, tmp_path, in_progress=False)
        if "no word" in p
    ]
    assert len(slots) == 1


def test_a_word_the_glossary_avoids_is_reported(template):
    good = _real("de").get(PASSENGER_TEXT).string
    assert "Passagier" in good
    cat = _catalogue("de", **_with(PASSENGER_TEXT, good.replace("Passagier", "Fahrgast")))
    (problem,) = _about(glossary_problems("de", cat, template), PASSENGER_TEXT)
    assert "'Fahrgast'" in problem and "'Passagier'" in problem
    # French and Dutch: the same piece, their own words
    for code, wrong in (("fr", "Le passager saute cette étape."), ("nl", "De passagier slaat die etappe over.")):
        cat = _catalogue(code, **_with(PASSENGER_TEXT, wrong))
        assert len(_about(glossary_problems(code, cat, template), PASSENGER_TEXT)) == 1, code


def test_a_term_said_in_another_word_is_reported_and_its_inflected_forms_are_not(template):
    # The German plural, and Japanese with a particle, are the glossary's words
    cat = _catalogue("de", **_with(PASSENGER_TEXT, "Keine Expresskarte liegt offen: die Passagiere lassen sie aus."))
    assert _about(glossary_problems("de", cat, template), PASSENGER_TEXT) == []
    title = "MetrOmania board."
    cat = _catalogue("ja", **_with(title, "メトロマニアのボード。"))
    assert _about(glossary_problems("ja", cat, template), title) == []
    # The game's name left in Latin letters in Korean and Japanese
    for code, wrong in (("ko", "MetrOmania 보드."), ("ja", "MetrOmaniaのボード。")):
        cat = _catalogue(code, **_with(title, wrong))
        (problem,) = _about(glossary_problems(code, cat, template), title)
        assert "'MetrOmania'" in problem, problem
    # A second verb for taking a move back (Spanish says deshacer)
    back = "Only the person who made a move can take it back."
    cat = _catalogue("es", **_with(back, "Solo quien hizo una jugada puede retirarla."))
    (problem,) = _about(glossary_problems("es", cat, template), back)
    assert "'deshac'" in problem


def test_an_english_option_name_the_language_renames_is_reported(template):
    for code in ("ko", "nl", "es"):
        cat = _real(code)
        renamed = renamed_commands(cat)
        assert renamed["clock_hours"] != "clock_hours" and renamed["takeback_minutes"] != "takeback_minutes"
        good = cat.get(SETTINGS_TEXT).string
        assert f"`{renamed['clock_hours']}`" in good
        cat = _catalogue(code, **_with(SETTINGS_TEXT, good.replace(renamed["clock_hours"], "clock_hours")))
        (problem,) = _about(glossary_problems(code, cat, template), SETTINGS_TEXT)
        assert "'clock_hours'" in problem and repr(renamed["clock_hours"]) in problem, problem
    # A command named in English inside a sentence: `/game follow` where Korean says /게임 팔로우
    follow = "You already follow this game. {command} stops it."  # (a translator who wrote the command)
    cat = _catalogue("ko", **_with(follow, "이미 이 게임을 팔로우하고 있어요. `/game 언팔로우`로 그만둘 수 있어요."))
    (problem,) = _about(glossary_problems("ko", cat, template), follow)
    assert "'game'" in problem and "'게임'" in problem


def test_a_name_the_language_keeps_and_a_word_that_is_no_name_pass(template):
    # Portuguese keeps the option `bots` as it is in English: naming it is right
    cat = _real("pt_BR")
    assert "bots" not in renamed_commands(cat)
    # "language" is an option, but a sentence may say the word (only `language`, /language or
    # language: name the option)
    text = "Turn DMs, reminders, quiet hours, your language, colour vision (none given: show them)"
    cat = _catalogue("nl", **_with(text, "Beurt-DM's, herinneringen, stille uren, je taal (language), kleurenzien"))
    assert _about(glossary_problems("nl", cat, template), text) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_term_can_apply_and_its_exceptions_are_texts(template, code):
    english = [m.id if isinstance(m.id, str) else " ".join(m.id) for m in template if m.id]
    singular = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    for term in glossary(code):
        assert term.source or (term.open and code in IN_PROGRESS), term
        assert term.use or term.avoid or code in IN_PROGRESS, term
        if term.en:
            assert any(term.says(text) for text in english), f"{code}: no English text says {term.en}"
        assert term.exceptions <= singular, f"{code}: {sorted(term.exceptions - singular)} are no texts"


# The interface's words, the form of address, the register, French typography and the
# commands' accents (issue 74): one text changed to what a translator wrote last round, and
# the check names it. (language, English text, context, what it was changed to, what the report says)
DRIFT = [
    ("de", "Board", "button", "Spielbrett", "'Spielbrett'"),
    ("ja", "Latest board: {board}", None, "最新の盤面：{board}", "'盤面'"),
    ("pt_BR", "Turn {turn}", None, "Sua vez {turn}", "'Sua vez {'"),
    ("ko", "A tournament plays 1 to {most} rounds.", None, "토너먼트는 1~{most} 라운드로 진행해요.", "'토너먼트'"),
    (
        "de",
        "Zoomed in: tap the step you want.",
        None,
        "Hineingezoomt: ein Tipp auf den Schritt, den du willst.",
        "'tap'",
    ),
    ("ja", "Bank clock: {terms}.", None, "持ち時間：{terms}。", "'bank clock'"),
    ("pt_BR", "Drop out", "button", "Desistir", "'drop out'"),
    ("ko", "You left the queue.", None, "대기열에서 나갔습니다.", "해요체"),
    (
        "fr",
        "You did not play the {game} challenge of {day}.",
        None,
        "Vous n’avez pas joué le défi de {game} du {day}.",
        "tu",
    ),
    ("ko", "The game waits for you only: there is nobody to nudge.", None, "게임이 당신만 기다리고 있어요.", "당신"),
    ("fr", "Daily challenge table: not posted.", None, "Classement du défi du jour : non publié.", "no-break"),
    (
        "fr",
        "Only finished games can be replayed (until then the board shows the game; secrets stay secret).",
        None,
        "Seules les parties terminées peuvent être revues (jusque-là, le plateau montre la partie ; les secrets restent secrets).".replace(
            " ;", "\u00a0;"
        ),
        None,
    ),  # (the same text written right: no report)
    (
        "fr",
        "Here I show only your own profile; someone else's is shown in a server you share (`/profile` there).",
        None,
        "Ici, je ne montre que ton propre profil\u00a0; celui d'autres personnes se voit sur un serveur que vous partagez.",
        "’",
    ),
    ("fr", "daily", "command name", "defi", "'défi'"),
    ("pt_BR", "review", "command name", "revisao", "'revisão'"),
    ("es", "finish_cap", "command name", "límite_terminadas", "plain"),
    # (a command written out under a name the language does not have, or no longer has)
    (
        "pt_BR",
        "Games are played in a server's channel where metrobot is. Here you can use `/games`, `/profile`, "
        "`/game rules`, `/me`, `/daily` and `/privacy`.",
        None,
        "Aqui você pode usar `/partidas`, `/perfil`, `/partida regras`, `/eu`, `/diario` e `/privacidade`.",
        "`/diario`",
    ),
]


@pytest.mark.parametrize(("code", "english", "context", "wrong", "said"), DRIFT)
def test_a_text_changed_to_a_word_the_glossary_avoids_fails_the_check(template, code, english, context, wrong, said):
    cat = copy.deepcopy(_real(code))
    message = cat.get(english, context=context)
    assert message is not None, english
    message.string = (wrong,) if isinstance(message.string, tuple) else wrong
    problems = [p for p in glossary_problems(code, cat, template) if repr(english) in p]
    if said is None:
        assert problems == []
    else:
        assert len(problems) == 1 and said in problems[0], problems
