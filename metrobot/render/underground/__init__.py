"""On the Underground images: the board after every turn and the end-of-game summary.

Every game's image package answers the same two calls (see `metrobot/render/__init__.py`):
`image(view, viewer, names, lang, vision)` and `final(view, names, lang, vision)`; every
word drawn is in `lang` (names, station names, the map's title and colour names are data).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from metrobot.i18n import EN, Lang

from ..style import in_language
from ..vision import PaletteSet
from .boardimage import SIZE, board_image, prewarm
from .palette import BACKGROUND, CASING, originals
from .static import clear_cache as clear_caches  # the board's static layers: its station names
from .targets import targets as _targets

# Where each step is tapped, measured with the fonts the picture is drawn with.
targets = in_language(_targets)


@in_language
def image(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    # Nothing is secret: every viewer sees the same board; a player's own entry is outlined.
    return board_image(view, viewer, names, lang, vision)


@in_language
def size(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> tuple[int, int]:
    return SIZE  # one size for every map, viewer and language


@in_language
def final(
    view: dict[str, Any], names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> list[tuple[str, Image.Image]]:
    from .summary import summary_image

    return [("summary.png", summary_image(view, names, lang, vision))]


def palette_sets() -> dict[str, PaletteSet]:
    """The colours that share a board, for `tools/palettes.py`: the eleven lines (up to ten
    in one game, any ten) and the two highlights."""
    return {
        "underground": PaletteSet(originals(), fixed=("white", "black"), background=BACKGROUND, cased=tuple(CASING))
    }


def prewarm_steps() -> list[Callable[[], None]]:
    """The static layer of every packaged map, one step each (see `metrobot.render.prewarm_steps`)."""
    from metrobot.games.underground.mapdata import map_names

    return [partial(prewarm, [name]) for name in map_names()]


__all__ = [
    "SIZE",
    "board_image",
    "clear_caches",
    "final",
    "image",
    "palette_sets",
    "prewarm",
    "prewarm_steps",
    "size",
    "targets",
]
