"""Label geometry (metrobot/render/rects.py): the sum of segments' lengths inside a rectangle
that skips the segments far outside is the same float as measuring every one."""

from __future__ import annotations

import random

from metrobot.render.rects import bounded, clip_len, clip_len_sum


def test_clip_len_sum_is_the_sum_of_every_clip_len():
    rnd = random.Random(5)  # (a fixed seed)

    def coordinate() -> float:
        return rnd.choice([rnd.uniform(0, 200), float(rnd.randint(0, 40) * 5), rnd.randint(0, 400) / 2])

    for _ in range(3000):
        segments = [((coordinate(), coordinate()), (coordinate(), coordinate())) for _ in range(rnd.randint(0, 30))]
        segments += [((x, y), (x, y + 10.0)) for (x, y), _ in segments[:1]]  # upright
        x0, y0 = coordinate(), coordinate()
        r = (x0, y0, x0 + rnd.choice([0.0, 1.0, 20.0, rnd.uniform(0, 80)]), y0 + rnd.uniform(0, 80))
        expected = sum(clip_len(p, q, r) for p, q in segments)
        assert clip_len_sum(bounded(segments), r) == expected
