"""Words fit their boxes in every language: a text an image shortens with "…" because it is
too wide (`fit_text`) is shortened in English too, at the same place.

The same positions (each game's images of `played.py`, and every rules page with its
players Ann, Bob, Cat) are drawn in English and in another language; the drawing code makes
the same calls in every language, in the same order, so the n-th text given to `fit_text` in
one is the n-th in the other. A text cut in another language where English fits is a
translation too long for its box (a station or person's name cut in both is the map's or the
person's, not the language's). Japanese and German are checked strictly; Dutch and Spanish
still have texts too long for their boxes (expected failures, strict: fixing them shows).

Each position is drawn for the spectator and one player in `make test`, for every player in
`make reliability` (the seats' views show the same kinds of text; the spectator's and a
player's differ). The same drawing (once per language and run) shows that every language we have draws and
that its texts stay inside the images, also in "long" (`Longer`: every word half as long again
and partly Hangul, as a translation may be).
"""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from PIL import ImageDraw

from metrobot.gamelog import self_play
from metrobot.games import get_plugin
from metrobot.i18n import LANGUAGES, Lang, lang
from metrobot.render import clear_caches, render_image
from metrobot.render.rulebook import page_image
from metrobot.render.sparkline import sparkline
from metrobot.render.style import fit_text
from tests.languages import checked
from tests.reliability.sizes import FULL

from .played import GAMES, Longer, images, played_games

# Every module that shortens texts (each imports `fit_text` by name).
USERS = [
    "metrobot.render.underground.panel",
    "metrobot.render.underground.summary",
    "metrobot.render.metromania.panel",
    "metrobot.render.metromania.trips",
    "metrobot.render.sparkline",
    "metrobot.render.flipwrite.panel",
    "metrobot.render.flipwrite.sheet",
    "metrobot.render.flipwrite.summary",
]
TOO_LONG = {
    "nl": "a few Dutch labels (e.g. '2 × omkaderd', 'heeft het bord verlaten …') are cut",
    "es": "many Spanish labels (e.g. 'en mano', 'colocado', '… estaciones ÷ 2') are cut",
}


class Drawn(NamedTuple):
    """What drawing every image and rules page in a language showed."""

    fitted: list[tuple[str, bool]]  # every text given to `fit_text`, and whether it was cut
    outside: list[str]  # texts drawn past the image's edge (the images of GAMES)
    empty: int  # images of no width


# Each language is drawn once per run, for both tests below, which xdist may give to different
# workers: the first worker to need a language draws it, under a lock, and leaves what it saw in
# the run's shared temporary directory for the others (3-4 s a language; drawn again by each
# worker, English and the played games most of all, it was half of this file's CPU). Without
# xdist: once per process, in memory.
_DRAWN: dict[str, Drawn] = {}


@pytest.fixture(scope="module")
def drawings(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Drawn]:
    shared = tmp_path_factory.getbasetemp().parent / "fits" if os.environ.get("PYTEST_XDIST_WORKER") else None

    def drawn_in(code: str) -> Drawn:
        if code not in _DRAWN:
            _DRAWN[code] = _shared(shared, code) if shared is not None else _drawn_here(code)
        return _DRAWN[code]

    return drawn_in


def _shared(directory: Path, code: str) -> Drawn:
    """What another worker of this run saw drawing `code`, else drawn here and left for them."""
    directory.mkdir(exist_ok=True)
    done = directory / f"{code}.json"
    with open(directory / f"{code}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed (or when the worker dies)
        if done.exists():
            fitted, outside, empty = json.loads(done.read_text(encoding="utf-8"))
            return Drawn([(text, cut) for text, cut in fitted], outside, empty)
        drawn = _drawn_here(code)
        part = done.with_suffix(".part")
        part.write_text(json.dumps(drawn, ensure_ascii=False), encoding="utf-8")
        part.replace(done)  # whole or not at all
        return drawn


def _drawn_here(code: str) -> Drawn:
    with pytest.MonkeyPatch.context() as patch:
        return _draw(played_games(), Longer() if code == "long" else lang(code), patch)


def _draw(played: dict, language: Lang, patch: pytest.MonkeyPatch) -> Drawn:
    calls: list[tuple[str, bool]] = []
    outside: list[str] = []

    def spy(text: str, size: int, max_width: float, bold: bool = False) -> str:
        out = fit_text(text, size, max_width, bold)
        calls.append((text, out != text))
        return out

    for module in USERS:
        patch.setattr(importlib.import_module(module), "fit_text", spy)
    # A text drawn earlier (by another test, in any order) into a kept layer would not be
    # measured again: some kept layers do hold shortened texts (a shuffled run counted 32
    # calls fewer in English when another test had drawn them first).
    clear_caches()
    empty = 0
    with pytest.MonkeyPatch.context() as edges:
        edges.setattr(ImageDraw.ImageDraw, "text", _edge_spy(outside))
        for kind, n, seed, _ in GAMES:
            drawn = images(kind, played[(kind, n, seed)], language, players=None if FULL else 1)
            empty += sum(image.width == 0 for image in drawn)
        title = language.t("{name}: rating over time", name="Ann")
        sparkline({language.t("MetrOmania"): [1.0, 2.0]}, title, language)
    for game in ("underground", "metromania", "flipwrite") if language.code in LANGUAGES else ():
        for i, page in enumerate(get_plugin(game).rules_pages()):
            if page.build:
                page_image(game, i, language.code)
    clear_caches()
    return Drawn(calls, outside, empty)


def _edge_spy(outside: list[str]) -> Any:
    """`ImageDraw.text` that also notes in `outside` a text drawn past the image's edge."""
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        font = kwargs.get("font") or (args[1] if len(args) > 1 else None)
        if font is not None and text and not kwargs.get("stroke_width"):  # station names have their own layout
            left, top, right, bottom = self.textbbox(xy, text, font=font, anchor=kwargs.get("anchor"))
            width, height = self.im.size
            if left < -1 or top < -1 or right > width + 1 or bottom > height + 1:
                outside.append(text)
        return original(self, xy, text, *args, **kwargs)

    return text


@pytest.fixture(scope="module")
def english(drawings) -> list[tuple[str, bool]]:
    return drawings("en").fitted


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(code, marks=pytest.mark.xfail(code in TOO_LONG, strict=True, reason=TOO_LONG.get(code, "")))
        for code in checked(costly=True)
        if code != "en"
    ],
)
def test_no_text_is_cut_where_english_fits(drawings, english, code):
    calls = drawings(code).fitted
    assert len(calls) == len(english), "the images are drawn the same way in every language"
    cut = sorted({text for (text, short), (_, short_en) in zip(calls, english) if short and not short_en})
    assert not cut, f"too long for their boxes in {code}: {cut}"
    assert any(short for _, short in english), "something is cut in English too (names): the check sees cuts"


@pytest.mark.parametrize("code", [*checked(costly=True), "long"])
def test_every_language_draws_and_its_words_stay_inside(drawings, code):
    """Every language we have draws, and its texts stay inside the images (also "long": every
    word half as long again and partly Hangul, as a translation may be)."""
    drawn = drawings(code)
    assert drawn.fitted and drawn.empty == 0
    assert not drawn.outside, f"drawn past the image's edge in {code}: {drawn.outside}"


@cache
def _two_players() -> Any:
    """The end of a two-player game of On the Underground (seeded)."""
    return self_play(get_plugin("underground").game, ["p1", "p2"], {}, 3)[1]


@pytest.mark.parametrize("code", checked(costly=True))
def test_a_two_player_board_keeps_every_count(code, monkeypatch):
    """On the Underground with two (or five) players puts two colours on a row of its panel, as a
    tutorial's board does: each colour's count of pieces left keeps its number in every language
    ("{n} left" that does not fit its half-row is the number alone, and where even that does not
    fit beside the colour's name, the name is shortened: its tag names the colour). Before,
    "πορτοκαλί άλλ…" and "pomarańczowy …" showed no count at all."""
    from metrobot.render.underground import panel

    shown: list[tuple[str, str]] = []

    def spy(text: str, size: int, max_width: float, bold: bool = False) -> str:
        out = fit_text(text, size, max_width, bold)
        shown.append((text, out))
        return out

    monkeypatch.setattr(panel, "fit_text", spy)  # (the panel is drawn anew for every picture)
    game = get_plugin("underground").game
    for viewer in (None, "p1"):
        render_image(game, _two_players(), viewer, {"p1": "Ann", "p2": "Bob"}, code)
    counts = [(text, out) for text, out in shown if re.search(r"\d", text) and not re.search(r"\d", out)]
    assert not counts, f"a number lost on a two-player board in {code}: {counts}"
