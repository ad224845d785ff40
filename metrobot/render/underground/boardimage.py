"""The On the Underground board image: the map (cached static layer + this turn's pieces)
and the side panel. Players and spectators see the same (nothing is secret); a viewer's
own panel entry is outlined."""

from __future__ import annotations

from typing import Any

from PIL import Image

from metrobot.i18n import EN, Lang

from .board import draw_map
from .geometry import Geometry, geometry
from .palette import palette
from .panel import draw_panel
from .static import Static, static_layers

MAP_W, PANEL_W, HEIGHT = 1720, 470, 1120
SIZE = (MAP_W + PANEL_W, HEIGHT)
MAP_BOX = (0, 0, MAP_W, HEIGHT)
PAD = (24, 26, 24, 26)


def static(view: dict[str, Any]) -> Static:
    return static_layers(view, SIZE, MAP_BOX, PAD)


def board_geometry(view: dict[str, Any]) -> Geometry:
    """Where the map of `board_image` puts its stations and lanes (the static layers' own
    geometry, without drawing them): for the targets of a play page."""
    return geometry(view["map"], view.get("map_digest"), MAP_BOX, PAD)


def board_image(
    view: dict[str, Any],
    viewer: str | None = None,
    names: dict[str, str] | None = None,
    lang: Lang = EN,
    vision: str = "off",
) -> Image.Image:
    """The map (its static layers hold station names only: data, the same in every
    language and palette, so they are cached per map and size) and the panel, in `lang`,
    the lines in the palette of `vision` (see `metrobot/render/vision.py`)."""
    st = static(view)
    pal = palette(vision)
    image, _ = draw_map(view, st, pal, lang)
    draw_panel(image, view, viewer, (MAP_W, 0, SIZE[0], HEIGHT), names, lang, pal)
    return image


def prewarm(maps: list[str] | None = None) -> None:
    """Draw the static layers of packaged maps ahead of time (a second or two each, once
    per process), e.g. from a background thread when the bot starts, so that the first
    board of a game does not wait for the name layout."""
    from metrobot.games.underground.mapdata import load_map, map_names

    for name in maps if maps is not None else map_names():
        static({"map": name, "map_digest": load_map(name).digest})
