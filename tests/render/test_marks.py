"""Colour is never the only cue: the non-colour marks are drawn on every board, whatever
the palette, and can be seen (pixel tests on rendered boards).

- On the Underground: every built section of every colour (its track's connected pieces,
  found here afresh) carries its colour's code at each of its ends (one short gap: one in
  its middle; a loop: one anywhere), and every tag is on the board as drawn, pixel for
  pixel, not covered by anything drawn after it.
- MetrOmania: every line's start disc shows its player's number.
- Flip-and-write: every line's letter at its far end (or half way round a ring) as well as
  on its wagon badge.
"""

from __future__ import annotations

from functools import cache

import pytest
from PIL import Image

from metrobot.games import get_plugin
from metrobot.i18n import EN, lang
from metrobot.render import vision
from tests.render.played import play

KEYS = vision.KEYS


@cache
def _states(kind: str, n: int, seed: int) -> list:
    return play(kind, n, seed)


def _sections(track: list[int], gaps: dict) -> list[tuple[set[int], set[str]]]:
    """(gap ids, end stations) of each connected piece of a colour's track."""
    parent = {g: g for g in track}

    def root(g):
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    by_station: dict[str, list[int]] = {}
    for g in track:
        for s in gaps[g][:2]:
            by_station.setdefault(s, []).append(g)
    for touching in by_station.values():
        for g in touching[1:]:
            parent[root(g)] = root(touching[0])
    parts: dict[int, set[int]] = {}
    for g in track:
        parts.setdefault(root(g), set()).add(g)
    out = []
    for part in parts.values():
        degree: dict[str, int] = {}
        for g in part:
            for s in gaps[g][:2]:
                degree[s] = degree.get(s, 0) + 1
        out.append((part, {s for s, k in degree.items() if k == 1}))
    return out


def _as_drawn(image: Image.Image, sprite: Image.Image, centre) -> float:
    """The share of the sprite's opaque pixels that the image shows as the sprite has them."""
    x0, y0 = round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)
    crop = image.crop((x0, y0, x0 + sprite.width, y0 + sprite.height)).convert("RGB")
    opaque = same = 0
    for (r, g, b, a), shown in zip(sprite.get_flattened_data(), crop.get_flattened_data()):
        if a == 255:
            opaque += 1
            same += (r, g, b) == shown
    return same / opaque


@pytest.mark.parametrize("n, seed, language", [(2, 21, "en"), (5, 22, "ko"), (3, 23, "es")])
def test_every_section_of_the_underground_carries_its_code(n, seed, language):
    from metrobot.render.underground import board_image
    from metrobot.render.underground.board import map_tags
    from metrobot.render.underground.boardimage import static
    from metrobot.render.underground.geometry import assign_lanes, occupancy
    from metrobot.render.underground.palette import palette
    from metrobot.render.underground.tags import code, ring_of, sprite

    game = get_plugin("underground").game
    states = _states("underground", n, seed)
    words = lang(language)
    checked = 0
    for state, keys in ((states[len(states) // 2], KEYS), (states[-1], ("off", "deutan", "protan+tritan"))):
        view = game.view(state, None)
        st = static(view)
        slots = assign_lanes(st.geo, occupancy(view))
        for key in keys:
            pal = palette(key)
            image = board_image(view, None, None, words, key)
            tags = map_tags(view, st, slots, pal, words)
            for colour, col in view["colours"].items():
                for gaps, ends in _sections(col["track"], st.geo.gaps):
                    mine = [t for t in tags if t.colour == colour and t.gap in gaps]
                    assert mine, (key, colour, sorted(gaps))
                    if len(gaps) > 1 or len(mine) > 1:
                        assert ends <= {t.station for t in mine}, (key, colour, sorted(gaps), ends)
                    for t in mine:
                        shown = _as_drawn(image, sprite(code(colour, words), ring_of(colour, pal)), t.centre)
                        assert shown > 0.97, (key, colour, t, shown)
                        checked += 1
    assert checked > 40


def test_the_underground_panel_shows_every_colours_code():
    """The key between codes and colour words: each colour's tag beside its name."""
    from metrobot.render.underground.palette import palette
    from metrobot.render.underground.tags import CODES, code

    for language in ("en", "nl", "es", "ko"):
        codes = [code(c, lang(language)) for c in CODES]
        assert len(set(codes)) == len(codes), (language, codes)  # a code names one colour
        assert all(1 <= len(c) <= 2 for c in codes), (language, codes)
    assert palette("deutan").lines.keys() == CODES.keys()


@pytest.mark.parametrize("key", ("off", "tritan", "protan+deutan"))
def test_metromania_start_discs_show_the_players_number(key):
    from metrobot.render.metromania.image import board_image, geometry
    from metrobot.render.style import ink_on, player_colour

    game = get_plugin("metromania").game
    state = _states("metromania", 4, 3)[-1]
    view = game.view(state, None)
    image = board_image(view, None, EN, key)
    geo = geometry()
    seat = {p: i for i, p in enumerate(view["players"])}
    checked = 0
    for line in view["lines"]:
        if not line["cells"]:
            continue
        colour = player_colour(seat[line["player"]], key)
        x, y = geo.px(tuple(line["vertices"][0]))
        r = int(0.16 * geo.edge) - 2
        disc = image.crop((int(x) - r, int(y) - r, int(x) + r, int(y) + r)).get_flattened_data()
        ink = ink_on(colour)
        assert sum(p == ink for p in disc) >= 8, (key, line["player"])  # the number, in the disc
        assert sum(p == colour for p in disc) >= 20  # on the player's colour
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("key", ("off", "deutan", "protan+deutan+tritan"))
def test_flipwrite_lines_show_their_letter_at_the_far_end(key):
    from metrobot.render.flipwrite import sheet_geometry, sheet_image
    from metrobot.render.flipwrite.geometry import Geometry, line_paths
    from metrobot.render.flipwrite.mapdraw import SHEET_STYLE, badge_spots, end_tags
    from metrobot.render.flipwrite.spec import map_spec
    from metrobot.render.style import INK

    game = get_plugin("flipwrite").game
    state = _states("flipwrite", 2, 4)[5]
    view = game.view(state, "p1")
    image = sheet_image(view, "p1", None, EN, key)
    spec = map_spec(view, key)
    left, top, right, bottom = sheet_geometry(view)["map"]
    size = (right - left, bottom - top)
    geo = Geometry(spec, (0, 0, *size), SHEET_STYLE.pad)
    tags = end_tags(
        spec, line_paths(spec, geo, SHEET_STYLE.spacing), SHEET_STYLE.radius, badge_spots(spec, size, SHEET_STYLE)
    )
    ends = {line.id for line, _ in tags}
    assert ends == {line.id for line in spec.lines}, ends
    for line, (x, y) in tags:
        box = image.crop((int(x) - 6, int(y + top) - 6, int(x) + 7, int(y + top) + 7)).get_flattened_data()
        inked = sum(max(abs(a - b) for a, b in zip(p, INK)) < 60 for p in box)
        white = sum(min(p) > 235 for p in box)
        assert inked >= 6 and white >= 20, (key, line.id, inked, white)


@pytest.mark.parametrize("kind, n, seed", [("underground", 4, 31), ("metromania", 3, 32), ("flipwrite", 3, 33)])
def test_marks_in_korean_have_no_tofu(kind, n, seed):
    """The codes, numbers and letters drawn in Korean (and every other word of the images)
    have glyphs, in a colour-vision palette as in the default one."""
    from tests.render.tofu import assert_no_tofu

    plugin = get_plugin(kind)
    painter = __import__(plugin.renderer, fromlist=["image"])
    states = _states(kind, n, seed)
    state = states[len(states) * 3 // 4]
    viewer = plugin.game.seats(state)[0] if kind == "flipwrite" else None

    def draw():
        for key in ("off", "protan+deutan"):
            painter.image(plugin.game.view(state, viewer), viewer, {"p1": "최지우"}, lang("ko"), vision=key)

    drawn = assert_no_tofu(draw)
    if kind == "underground":
        from metrobot.render.underground.tags import CODES, code

        codes = {code(c, lang("ko")) for c in CODES}
        assert codes & {text for _, text in drawn}  # the Hangul codes were drawn
