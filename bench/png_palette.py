"""Posted images as indexed-colour PNG (`metrobot/render/png.py`) against today's truecolour PNG.

The images: the seed-7 self-play games of `python -m metrobot selfplay … --seed 7`, drawn
as `python -m metrobot render` draws them: On the Underground's and MetrOmania's 4-player
boards at the end, the 8-player flip-and-write game on Paris (its last summary) and the
first player's sheet of it. Per image: bytes truecolour vs indexed and their ratio, the
mean absolute difference per channel (0-255), and the time of render + encode before
(truecolour, level 1) and after (indexed), medians of interleaved runs so that both meet
the same machine load, with the static layers already cached as in a running bot.
Targets: the four together <= 40 % of the truecolour bytes, each difference <= 1.0, and
render + encode after <= before.

    python -m bench png_palette [--runs 15]
"""

from __future__ import annotations

import argparse
import gc
import io
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageChops, ImageStat

SEED = 7
# (label, game, players, options, viewer): the four images
CASES = [
    ("On the Underground, 4 players", "underground", 4, {}, None),
    ("MetrOmania, 4 players", "metromania", 4, {}, None),
    ("flip-and-write summary, 8 on Paris", "flipwrite", 8, {"map": "paris"}, None),
    ("flip-and-write sheet of p1", "flipwrite", 8, {"map": "paris"}, "p1"),
]


def seed7_images() -> list[tuple[str, Image.Image, Callable[[], Image.Image]]]:
    """(label, image, draw again) of each case whose game is registered and draws images."""
    from metrobot.games import all_plugins, get_plugin
    from metrobot.render import render_image

    known = {p.name for p in all_plugins() if p.renderer}
    games: dict[tuple, Any] = {}
    out = []
    for label, name, players, options, viewer in CASES:
        if name not in known:
            continue
        plugin = get_plugin(name)
        key = (name, players, tuple(sorted(options.items())))
        if key not in games:
            games[key] = plugin.self_play([f"p{i + 1}" for i in range(players)], options, SEED)[1]
        state = games[key]

        def draw(plugin=plugin, state=state, viewer=viewer) -> Image.Image:
            image = render_image(plugin.game, state, viewer)
            assert image is not None  # (every game measured here draws a board)
            return image

        out.append((label, draw(), draw))
    return out


def difference(image: Image.Image, png: bytes) -> list[float]:
    """Mean absolute difference per channel between an image and a PNG of it."""
    decoded = Image.open(io.BytesIO(png)).convert("RGB")
    return ImageStat.Stat(ImageChops.difference(image.convert("RGB"), decoded)).mean


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def main(argv: list[str] | None = None) -> None:
    from metrobot.render.png import encode_png

    parser = argparse.ArgumentParser(prog="python -m bench png_palette")
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each, interleaved")
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    images = seed7_images()
    print(f"seed-{SEED} images; times: medians of {args.runs} interleaved runs, static layers cached")
    print(
        f"  {'image':<36}{'truecolour':>11}{'indexed':>9}{'ratio':>7}  {'difference R, G, B':<19}"
        f"{'render+encode before':>21}{'after':>8}{'ratio':>7}   {'encode alone before':>19}{'after':>8}"
    )
    total_before = total_after = 0
    worst = 0.0
    slower = []
    for label, image, draw in images:
        lossless, indexed = encode_png(image, lossless=True), encode_png(image)
        diff = difference(image, indexed)
        before: list[float] = []
        after: list[float] = []
        enc_before: list[float] = []
        enc_after: list[float] = []
        encode_png(draw())
        gc.disable()
        try:
            for _ in range(args.runs):  # interleaved: a busy moment of the machine hits both alike
                before.append(timed(lambda: encode_png(draw(), lossless=True)))  # noqa: B023 - used within this iteration
                after.append(timed(lambda: encode_png(draw())))  # noqa: B023 - used within this iteration
                enc_before.append(timed(lambda: encode_png(image, lossless=True)))  # noqa: B023 - used within this iteration
                enc_after.append(timed(lambda: encode_png(image)))  # noqa: B023 - used within this iteration
        finally:
            gc.enable()
        b, a = statistics.median(before), statistics.median(after)
        total_before += len(lossless)
        total_after += len(indexed)
        worst = max(worst, *diff)
        if a > b:
            slower.append(label)
        print(
            f"  {label:<36}{len(lossless) / 1024:>7.0f} KiB{len(indexed) / 1024:>5.0f} KiB{len(indexed) / len(lossless):>7.1%}"
            f"  {', '.join(f'{d:.2f}' for d in diff):<19}{b:>18.1f} ms{a:>5.1f} ms{a / b:>7.2f}"
            f"   {statistics.median(enc_before):>16.1f} ms{statistics.median(enc_after):>5.1f} ms"
        )
    if not images:
        print("  no registered game draws these images")
        return
    ratio = total_after / total_before
    print(
        f"  {'all ' + str(len(images)):<36}{total_before / 1024:>7.0f} KiB{total_after / 1024:>5.0f} KiB{ratio:>7.1%}"
        f"  worst {worst:.2f}"
    )
    print(
        f"targets: bytes <= 40 % ({'met' if ratio <= 0.40 else 'NOT met'}), difference <= 1.0 per channel "
        f"({'met' if worst <= 1.0 else 'NOT met'}), render + encode no slower "
        f"({'met' if not slower else 'NOT met: ' + ', '.join(slower)})"
    )


if __name__ == "__main__":
    main()
