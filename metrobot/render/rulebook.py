"""The pictures of the illustrated rules: each page's position (`metrobot.games.rulebook`),
drawn by the game's own image package as a player would see it, in a language.

`page_png(game, index, language, vision)` takes plain data and returns PNG bytes, so the service
can run it in a drawing worker; the position is built once per process.
"""

from __future__ import annotations

import importlib

from PIL import Image

from metrobot.games import get_plugin
from metrobot.games.rulebook import position
from metrobot.i18n import lang

from . import render_image
from .png import encode_png
from .vision import palette_key


def page_png(
    game: str, index: int, language: str = "en", vision: str = "off", *, lossless: bool = False
) -> bytes | None:
    """The picture of page `index` of `game`'s rules (None: a page of text only)."""
    image = page_image(game, index, language, vision)
    return None if image is None else encode_png(image, lossless=lossless)


def page_image(game: str, index: int, language: str = "en", vision: str = "off") -> Image.Image | None:
    """`page_png`'s picture before it is encoded."""
    plugin = get_plugin(game)
    page = plugin.rules_pages()[index]
    shown = position(plugin.name, page)
    if shown is None or plugin.renderer is None:
        return None
    words = lang(language)
    names = {seat: words.t(name) for seat, name in shown.names.items()} if shown.names else None
    if shown.picture.startswith("final:"):
        finals = importlib.import_module(plugin.renderer).final(
            plugin.game.view(shown.state, None), names, words, vision=palette_key(vision)
        )
        image = finals[int(shown.picture.partition(":")[2])][1]
    else:
        image = render_image(plugin.game, shown.state, shown.viewer, names, words, vision)
    return image
