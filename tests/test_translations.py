"""Translations when the English changes, and `{places}` as Python reads them (issue 42).

Editing an English text used to empty its translation in all seven languages (the merge ran
without Babel's fuzzy matching and dropped obsolete entries): now each keeps its old
translation as a fuzzy suggestion with the English it was made for (`#| msgid`), which the
bot never shows and `check` counts as untranslated until a translator confirms it. The
placeholder check reads texts as `str.format` does, so a stray `{` or `}` is caught by
`check`, not when the message is sent."""

from __future__ import annotations

import shutil

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import metrobot.i18n as i18n
from tests.languages import checked
from tools import translations
from tools.messages import FINISHED, TEMPLATE, TRANSLATED
from tools.translations import NotAFormat, check_language, check_sources, merge, placeholders

OLD = "Only the host starts the game."


@pytest.fixture
def locales(tmp_path, monkeypatch):
    """A copy of the real catalogues that the tools and the bot's loader read instead."""
    folder = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, folder)
    monkeypatch.setattr(translations, "LOCALES", folder)
    monkeypatch.setattr(i18n, "LOCALES", folder)
    return folder


def _template(changed: dict[str, str | None]) -> Catalog:
    """The committed template with some English texts edited (or, None, removed)."""
    with TEMPLATE.open("rb") as f:
        template = read_po(f)
    edited = Catalog(project="metrobot", fuzzy=False)
    for message in template:
        if message.id:
            ident = changed.get(message.id, message.id) if isinstance(message.id, str) else message.id
            if ident is None:
                continue  # (a text taken out of the code)
            edited.add(ident, context=message.context, flags=message.flags, locations=message.locations)
    return edited


def _load(folder, code):
    return translations.read(folder / f"{code}.po", code)


def test_an_edited_english_text_keeps_its_translations_as_suggestions_the_bot_never_shows(locales):
    new = "Only the host can start the game."
    # (a mechanism, the same for every catalogue, at about 0.6 s of CPU a language: in make test
    # the first eight languages and the costly sample, Polish and Thai, and a language in progress
    # if it has translated the text; every language in make reliability — tests/languages.py)
    before = {code: _load(locales, code).get(OLD).string for code in checked(list(TRANSLATED), costly=True)}
    assert all(before[code] for code in FINISHED if code in before)
    before = {code: text for code, text in before.items() if text}
    template = _template({OLD: new})
    for code in before:
        merge(code, template)
        entry = _load(locales, code).get(new)
        assert entry is not None and entry.fuzzy and entry.string == before[code], code  # kept, as a suggestion
        assert entry.previous_id == [OLD], code  # with the English it was made for
        assert f'#| msgid "{OLD}"' in (locales / f"{code}.po").read_text(encoding="utf-8")
        # `check` says it is not translated until a translator confirms it…
        [problem] = [p for p in check_language(code, template) if new in p]
        assert ": not translated (a fuzzy suggestion" in problem
        # …and the bot shows the English meanwhile, never the suggestion
        i18n._lang.cache_clear()
        try:
            assert i18n.lang(code).t(new) == new
            other = next(
                m
                for m in _load(locales, code)
                if m.id and isinstance(m.id, str) and not m.context and not m.fuzzy and m.string and m.string != m.id
            )
            assert i18n.lang(code).t(other.id) == other.string  # the rest still translated
        finally:
            i18n._lang.cache_clear()


def test_a_suggestion_survives_the_next_extract_and_once_confirmed_is_shown(locales):
    new, gone = "Only the host can start the game.", "Well done, you can do more than just make plans."
    template = _template({OLD: new, gone: None})
    translated = _load(locales, "de").get(gone).string
    merge("de", template)
    merge("de", template)  # the next extract: still a suggestion, still with the English it was made for
    text = (locales / "de.po").read_text(encoding="utf-8")
    assert text.count(f'#| msgid "{OLD}"') == 1 and "# | msgid" not in text
    assert _load(locales, "de").get(new).fuzzy
    # a text no longer used stays at the end, for a translator to take from (never shown)
    assert _load(locales, "de").obsolete[gone].string == translated and f'#~ msgid "{gone}"' in text
    # a translator confirms the suggestion: the fuzzy flag goes, and the bot shows it
    head, _, tail = text.partition(f'#, fuzzy\n#| msgid "{OLD}"\n')
    (locales / "de.po").write_text(head + tail, encoding="utf-8")
    assert not [p for p in check_language("de", template) if new in p]
    merge("de", template)
    assert "#| msgid" not in (locales / "de.po").read_text(encoding="utf-8")
    i18n._lang.cache_clear()
    try:
        assert i18n.lang("de").t(new) == _load(locales, "de").get(new).string != new
    finally:
        i18n._lang.cache_clear()


def test_places_are_read_as_python_reads_them():
    assert placeholders("{name} dug {count} tunnels") == {"name", "count"}
    assert placeholders("{who!r:>10} at {where.name} on {days[0]}") == {"who", "where", "days"}
    assert placeholders("{{not a place}} but {this}") == {"this"}
    assert placeholders("{x:{width}}") == {"x", "width"}
    for broken in ("a stray { here", "a stray } here", "{name", "{} nameless", "{0} numbered"):
        with pytest.raises(NotAFormat):
            placeholders(broken)


def test_check_reports_a_stray_brace_in_a_translation_or_in_the_english(locales):
    template = _template({})
    path = locales / "de.po"
    cat = _load(locales, "de")
    [message] = [m for m in cat if m.id and isinstance(m.id, str) and "{name}" in m.id][:1]
    good = message.string
    text = path.read_text(encoding="utf-8")
    broken = good.replace("{name}", "{name} {", 1)
    assert text.count(f'msgstr "{good}"') == 1
    path.write_text(text.replace(f'msgstr "{good}"', f'msgstr "{broken}"'), encoding="utf-8")
    problems = check_language("de", template)
    assert any(p.startswith(f"de: {message.id!r}") and "cannot be filled in" in p for p in problems), problems
    assert check_sources(template) == []
    template.add("Scores: {a} } {b}")
    assert check_sources(template) == [
        "source: 'Scores: {a} } {b}' cannot be filled in: Single '}' encountered in format string"
    ]
