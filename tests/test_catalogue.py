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
from tests.languages import begun, checked
from tools import messages
from tools.translations import NOT_TRANSLATED


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
# unexpectedly (strict), which says to take it out of `IN_PROGRESS` and offer it. (Of the 22 in
# progress, `make test` runs one, `make reliability` all: tests/languages.py.)
@pytest.mark.parametrize(
    "code",
    [
        pytest.param(code, marks=pytest.mark.xfail(code in IN_PROGRESS, strict=True, reason="being translated"))
        for code in checked(list(messages.TRANSLATED))
    ],
)
def test_every_language_has_every_text(found, code):
    problems = messages.check_language(code, messages.template(found))
    assert not problems, "\n".join(problems[:40]) + (f"\n… and {len(problems) - 40} more" if len(problems) > 40 else "")


@pytest.mark.parametrize("code", begun())
def test_what_a_language_in_progress_has_translated_is_right(found, code):
    """Places, plural forms, command names and the glossary hold for every text translated so
    far (only a language with some translation is read: an untouched one has nothing to get wrong)."""
    problems = [p for p in messages.check_language(code, messages.template(found)) if NOT_TRANSLATED not in p]
    assert not problems, "\n".join(problems[:40])


def test_every_language_has_cldr_plural_forms():
    """Each header (every language, in progress or done) says as many plural forms as CLDR gives
    the language (Babel's rules): three in Polish, Russian, Ukrainian, Czech, Croatian, Lithuanian
    and Romanian, one in Thai, Vietnamese, Chinese, Turkish and Hungarian; and a form beyond them
    is reported, not dropped unsaid."""
    from babel.messages.catalog import Catalog

    from tools.translations import plural_problems

    counts = {}
    for code in sorted(messages.TRANSLATED):  # (the new languages, complete or in progress)
        source = (messages.LOCALES / f"{code}.po").read_bytes()
        header = source.split(b"\n\n", 1)[0]
        counts[code] = int(header.split(b"nplurals=")[1].split(b";")[0])
        assert counts[code] == Catalog(locale=code).num_plurals, code
    # (those still in progress: a finished language's header is checked with the rest of it)
    assert {c for c, n in counts.items() if n == 3} >= {"pl", "ru", "uk", "cs", "lt"} & IN_PROGRESS
    assert {c for c, n in counts.items() if n == 1} >= {"th", "vi", "zh_CN", "zh_TW"} & IN_PROGRESS
    # a Polish catalogue that says two forms, or writes a fourth, is reported
    cat = Catalog(locale="pl")
    cat._num_plurals = 2  # (as a header copied from a two-form language would say)
    assert "CLDR 3" in plural_problems("pl", b"", cat)[0]
    assert "msgstr[3]" in plural_problems("pl", b'msgstr[3] "x"\n', Catalog(locale="pl"))[0]


@pytest.mark.parametrize("code", sorted(IN_PROGRESS))
def test_a_new_language_writes_numbers_and_dates_its_own_way(code):
    """Numbers (`lang.num`) and dates go through Babel in every new locale: its decimal sign
    and digits grouping, and its month names."""
    from datetime import date

    from babel import Locale
    from babel.dates import format_date
    from babel.numbers import get_decimal_symbol, get_group_symbol

    language = lang(code)
    locale = Locale.parse(code)
    decimal, group = get_decimal_symbol(locale), get_group_symbol(locale)
    assert language.num(1234.5, 1) == f"1{group}234{decimal}5" or (
        code in ("pl", "es") and language.num(1234.5, 1) == f"1234{decimal}5"  # (no grouping of four digits)
    ), language.num(1234.5, 1)
    assert language.num(2.5, 1, trim=True) == f"2{decimal}5" and language.num(2.0, 1, trim=True) == "2"
    said = format_date(date(2026, 3, 9), format="long", locale=locale)
    assert said != format_date(date(2026, 3, 9), format="long", locale="en") and "9" in said


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
    assert lang(f"{code}-XX").code == code and lang("ar").code == "en"  # regional and unknown locales


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
        ("zh-CN", "zh_CN"),
        ("zh-TW", "zh_TW"),
        ("zh", "zh_CN"),
        ("no", "nb"),
        ("sv-SE", "sv"),
        ("pl", "pl"),
        ("ar", "en"),
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


def test_a_text_that_is_also_a_plural_entry_is_read_by_its_singular_on_every_python():
    """Debian 12's Python (3.11.2) finds no plural entry by its singular through `gettext`, later
    3.11 releases do: `Lang.t` asks for it as one of one, so both read the translation."""
    import gettext

    from metrobot.i18n import Lang

    class Older(gettext.NullTranslations):  # (3.11.2's lookup: the plural entry not by its singular)
        def ngettext(self, msgid1, msgid2, n):
            return (
                "{winners} の勝ち"
                if msgid1 == "**{winners}** wins!" and n == 1
                else super().ngettext(msgid1, msgid2, n)
            )

    assert Lang("ja", Older()).t("**{winners}** wins!", winners="A") == "A の勝ち"
    assert Lang("ja", Older()).t("Untranslated.") == "Untranslated."
    assert lang("ja").t("Game over. The test trips are run. **{winners}** wins!", winners="A").startswith("ゲーム終了")


def test_a_readings_sample_is_the_same_for_the_same_seed_and_reaches_every_feature(capsys):
    """A native-level reading reads a sample nobody chose: `sample` draws it from the seed alone,
    one feature after another, so that a second reader can read the very same texts."""
    assert messages.main(["sample", "pl", "--seed", "7603", "--count", "40"]) == 0
    first = capsys.readouterr().out
    assert messages.main(["sample", "pl", "--seed", "7603", "--count", "40"]) == 0
    assert capsys.readouterr().out == first
    features = {line.split("]")[0].split("[")[1] for line in first.splitlines() if line[:1].isdigit()}
    assert {"daily", "review", "tables", "games/metromania", "games/underground", "games/flipwrite"} <= features
    assert messages.main(["sample", "pl", "--seed", "7604", "--count", "40"]) == 0
    assert capsys.readouterr().out != first
    assert messages.main(["sample", "en", "--seed", "1"]) == 2
