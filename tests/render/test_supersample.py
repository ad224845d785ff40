"""`supersample.box_down` gives the pixels of Pillow's BOX resize, for every factor and mode."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from metrobot.render.supersample import box_down


@pytest.mark.parametrize("mode", ["RGB", "L", "RGBA", "1"])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 8])
def test_the_same_pixels_as_a_box_resize(mode, k):
    rnd = random.Random(k)  # (a fixed seed)
    for w, h in ((37, 23), (23, 37), (1, 1), (1, 4), (5, 64), (20, 40), (20, 41), (20, 60), (20, 61), (90, 7)):
        big = Image.frombytes("RGBA", (w * k, h * k), rnd.randbytes(w * k * h * k * 4)).convert(mode)
        assert box_down(big, (w, h)).tobytes() == big.resize((w, h), Image.Resampling.BOX).tobytes()
    flat = Image.new(mode, (40 * k + 1, 20 * k), "white")  # not a whole multiple: resize itself
    assert box_down(flat, (40, 20)).tobytes() == flat.resize((40, 20), Image.Resampling.BOX).tobytes()
