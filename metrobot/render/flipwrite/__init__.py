"""Flip-and-write images: a player's own sheet, and the round summary of every sheet.

Every game's image package answers the same two calls (see `metrobot/render/__init__.py`):
`image(view, viewer, names, lang, vision)` and `final(view, names, lang, vision)`; every
word drawn is in `lang` (station, line and map names are data).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from metrobot.i18n import EN, Lang

from ..style import in_language
from ..vision import PaletteSet
from .sheet import prewarm, sheet_geometry, sheet_image
from .summary import summary_image, summary_layout
from .targets import targets as _targets

# Where each step is tapped, measured with the fonts the picture is drawn with.
targets = in_language(_targets)


@in_language
def image(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    # A player sees their own sheet (with their sealed choice); everyone else the round.
    if viewer is not None:
        return sheet_image(view, viewer, names, lang, vision)
    return summary_image(view, names, lang, vision)


@in_language
def size(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> tuple[int, int]:
    """The size of `image`'s picture, without drawing it."""
    return tuple(sheet_geometry(view)["size"] if viewer is not None else summary_layout(view)["size"])


@in_language
def final(
    view: dict[str, Any], names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> list[tuple[str, Image.Image]]:
    return []  # the last round's summary, posted with the final turn, already shows the end


def clear_caches() -> None:
    """Forget every drawn word and layer kept (see `metrobot.render.clear_caches`)."""
    from . import mapdraw, marks, panel, sheet, summary

    marks.clear_cache()
    panel.card_sprite.cache_clear()
    sheet.clear_cache()
    summary.clear_cache()
    mapdraw.clear_cache()  # the maps with their station names


def palette_sets() -> dict[str, PaletteSet]:
    """Each packaged map's lines, for `tools/palettes.py` (a custom map keeps its colours)."""
    from metrobot.games.flipwrite.mapdata import load_map, map_names

    from ..style import PAPER, rgb

    return {
        f"flipwrite:{name}": PaletteSet({line.id: rgb(line.colour) for line in load_map(name).lines}, background=PAPER)
        for name in map_names()
    }


def prewarm_steps() -> list[Callable[[], None]]:
    """The sheet layers of every packaged map, one step each (see `metrobot.render.prewarm_steps`)."""
    from metrobot.games.flipwrite.mapdata import map_names

    return [partial(prewarm, [name]) for name in map_names()]


__all__ = [
    "clear_caches",
    "final",
    "image",
    "palette_sets",
    "prewarm",
    "prewarm_steps",
    "sheet_geometry",
    "sheet_image",
    "size",
    "summary_image",
    "summary_layout",
    "targets",
]
