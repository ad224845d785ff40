"""Every word drawn in an image goes through the message catalogue, in the language the
image is drawn in.

Each game's images (the board for a spectator and for players, mid-game and at the end,
the end-of-game images) and the rating sparkline are drawn in the pseudo-language, which
marks every translated piece ⟦…⟧ and every value filled in ⟪…⟫, while every string given
to `ImageDraw.text` is recorded. What is left of a string once the marked pieces are gone
may only be data: the players' names, the map's station, line and map names, colour
names (move words), numbers and codes such as "G13", "S4", "E2". Then: an image in another
language differs from the English one only where words are. (That every language we have
draws, its texts inside the image: test_fits.py, from the same drawing as its own check.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from metrobot.games import get_plugin
from metrobot.i18n import EN, PSEUDO
from tests.render.image_words import data_words, unmarked

from .played import GAMES, images, names_of, played_games


@pytest.fixture(scope="module")
def played() -> dict:
    return played_games()


# ---------------------------------------------------------------- recording what is drawn
@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """Every string given to ImageDraw.text (caches of drawn words emptied first, so that
    nothing drawn earlier hides from the recording)."""
    from metrobot.render import clear_caches

    clear_caches()
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        seen.append(text)
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return seen


def check(strings: list[str], data: set[str]) -> None:
    leaks = {s: unmarked(s, data) for s in strings}
    leaks = {s: words for s, words in leaks.items() if words}
    assert not leaks, "drawn without the catalogue: " + "; ".join(f"{s!r} ({', '.join(w)})" for s, w in leaks.items())


# ---------------------------------------------------------------- every word through the catalogue
@pytest.mark.parametrize("kind, n, seed, options", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_every_word_of_the_images_is_the_catalogues(played, drawn, kind, n, seed, options):
    states = played[(kind, n, seed)]
    images(kind, states, PSEUDO)
    assert any("⟦" in s for s in drawn)
    check(drawn, data_words(kind, states))


def test_the_rating_sparkline_words_are_the_catalogues(drawn):
    from metrobot.render.sparkline import sparkline

    title = PSEUDO.t("{name}: rating over time", name="Ann")
    sparkline({PSEUDO.t("MetrOmania"): [1.0, 3.5, 2.0], PSEUDO.t("On the Underground"): [0.5]}, title, PSEUDO)
    sparkline({}, title, PSEUDO)
    assert any("⟦No rated games yet.⟧" in s for s in drawn)
    check(drawn, {"Ann"})


def test_the_check_finds_a_word_drawn_past_the_catalogue():
    data = {"Ann", "Alexanderplatz"}
    assert unmarked("⟦Turn ⟧⟪30⟫⟦ · ⟧⟪Ann⟫⟦ to play⟧", data) == []
    assert unmarked("Turn 30 · Ann to play", data) == ["Turn", "to", "play"]
    assert unmarked("⟦Legend⟧ G13 S4 E2 Alexanderpl…", data) == []
    assert unmarked("⟦A long heading that was fitt…", data) == []
    assert unmarked("⟪solid⟫", data) == ["solid"]  # a value that is a word must be translated


# ---------------------------------------------------------------- other languages: where words are, and they fit
def regions(kind: str) -> Callable[[Image.Image, Any], list[tuple[int, int, int, int]]]:
    """Parts of a board image that hold no words (the map: names there are data)."""
    if kind == "metromania":
        from metrobot.render.metromania.image import BOARD_W

        return lambda image, view: [(0, 0, BOARD_W, image.height)]
    if kind == "underground":
        from metrobot.render.underground.boardimage import MAP_W

        return lambda image, view: [(0, 0, MAP_W, image.height)]
    from metrobot.render.flipwrite import sheet_geometry

    return lambda image, view: [sheet_geometry(view)["map"]] if view.get("you") else []


def word_marks(kind: str, view: dict[str, Any], languages) -> list[tuple[float, float, float, float]]:
    """Where the map itself holds words, in any of `languages`: the lines' codes (boxes
    grown by a pixel for their anti-aliased edge)."""
    if kind != "underground":
        return []
    from metrobot.render.underground.board import map_tags
    from metrobot.render.underground.boardimage import static
    from metrobot.render.underground.geometry import assign_lanes, occupancy

    st = static(view)
    slots = assign_lanes(st.geo, occupancy(view))
    return [
        (b[0] - 1, b[1] - 1, b[2] + 2, b[3] + 2)
        for language in languages
        for b in (t.box for t in map_tags(view, st, slots, None, language))
    ]


@pytest.mark.parametrize("kind, n, seed", [(g[0], g[1], g[2]) for g in GAMES[::2]])
def test_another_language_changes_only_the_words(played, kind, n, seed):
    plugin = get_plugin(kind)
    painter = __import__(plugin.renderer, fromlist=["image"])
    state = played[(kind, n, seed)][-3]
    names = names_of(kind, state)
    viewer = next(iter(names)) if kind == "flipwrite" else None
    view = plugin.game.view(state, viewer)
    english, marked = (painter.image(view, viewer, names, language) for language in (EN, PSEUDO))
    assert english.size == marked.size
    difference = ImageChops.difference(english.convert("RGB"), marked.convert("RGB"))
    assert difference.getbbox() is not None  # the words changed
    for box in word_marks(kind, view, (EN, PSEUDO)):  # the lines' codes are words on the map
        difference.paste((0, 0, 0), tuple(round(v) for v in box))
    for box in regions(kind)(english, view):
        assert difference.crop(box).getbbox() is None, f"{kind}: the map changed with the language"
