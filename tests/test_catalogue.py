"""The message catalogues: in step with the code, complete, and with intact placeholders.

What a user can read is found by `tools/messages.py` (every text handed to the catalogue,
and the slash commands' names, descriptions and choices). These tests fail when code gives
the catalogue a text put together in code (which no translator would see whole), when the
committed template lags behind the code (run `python -m tools.messages extract`), and when
a language misses a text, marks one fuzzy, or breaks a `{placeholder}` or a command name.
Texts that bypass the catalogue altogether are caught by the pseudo-language tests
(tests/e2e/test_languages.py, tests/service/test_service_languages.py, tests/render/test_image_texts.py).
"""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from metrobot.i18n import IN_PROGRESS, LANGUAGES, OFFERED, PSEUDO, code_of, known, lang
from tools import messages


@pytest.fixture(scope="module")
def found():
    return messages.scan()


def test_every_catalogue_call_is_given_a_whole_text(found):
    assert not found.problems, "\n".join(found.problems)


def test_the_template_is_up_to_date(found):
    with messages.TEMPLATE.open("rb") as f:
        template = read_po(f)
    committed = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    assert set(found.messages) - committed == set(), "new texts: run `python -m tools.messages extract`"
    assert committed - set(found.messages) == set(), "texts no longer used: run `python -m tools.messages extract`"


# A language still being translated fails until it is complete: then this test passes
# unexpectedly (strict), which says to take it out of `IN_PROGRESS` and offer it.
@pytest.mark.parametrize(
    "code",
    [
        pytest.param(code, marks=pytest.mark.xfail(code in IN_PROGRESS, strict=True, reason="being translated"))
        for code in messages.TRANSLATED
    ],
)
def test_every_language_has_every_text(found, code):
    problems = messages.check_language(code, messages.template(found))
    assert not problems, "\n".join(problems[:40]) + (f"\n… and {len(problems) - 40} more" if len(problems) > 40 else "")


def test_every_english_text_can_be_filled_in(found):
    """Read as `str.format` reads it: no stray `{` or `}`, every place named."""
    assert messages.check_sources(messages.template(found)) == []


def test_every_language_we_offer_has_a_catalogue():
    assert set(LANGUAGES) == {"en", *messages.TRANSLATED}
    assert all((messages.LOCALES / f"{code}.po").exists() for code in messages.TRANSLATED)
    assert set(OFFERED) == set(LANGUAGES) - IN_PROGRESS and set(messages.FINISHED) == set(OFFERED) - {"en"}


@pytest.mark.parametrize("code", messages.FINISHED)
def test_a_translation_is_used_and_filled_in(code):
    language = lang(code)
    said = language.t("You joined the game.")
    assert said and said != "You joined the game."
    assert lang(f"{code}-XX").code == code and lang("tr").code == "en"  # regional and unknown locales


@pytest.mark.parametrize(
    "locale, code",
    [
        ("pt-BR", "pt_BR"),
        ("pt_BR", "pt_BR"),
        ("PT-br", "pt_BR"),
        ("pt", "pt_BR"),
        ("pt-PT", "pt_BR"),
        ("ja", "ja"),
        ("de-AT", "de"),
        ("fr-CA", "fr"),
        ("es-419", "es"),
        ("zh-CN", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_and_our_codes(locale, code):
    assert code_of(locale) == code
    assert known("pt-BR") == known("pt_br") == "pt_BR" and known("ja") == "ja" and known("pt") is None


def test_the_pseudo_language_marks_pieces_and_values_of_catalogue_texts_only():
    assert PSEUDO.t("Scores: {scores}", scores="Ann 3") == "⟦Scores: ⟧⟪Ann 3⟫"
    # a text the catalogue lacks reaches no translator: it comes out unmarked, and is caught
    assert PSEUDO.t("A text nobody extracted, {who}.", who="Ann") == "A text nobody extracted, Ann."


def test_only_files_no_player_reads_are_left_out_of_the_scan():
    import fnmatch

    files = [
        p.relative_to(messages.ROOT).as_posix()
        for root in messages.SOURCES
        for p in (messages.ROOT / root).rglob("*.py")
    ]
    for pattern, why in messages.ENGLISH_ONLY.items():
        assert why and any(fnmatch.fnmatch(f, pattern) for f in files), pattern  # no stale or unexplained entry
    player_facing = [
        f
        for f in files
        if f.startswith("metrobot/games/")
        and f.rsplit("/", 1)[-1]
        in ("board.py", "mapdata.py", "markers.py", "engine.py", "rules.py", "notation.py", "plugin.py")
    ]
    assert player_facing
    for f in player_facing:
        assert not any(fnmatch.fnmatch(f, pattern) for pattern in messages.ENGLISH_ONLY), f


def test_a_map_error_a_player_meets_is_translated():
    from metrobot.games import BadInput, get_plugin

    plugin = get_plugin("underground")
    state = plugin.game.new_game(["a", "b", "c"], {}, 1)
    seat = sorted(plugin.game.to_move(state))[0]
    with pytest.raises(BadInput) as err:
        plugin.game.apply(state, seat, plugin.parse(state, seat, "p:red:999"))
    assert err.value.in_language(PSEUDO).startswith("⟦there is no gap ⟧⟪999⟫")
    assert err.value.in_language(lang("nl")) != str(err.value)
