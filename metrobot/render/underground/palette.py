"""The colours of the On the Underground images.

Eleven line colours, near the Tube's own, picked to stay apart from each other on a light
background: the light ones (white, yellow) get a dark casing so they show; grey is a mid
grey, well apart from the pale empty lanes. The two highlights (this turn's new track, the
passenger's trip) use hues no line has: cyan and magenta.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..style import ink_on
from ..vision import colours as vision_colours

Colour = tuple[int, int, int]

LINE_COLOURS: dict[str, Colour] = {
    "red": (226, 30, 36),
    "black": (24, 24, 24),
    "yellow": (255, 205, 0),
    "blue": (0, 62, 155),
    "purple": (128, 52, 168),
    "pink": (240, 128, 180),
    "orange": (245, 130, 0),
    "green": (0, 138, 62),
    "brown": (122, 74, 32),
    "white": (255, 255, 255),
    "grey": (135, 142, 148),
}
# a dark edge on the light colours (drawn under a narrower stroke of the colour)
CASING: dict[str, Colour] = {"white": (60, 60, 60), "yellow": (120, 92, 0), "pink": (150, 60, 100)}

BACKGROUND = (250, 248, 243)
EMPTY_LANE = (222, 218, 209)
STATION_INK = (28, 28, 28)
NEW_GLOW = (0, 190, 255)
ROUTE = (226, 0, 140)
EXPRESS = (255, 196, 0)
EXPRESS_INK = (130, 95, 0)
STANDARD = (255, 255, 255)
NATIONAL_RAIL = (210, 30, 38)
PANEL = (244, 241, 234)
RULE = (205, 198, 184)


def line_colour(name: str) -> Colour:
    return LINE_COLOURS.get(name, (128, 128, 128))


@dataclass(frozen=True)
class Palette:
    """The colours that change with colour vision: the lines and the two highlights."""

    lines: dict[str, Colour]
    new_glow: Colour
    route: Colour

    def line(self, name: str) -> Colour:
        return self.lines.get(name, (128, 128, 128))


def originals() -> dict[str, Colour]:
    """The set of colours a palette replaces ("off"), by name (see `metrobot/render/vision.py`)."""
    return {**LINE_COLOURS, "new_glow": NEW_GLOW, "route": ROUTE}


@lru_cache(maxsize=16)
def palette(vision: str = "off") -> Palette:
    """The palette of a vision key (unknown keys and "off": the colours above)."""
    chosen = vision_colours("underground", vision, originals()) or originals()
    return Palette({c: chosen[c] for c in LINE_COLOURS}, chosen["new_glow"], chosen["route"])


def text_on(colour: Colour) -> Colour:
    """Black or white, whichever contrasts more with `colour` (WCAG AA on any colour)."""
    return ink_on(colour)
