"""Colour vision: which palette an image is drawn in.

A person may set their colour vision to one of `VISIONS`; an image is drawn with a
*palette key*: "off" (the games' own colours), one deficiency ("protan", "deutan",
"tritan"), or a mix of them joined by "+" in that order ("protan+tritan"), for a channel
where people with different deficiencies sit at one table. Every image entry point takes
`vision=` with such a key; a key it does not know draws as "off".

Each key names a palette per set of colours that can share a board (a game's lines and
highlights, the players' colours, each packaged map's lines; each game's image package
names its own sets),
chosen offline by `tools/palettes.py` and stored as data in `palettes.json`: for a mix,
the palette whose closest pair of colours, under each of its deficiencies simulated at
full severity, is farthest apart (so a mix has its own palette, not one of its members').
Runtime needs no colour science: it only looks colours up. The marks (letters, dashes)
are drawn whatever the palette, so colour is never the only cue.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import NamedTuple

Colour = tuple[int, int, int]

VISIONS = ("off", "protan", "deutan", "tritan")  # what a person sets
DEFICIENCIES = VISIONS[1:]
# every palette key: off, each deficiency, each mix (members in DEFICIENCIES order)
KEYS = ("off",) + tuple("+".join(c) for n in (1, 2, 3) for c in combinations(DEFICIENCIES, n))
DATA = Path(__file__).with_name("palettes.json")


def for_people(settings: Iterable[str | None]) -> str:
    """The palette key of an image that all of these people see (a channel's seated
    players' settings): "off" when nobody set a deficiency; a person's own key alone; the
    mix's key when several deficiencies sit at one table. Unknown values are ignored."""
    chosen = {s for s in settings if s in DEFICIENCIES}
    return "+".join(d for d in DEFICIENCIES if d in chosen) or "off"


def palette_key(vision: str | None) -> str:
    """`vision` as a known key: members put in order ("tritan+protan" is
    "protan+tritan"); anything unknown is "off"."""
    if not vision or vision == "off":
        return "off"
    parts = vision.split("+")
    if not all(p in DEFICIENCIES for p in parts):
        return "off"
    return for_people(parts)


def deficiencies(vision: str | None) -> tuple[str, ...]:
    """The deficiencies a key serves (none for "off")."""
    key = palette_key(vision)
    return () if key == "off" else tuple(key.split("+"))


class PaletteSet(NamedTuple):
    """Colours that can share one image, as an image package lists them for
    `tools/palettes.py` (its `palette_sets()`): by name, as drawn with "off"."""

    originals: dict[str, Colour]
    fixed: tuple[str, ...] = ()  # kept as they are in every palette (white, black)
    background: Colour = (250, 248, 243)  # what they are drawn on
    cased: tuple[str, ...] = ()  # drawn with a dark edge: they need not stand off the background


def hex_colour(colour: str) -> Colour:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


@lru_cache(maxsize=1)
def _sets() -> dict:
    if not DATA.exists():
        return {}
    return json.loads(DATA.read_text(encoding="utf-8"))["sets"]


def colours(name: str, vision: str | None, originals: dict[str, Colour] | None = None) -> dict[str, Colour] | None:
    """The colours of set `name` (a game's name, "players", "<game>:<map>") in the
    palette of `vision`, by the set's own keys; None for "off", for a set without palettes,
    or when `originals` (the colours the caller draws with "off") are not those the
    palettes were chosen for (a custom map under a packaged map's name): then the caller
    keeps its own colours and the marks tell them apart."""
    key = palette_key(vision)
    if key == "off":
        return None
    entry = _sets().get(name)
    if entry is None or key not in entry["palettes"]:
        return None
    if originals is not None and {k: hex_colour(v) for k, v in entry["off"].items()} != dict(originals):
        return None
    return {k: hex_colour(v) for k, v in entry["palettes"][key].items()}


__all__ = ["DEFICIENCIES", "KEYS", "VISIONS", "PaletteSet", "colours", "deficiencies", "for_people", "palette_key"]
