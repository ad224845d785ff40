"""The colour-vision palettes (metrobot/render/palettes.json, chosen by tools/palettes.py), checked
with coloraide's simulations at full severity: Machado 2009 for protanopia and
deuteranopia (Viénot 1999 too), Brettel 1997 for tritanopia.

For every set of colours that can share a board (a game's lines and highlights, the
players' colours, each packaged map's lines) and every palette key: every pair of colours
stays at least 10 apart (CIEDE2000) under each deficiency the key serves, and with normal
vision (the others at the table see the same picture); each colour stays near the game's
own (the line names stay true: "red" is still red-ish); a mix's palette serves the mix at
least as well as any one of its members' palettes would; the data was made from the
colours the code draws today.
"""

from __future__ import annotations

import itertools
import json

import pytest
from coloraide import Color

from metrobot.render import vision

TARGET = 10.0
RED_GREEN = ("machado", "vienot")
DATA = json.loads(vision.DATA.read_text(encoding="utf-8"))
SETS = DATA["sets"]
_SEEN: dict = {}


def seen(colour: str, condition: str, method: str | None = None) -> Color:
    key = (colour, condition, method)
    if key not in _SEEN:
        c = Color(colour)
        if condition != "normal":
            c = c.filter(condition, 1, method=method, in_place=False).clip()
        _SEEN[key] = c.convert("lab-d65")
    return _SEEN[key]


def conditions(key: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = [("normal", None)]
    for d in vision.deficiencies(key):
        out += [(d, m) for m in RED_GREEN] if d != "tritan" else [(d, "brettel")]
    return out


def closest(colours: dict[str, str], condition: str, method: str | None) -> tuple[float, str, str]:
    return min(
        (seen(colours[a], condition, method).delta_e(seen(colours[b], condition, method), method="2000"), a, b)
        for a, b in itertools.combinations(colours, 2)
    )


CASES = [(name, key) for name in SETS for key in vision.KEYS[1:]]


def test_every_set_has_every_key_and_matches_the_code():
    from tools.palettes import current_sets

    current = current_sets()
    assert set(SETS) == set(current)
    for name, pset in current.items():
        assert {k: vision.hex_colour(v) for k, v in SETS[name]["off"].items()} == pset.originals, name
        assert set(SETS[name]["palettes"]) == set(vision.KEYS[1:]), name
        for key, colours in SETS[name]["palettes"].items():
            assert colours.keys() == SETS[name]["off"].keys(), (name, key)
            for fixed in pset.fixed:
                assert colours[fixed] == SETS[name]["off"][fixed], (name, key, fixed)


@pytest.mark.parametrize("name, key", CASES)
def test_every_pair_stays_apart_under_the_keys_deficiencies(name, key):
    colours = SETS[name]["palettes"][key]
    for condition, method in conditions(key):
        d, a, b = closest(colours, condition, method)
        assert d >= TARGET, f"{name} {key}: {a} / {b} only {d:.1f} apart under {condition} ({method})"


@pytest.mark.parametrize("name, key", CASES)
def test_each_colour_stays_itself(name, key):
    """At most 32 CIEDE2000 from the game's own colour (normal vision), its hue within 40
    degrees where it has one: "red" stays red-ish."""
    off, colours = SETS[name]["off"], SETS[name]["palettes"][key]
    for c, was in off.items():
        a, b = seen(was, "normal"), seen(colours[c], "normal")
        assert a.delta_e(b, method="2000") <= 32.5, (name, key, c)
        la, lb = a.convert("lch-d65"), b.convert("lch-d65")
        if la["c"] >= 14:
            turn = abs((lb["h"] - la["h"] + 180) % 360 - 180)
            assert turn <= 40, (name, key, c, round(turn))


@pytest.mark.parametrize("name", list(SETS))
def test_a_mix_gets_the_palette_that_serves_it_best(name):
    """For a table mixing deficiencies, its own palette's closest pair (under all of them)
    is at least as far apart as with any one member's palette."""

    def worst(colours, key):
        return min(closest(colours, c, m)[0] for c, m in conditions(key))

    for key in (k for k in vision.KEYS if "+" in k):
        mine = worst(SETS[name]["palettes"][key], key)
        for member in vision.deficiencies(key):
            assert mine >= worst(SETS[name]["palettes"][member], key) - 0.5, (name, key, member)


def test_the_games_own_colours_need_the_palettes():
    """Why the palettes exist: the games' own colours put some pair under 10 for every
    deficiency (so a test passing on "off" would prove nothing)."""
    for d in vision.DEFICIENCIES:
        worst = min(closest(SETS[name]["off"], c, m)[0] for name in SETS for c, m in conditions(d) if c != "normal")
        assert worst < TARGET, d


def test_images_draw_with_the_stored_palettes():
    from metrobot.render.style import player_colours
    from metrobot.render.underground.palette import palette

    for key in vision.KEYS[1:]:
        lines = palette(key)
        stored = {k: vision.hex_colour(v) for k, v in SETS["underground"]["palettes"][key].items()}
        assert lines.lines == {k: v for k, v in stored.items() if k in lines.lines}
        assert (lines.new_glow, lines.route) == (stored["new_glow"], stored["route"])
        assert player_colours(key) == [vision.hex_colour(SETS["players"]["palettes"][key][str(i)]) for i in range(8)]
    assert palette("off") == palette("bogus")
    assert vision.colours("underground", "deutan", {"red": (1, 2, 3)}) is None  # other colours: not these palettes
