"""MetrOmania images: the board after every turn and the end-of-game trip summary.

Input is always a player's *view* (the engine's `view(state, viewer)`), never the raw
state: whatever the viewer may not see is already gone before a pixel is drawn.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from metrobot.games.metromania.board import CITY_CELLS
from metrobot.i18n import EN, Lang

from .board import Geometry, board_geometry, static_layer
from .panel import draw_panel
from .pieces import draw_pieces

WIDTH, HEIGHT = 1400, 960
BOARD_W = 1000
MARGIN = 10


def _kinds(view: dict[str, Any]) -> tuple[str, ...]:
    by_cell = {(c["q"], c["r"], c["up"]): c["kind"] for c in view["board"]["cells"]}
    return tuple(by_cell[c] for c in CITY_CELLS)


def board_image(
    view: dict[str, Any], names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    """The board (its static layer holds no words: coordinates and arrow names are the
    same in every language and palette) and the side panel, in `lang`; the players'
    colours in the palette of `vision` (see `metrobot/render/vision.py`)."""
    names = names or {}
    geo = board_geometry(BOARD_W, HEIGHT, MARGIN)
    image = Image.new("RGB", (WIDTH, HEIGHT))
    image.paste(static_layer(_kinds(view), (BOARD_W, HEIGHT), geo), (0, 0))
    d = ImageDraw.Draw(image)
    draw_pieces(d, view, geo, vision=vision)
    draw_panel(d, view, (BOARD_W, 0, WIDTH, HEIGHT), names, lang, vision)
    return image


def geometry() -> Geometry:
    return board_geometry(BOARD_W, HEIGHT, MARGIN)
