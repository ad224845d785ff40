"""Names in any script are drawn, not boxed: Hangul, Latin with accents, Cyrillic, Greek and
common emoji go through the font chain (render/text.py) on every game's images."""
from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from metrobot.gamelog import self_play
from metrobot.games import get_game
from render import render_image
from render.style import font
from render.text import missing_glyphs

NAMES = ["김민준", "Zoë", "Ђорђе", "🚇 Metro", "Αλέξης"]
TOFU = "\U0010FFFD"  # a private-use character no font here has: drawn as the empty box


def drawn(text: str, size: int = 24) -> Image.Image:
    im = Image.new("L", (40 * len(text) + 20, 2 * size), 0)
    ImageDraw.Draw(im).text((10, size // 2), text, fill=255, font=font(size))
    return im


@pytest.mark.parametrize("name", NAMES)
def test_every_character_has_a_glyph(name):
    assert missing_glyphs(name) == []
    for ch in name.replace(" ", ""):  # and each draws as itself, not as the box
        assert ImageChops.difference(drawn(ch), drawn(TOFU)).getbbox() is not None, ch


def test_the_box_is_what_a_missing_glyph_looks_like():
    assert missing_glyphs(TOFU) == [TOFU]


@pytest.mark.parametrize("kind, players", [("metromania", 4), ("flipwrite", 4), ("underground", 5)])
def test_boards_with_names_in_every_script(kind, players):
    game = get_game(kind)
    seats = [f"p{i}" for i in range(players)]
    options = {"map": "berlin"} if kind == "flipwrite" else {}
    _, state = self_play(game, seats, options, 3)
    names = dict(zip(seats, NAMES))
    plain = render_image(game, state, None, {s: f"Player {i}" for i, s in enumerate(seats)})
    named = render_image(game, state, None, names)
    assert plain.size == named.size and ImageChops.difference(plain, named).getbbox() is not None
