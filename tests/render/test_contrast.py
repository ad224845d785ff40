"""Text drawn on images meets WCAG AA contrast: 4.5:1, or 3:1 for large text (18 pt, or
14 pt bold: 24 px, or 18.67 px bold, at the size posted: text drawn on a 2x layer or on a
sprite counts at a quarter of its size).

Every game's images (boards for a spectator and for a player, mid-game and at the end,
the end-of-game images, the rules pages' positions) are drawn in English and Korean and in
every palette key, while every piece of text drawn is recorded with its colour and the
colour it is drawn on: the halo it is drawn with (station names), else the commonest colour
of its box just before it is drawn (a label's fill, a card, the paper). Text on a sprite's
transparent ground is measured where the sprite is pasted only if it is drawn there
directly; the sprites that hold text (tags, cards) draw it on their own opaque fill, which
is what is measured. Then the style modules' own pairs, and every line and player colour of
every palette with the ink `text_on` picks for it.
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from PIL import Image, ImageDraw

from metrobot import render
from metrobot.games import get_plugin
from metrobot.i18n import lang
from metrobot.render import vision
from metrobot.render.style import INK, MUTED, PAPER, contrast, ink_on
from tests.render.played import names_of, play

NORMAL, LARGE = 4.5, 3.0


@dataclass(frozen=True)
class Drawn:
    text: str
    fill: tuple[int, int, int]
    ground: tuple[int, int, int]
    px: float  # font size on the image drawn on (a supersampled layer: k times the posted size)
    bold: bool
    where: str
    scale: int = 1  # at most how many times the posted size the image drawn on may be

    @property
    def ratio(self) -> float:
        return contrast(self.fill, self.ground)

    def large(self) -> bool:
        return self.px / self.scale >= (18.67 if self.bold else 24.0)


def _scale(image: Image.Image) -> int:
    """Text drawn on a layer wider than any posted image (drawn 2x, then shrunk) or on a
    small sprite (drawn 2x or 4x) is held to the posted size it may shrink to: a quarter."""
    return 4 if image.width > 2200 or image.width < 300 else 1


def _rgb(colour) -> tuple[int, int, int] | None:
    if isinstance(colour, tuple) and len(colour) >= 3:
        return tuple(int(v) for v in colour[:3])
    return None


def _ground(image: Image.Image, xy, text: str, font, anchor) -> tuple[int, int, int] | None:
    """The commonest colour under the glyphs of `text` about to be drawn at `xy` (what the
    strokes will cover), None on a transparent or a mask image."""
    if image.mode not in ("RGB", "RGBA"):
        return None
    left, top, right, bottom = (int(v) for v in ImageDraw.Draw(image).textbbox(xy, text, font=font, anchor=anchor))
    x0, y0, x1, y1 = max(0, left - 1), max(0, top - 1), min(image.width, right + 1), min(image.height, bottom + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ORIGINAL_TEXT(ImageDraw.Draw(mask), (xy[0] - x0, xy[1] - y0), text, 255, font, anchor)
    region = image.crop((x0, y0, x1, y1))
    # The pixels under the ink counted by colour in C: those outside it set to a colour the
    # region does not have, then every colour counted (a loop over the pixels in Python was
    # most of this file's time).
    inked = mask.point(lambda v: 255 if v > 128 else 0)
    if inked.getbbox() is None:
        return None
    size = region.width * region.height
    present = {c for _, c in region.getcolors(size)}
    channels = len(image.mode)
    absent = next(
        c for c in (tuple(v >> 8 * i & 255 for i in range(channels)) for v in range(size + 1)) if c not in present
    )
    counted = Image.composite(region, Image.new(image.mode, region.size, absent), inked).getcolors(size + 1)
    counts = {c: n for n, c in counted if c != absent}
    colour = max(counts, key=lambda c: (counts[c], c))
    if image.mode == "RGBA" and colour[3] < 128:
        return None
    return _rgb(colour)


ORIGINAL_TEXT = ImageDraw.ImageDraw.text


@contextmanager
def recording():
    """Record every text drawn (`ImageDraw.text` and the flip-and-write sheets' cached text)."""
    from metrobot.render.flipwrite import marks

    drawn: list[Drawn] = []
    original_text, original_put = ImageDraw.ImageDraw.text, marks.put_text

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kw):
        fill_rgb = _rgb(fill) if not isinstance(fill, int) else None
        halo = _rgb(kw.get("stroke_fill")) if kw.get("stroke_width") else None
        if fill_rgb is not None and font is not None and str(text).strip():
            ground = halo if halo is not None else _ground(self._image, xy, text, font, anchor)
            if ground is not None:
                drawn.append(
                    Drawn(
                        str(text),
                        fill_rgb,
                        ground,
                        float(font.size),
                        "Bold" in str(font.path),
                        "ImageDraw.text",
                        _scale(self._image),
                    )
                )
        return original_text(self, xy, text, fill, font, anchor, *args, **kw)

    def put_text(image, xy, text, size, fill, bold=False, anchor="la"):
        if text and _rgb(fill) is not None:
            from metrobot.render.style import font

            ground = _ground(image, xy, text, font(int(size), bool(bold)), anchor)
            if ground is not None:
                drawn.append(Drawn(text, _rgb(fill), ground, float(size), bool(bold), "put_text", _scale(image)))
        return original_put(image, xy, text, size, fill, bold, anchor)

    ImageDraw.ImageDraw.text = text
    marks.put_text = put_text
    render.clear_caches()  # cached layers and sprites are drawn again, under the recorder
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original_text
        marks.put_text = original_put
        render.clear_caches()


def _failures(drawn: list[Drawn]) -> list[str]:
    out = []
    for t in drawn:
        need = LARGE if t.large() else NORMAL
        if t.ratio < need - 1e-9:
            out.append(f"{t.text!r}: {t.fill} on {t.ground}: {t.ratio:.2f} < {need} ({t.px:.0f} px)")
    return sorted(set(out))


GAMES = [("underground", 3, 7), ("metromania", 4, 3), ("flipwrite", 3, 4)]


@pytest.fixture(scope="module")
def played():
    return {kind: play(kind, n, seed) for kind, n, seed in GAMES}


def _draw_all(kind: str, states: list, key: str, language: str) -> None:
    plugin = get_plugin(kind)
    painter = __import__(plugin.renderer, fromlist=["image"])
    words = lang(language)
    for state in (states[len(states) // 2], states[-1]):
        names = names_of(kind, state)
        seats = plugin.game.seats(state)
        # every player's own sheet: its header is written in the player's colour
        for viewer in (None, *seats) if kind == "flipwrite" else (None, seats[0]):
            painter.image(plugin.game.view(state, viewer), viewer, names, words, vision=key)
    painter.final(plugin.game.view(states[-1], None), names_of(kind, states[-1]), words, vision=key)


@pytest.mark.parametrize("kind", [g[0] for g in GAMES])
@pytest.mark.parametrize("key", vision.KEYS)
def test_every_text_drawn_meets_wcag_aa(played, kind, key):
    with recording() as drawn:
        _draw_all(kind, played[kind], key, "en")
        if key in ("off", "deutan"):
            _draw_all(kind, played[kind], key, "ko")
    assert len(drawn) > 20  # the recorder saw the images' words
    assert not _failures(drawn), "\n".join(_failures(drawn))


def test_rules_pages_text_meets_wcag_aa():
    from metrobot.render.rulebook import page_png

    with recording() as drawn:
        for kind, _, _ in GAMES:
            for i in range(len(get_plugin(kind).rules_pages())):
                page_png(kind, i, "en")
    assert drawn and not _failures(drawn), "\n".join(_failures(drawn))


def test_the_recorder_catches_low_contrast():
    image = Image.new("RGB", (200, 60), (255, 255, 255))
    from metrobot.render.style import font

    with recording() as drawn:
        ImageDraw.Draw(image).text((5, 5), "faint", fill=(200, 200, 200), font=font(16))
        ImageDraw.Draw(image).text((5, 30), "dark", fill=INK, font=font(16))
    assert [t.text for t in drawn] == ["faint", "dark"]
    assert drawn[0].ground == (255, 255, 255)
    assert _failures(drawn) == [f"'faint': (200, 200, 200) on (255, 255, 255): {drawn[0].ratio:.2f} < 4.5 (16 px)"]


def test_the_shared_inks_on_their_grounds():
    for ink, ground in itertools.product((INK, MUTED), (PAPER, (255, 255, 255))):
        assert contrast(ink, ground) >= NORMAL, (ink, ground)


def _palette_colours():
    import json

    data = json.loads(vision.DATA.read_text(encoding="utf-8"))["sets"]
    for name, entry in data.items():
        yield name, "off", entry["off"]
        for key, colours in entry["palettes"].items():
            yield name, key, colours


def test_text_on_every_colour_of_every_palette_meets_aa():
    """Codes and numbers drawn on a line's or a player's colour (badges, discs, squares):
    the ink `text_on` picks reads at 4.5:1 on every colour of every palette."""
    from metrobot.render.flipwrite.mapdraw import text_on as flipwrite_ink
    from metrobot.render.underground.palette import text_on as underground_ink

    checked = 0
    for name, key, colours in _palette_colours():
        for colour in colours.values():
            c = vision.hex_colour(colour)
            for ink in (ink_on(c), flipwrite_ink(c), underground_ink(c)):
                assert contrast(ink, c) >= NORMAL, (name, key, colour, ink)
            checked += 1
    assert checked >= 480  # 6 sets x 8 keys, 8 to 13 colours each
