"""Posted images are indexed-colour PNGs: much smaller, with no visible change (the main
colours exact, edges within a few values), the same bytes for the same image."""

import io
import itertools

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageStat

from metrobot.render.png import CORNERS, _onto_corners, encode_png, indexed
from metrobot.render.style import INK, PAPER, font, player_colour

# Pale tints a few values apart (a board's districts), on paper whose channels are off
# Pillow's cache corners (250, 248, 243): without care, both come out a few values off.
TINTS = [(243, 238, 226), (236, 241, 229), (242, 234, 232), (231, 238, 242), (241, 238, 228), (236, 234, 243)]


def decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def difference(a: Image.Image, b: Image.Image) -> list[float]:
    return ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean


def drawing() -> Image.Image:
    """A small flat-colour drawing: tinted bands, anti-aliased text and thin lines."""
    image = Image.new("RGB", (360, 240), PAPER)
    d = ImageDraw.Draw(image)
    for i, tint in enumerate(TINTS):
        d.rectangle([i * 60, 120, i * 60 + 59, 239], fill=tint)
    for i in range(8):
        d.line([(10, 10 + 12 * i), (350, 40 + 9 * i)], fill=player_colour(i), width=1 + i % 3)
    d.text((12, 130), "Goldhawk Road 김민준 Zoë", fill=INK, font=font(18))
    d.text((12, 170), "Sloane Square", fill=INK, font=font(14, bold=True))
    return image


def test_main_colours_stay_exact_and_edges_close():
    image = drawing()
    png = encode_png(image)
    out = decoded(png)
    assert Image.open(io.BytesIO(png)).mode == "P"
    for i, tint in enumerate(TINTS):
        assert out.getpixel((i * 60 + 50, 230)) == tint
    assert out.getpixel((5, 110)) == PAPER
    flat = [
        xy
        for xy in ((x, y) for x in range(0, 360, 3) for y in range(0, 240, 3))
        if image.getpixel(xy) in TINTS + [PAPER]
    ]
    assert all(out.getpixel(xy) == image.getpixel(xy) for xy in flat)
    assert max(difference(image, out)) <= 1.0
    assert encode_png(image) == png  # the same image, the same bytes


def test_lossless_keeps_every_pixel_in_truecolour():
    image = drawing()
    png = encode_png(image, lossless=True)
    assert Image.open(io.BytesIO(png)).mode == "RGB"
    assert decoded(png).tobytes() == image.tobytes()


def test_an_image_of_few_colours_comes_back_exactly():
    image = Image.new("RGB", (64, 64), PAPER)
    ImageDraw.Draw(image).rectangle([8, 8, 40, 40], fill=(0, 114, 178))
    assert decoded(encode_png(image)).tobytes() == image.tobytes()
    rgba = image.convert("RGBA")
    assert indexed(rgba).convert("RGB").tobytes() == image.tobytes()


@given(st.sets(st.integers(0, 255), min_size=1, max_size=CORNERS))
def test_the_channel_table_puts_each_main_value_on_its_own_corner(values):
    table = _onto_corners(values)
    assert len(table) == 256 and all(0 <= t <= 255 for t in table)
    assert all(a <= b for a, b in itertools.pairwise(table))  # monotone: nearness roughly kept
    assert all(table[v] % 4 == 0 for v in values)
    assert len({table[v] for v in values}) == len(values)


def test_the_four_seed_7_images_weigh_at_most_40_percent_each_within_1():
    """The issue's figure: the four seed-7 images of `python -m metrobot render`."""
    from bench.png_palette import seed7_images

    images = seed7_images()
    assert len(images) == 4
    before = after = 0
    for label, image, _ in images:
        lossless, png = encode_png(image, lossless=True), encode_png(image)
        before, after = before + len(lossless), after + len(png)
        assert max(difference(image, decoded(png))) <= 1.0, label
    assert after <= 0.40 * before
