"""Words fit their boxes in every language: a text an image shortens with "…" because it is
too wide (`fit_text`) is shortened in English too, at the same place.

The same positions (each game's images of `test_image_texts`, and every rules page with its
players Ann, Bob, Cat) are drawn in English and in another language; the drawing code makes
the same calls in every language, in the same order, so the n-th text given to `fit_text` in
one is the n-th in the other. A text cut in another language where English fits is a
translation too long for its box (a station or person's name cut in both is the map's or the
person's, not the language's). Japanese and German are checked strictly; Dutch and Spanish
still have texts too long for their boxes (expected failures, strict: fixing them shows).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from metrobot.games import get_plugin
from metrobot.i18n import LANGUAGES, lang
from render import clear_caches
from render.rulebook import page_image
from render.style import fit_text

from .test_image_texts import GAMES, images, play

# Every module that shortens texts (each imports `fit_text` by name).
USERS = [
    "render.underground.panel",
    "render.underground.summary",
    "render.metromania.panel",
    "render.metromania.trips",
    "render.sparkline",
    "render.flipwrite.panel",
    "render.flipwrite.sheet",
    "render.flipwrite.summary",
]
TOO_LONG = {
    "nl": "a few Dutch labels (e.g. '2 × omkaderd', 'heeft het bord verlaten …') are cut",
    "es": "many Spanish labels (e.g. 'en mano', 'colocado', '… estaciones ÷ 2') are cut",
}


@pytest.fixture(scope="module")
def played() -> dict:
    return {(kind, n, seed): play(kind, n, seed, options) for kind, n, seed, options in GAMES}


def fitted(played: dict, code: str, monkeypatch: Any) -> list[tuple[str, bool]]:
    """Every text given to `fit_text` while the images are drawn in `code`, and whether it was cut."""
    calls: list[tuple[str, bool]] = []

    def spy(text: str, size: int, max_width: float, bold: bool = False) -> str:
        out = fit_text(text, size, max_width, bold)
        calls.append((text, out != text))
        return out

    with monkeypatch.context() as patch:
        for module in USERS:
            patch.setattr(importlib.import_module(module), "fit_text", spy)
        # A text drawn earlier (by another test, in any order) into a kept layer would not be
        # measured again: some kept layers do hold shortened texts (a shuffled run counted 32
        # calls fewer in English when another test had drawn them first).
        clear_caches()
        for kind, n, seed, _ in GAMES:
            images(kind, played[(kind, n, seed)], lang(code))
        for game in ("underground", "metromania", "flipwrite"):
            for i, page in enumerate(get_plugin(game).rules_pages()):
                if page.build:
                    page_image(game, i, code)
    clear_caches()
    return calls


@pytest.fixture(scope="module")
def english(played) -> list[tuple[str, bool]]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return fitted(played, "en", monkeypatch)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(code, marks=pytest.mark.xfail(code in TOO_LONG, strict=True, reason=TOO_LONG.get(code, "")))
        for code in LANGUAGES
        if code != "en"
    ],
)
def test_no_text_is_cut_where_english_fits(played, english, monkeypatch, code):
    calls = fitted(played, code, monkeypatch)
    assert len(calls) == len(english), "the images are drawn the same way in every language"
    cut = sorted({text for (text, short), (_, short_en) in zip(calls, english) if short and not short_en})
    assert not cut, f"too long for their boxes in {code}: {cut}"
    assert any(short for _, short in english), "something is cut in English too (names): the check sees cuts"
