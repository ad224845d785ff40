"""MetrOmania images: the board after every turn and the end-of-game trip summary.

Every game's image package answers the same two calls (see `metrobot/render/__init__.py`):
`image(view, viewer, names, lang, vision)` and `final(view, names, lang, vision)`; every
word drawn is in `lang` (names, coordinates and arrow names are data, the same in every language).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from metrobot.i18n import EN, Lang

from ..style import in_language
from .board import clear_caches  # the board's static layers and packed images
from .image import HEIGHT, WIDTH, board_image, geometry
from .targets import targets as _targets
from .trips import trips_image

# Where each step is tapped, measured with the fonts the picture is drawn with.
targets = in_language(_targets)


@in_language
def image(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    # The viewer's hand is in the view already; the panel shows what the view holds.
    return board_image(view, names, lang, vision)


@in_language
def size(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> tuple[int, int]:
    return WIDTH, HEIGHT


@in_language
def final(
    view: dict[str, Any], names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> list[tuple[str, Image.Image]]:
    return [("test-trips.png", trips_image(view, names, lang, vision))]


__all__ = ["board_image", "clear_caches", "final", "geometry", "image", "size", "targets", "trips_image"]
