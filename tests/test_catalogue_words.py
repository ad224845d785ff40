"""Buttons shown together never read alike: within one panel of controls, two different English
labels never get the same translation, nor two words a reader would take for one (German once
gave ↶ Undo and ◂ Back both „Zurück“, Japanese 戻す and 戻る)."""

from __future__ import annotations

import unicodedata

import pytest

from metrobot.games import all_plugins
from metrobot.i18n import EN, Lang, lang
from tests.languages import checked

# The panels: labels a person sees side by side, as (context, English text).
COMPOSER = [  # the private composer (metrobot/discord_app/composer.py)
    (None, "✔ Confirm"),
    (None, "↶ Undo"),
    (None, "✖ Cancel"),
    (None, "◂ Back"),
    (None, "⌨ Type it"),
    ("button", "💡 Hint"),
]
LOBBY = [("button", "Join"), ("button", "Leave"), ("button", "Start")]  # a lobby's and a sign-up post's


def turn_post(plugin, language: Lang) -> list[str]:
    """The buttons under a game's turn post: its own words for play and for the private view."""
    labels = plugin.game_labels(language)
    return [labels.play, labels.mine, language.p("button", "Board"), language.p("button", "💡 Hint")]


def said(language: Lang, panel: list[tuple[str | None, str]]) -> list[str]:
    return [language.p(context, text) if context else language.t(text) for context, text in panel]


def word(label: str) -> str:
    """A label as a reader takes it in: its words, without the symbols around them."""
    kept = "".join(ch for ch in label if unicodedata.category(ch)[0] in "LN" or ch in " '-")
    return " ".join(kept.split()).casefold()


def alike(a: str, b: str) -> bool:
    """The same word, or one a reader would take for it: two short words (Japanese, Korean) that
    differ only in their last character, as 戻す and 戻る."""
    if a == b:
        return True
    return len(a) == len(b) <= 3 and a[:-1] == b[:-1]


def clashes(labels: list[str]) -> list[tuple[str, str]]:
    words = [word(x) for x in labels]
    return [
        (labels[i], labels[j]) for i in range(len(words)) for j in range(i + 1, len(words)) if alike(words[i], words[j])
    ]


@pytest.mark.parametrize("code", checked())
def test_no_two_buttons_of_a_panel_read_alike(code):
    language = lang(code)
    panels = {"composer": said(language, COMPOSER), "lobby": said(language, LOBBY)}
    for plugin in all_plugins():
        panels[f"{plugin.name} turn post"] = turn_post(plugin, language)
    found = {name: clashes(labels) for name, labels in panels.items() if clashes(labels)}
    assert not found, f"{code}: buttons of one panel read alike: {found}"


def test_the_check_catches_what_it_is_for():
    assert clashes(["↶ Zurück", "◂ Zurück", "✔ Bestätigen"]) == [("↶ Zurück", "◂ Zurück")]
    assert clashes(["↶ 戻す", "◂ 戻る"]) == [("↶ 戻す", "◂ 戻る")]
    assert not clashes(["↶ Rückgängig", "◂ Zurück"]) and not clashes(["↶ 取り消し", "◂ 戻る", "✖ キャンセル"])
    assert not clashes(said(EN, COMPOSER))
