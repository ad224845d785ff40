"""MetrOmania image speed: a late-game 4-player board.

(a) full render + PNG encode, (b) PNG encode alone of the same final image, both medians
of repeated runs in one process. Target: (a) / (b) <= 2.0, i.e. drawing a turn costs no
more than encoding it, thanks to the cached static layer.
"""

from __future__ import annotations

import statistics
from typing import Any

from PIL import Image

from metrobot.gamelog import self_play
from metrobot.games.metromania import GAME
from metrobot.render import render_image as render_any
from metrobot.render.png import encode_png

from .timing import measure, measure_pair, ratio_line, summary, with_and_without


def render_image(game: Any, state: Any, viewer: str | None = None, vision: str = "off") -> Image.Image:
    """The board (this game always draws one: render_image is None only for a game without pictures)."""
    image = render_any(game, state, viewer, vision=vision)
    assert image is not None
    return image


def late_game():
    log, _ = self_play(GAME, ["p1", "p2", "p3", "p4"], {}, 7)
    state = GAME.new_game(log.players, log.options, log.seed)
    for entry in log.actions[: int(len(log.actions) * 0.9)]:
        state, _ = GAME.apply(state, entry["player"], entry["action"])
    return state


def main() -> None:
    state = late_game()
    viewer = state.players[0]
    image = render_image(GAME, state, viewer)  # warms the static-layer cache, as a running bot has
    png = encode_png(image)
    full, encode = measure_pair(
        lambda: encode_png(render_image(GAME, state, viewer)), lambda: encode_png(image), runs=30
    )
    draw = measure(lambda: render_image(GAME, state, viewer), runs=30)
    print(
        f"late-game board: {len(state.stations)} stations, image {image.size[0]}x{image.size[1]}, "
        f"PNG {len(png) // 1024} KiB"
    )
    print(summary("(a) full render + PNG encode", full))
    print(summary("(b) PNG encode alone", encode))
    print(summary("    drawing alone (for reference)", draw))
    ratio = statistics.median(full) / statistics.median(encode)
    print(f"{'ratio (a)/(b) of medians':<48} {ratio:8.2f}        target <= 2.0")
    from metrobot.render.metromania.board import _IMAGES, clear_caches

    cold = measure(lambda: (clear_caches(), render_image(GAME, state, viewer)), runs=5, warmup=0)
    print(summary("first render of a new board (static layer drawn)", cold))
    render_image(GAME, state, viewer)
    packed = measure(lambda: (_IMAGES.clear(), render_image(GAME, state, viewer)), runs=10, warmup=1)
    print(summary("render of a board evicted to the packed cache", packed))
    marks_cost(state, viewer)


def marks_cost(state, viewer) -> None:
    """The players' numbers on their lines and markers (issue 35): render + encode with
    them (in a colour-vision palette) against without them."""
    from metrobot.render.metromania import pieces

    def switch(flag: bool) -> None:
        pieces.MARKS = flag

    after, before = with_and_without(lambda: encode_png(render_image(GAME, state, viewer, vision="tritan")), switch)
    print(summary("numbers (tritan): render + encode, CPU", after))
    print(summary("no numbers: render + encode, CPU", before))
    print(ratio_line("numbers: with / without", after, before, "<= 1.10"))


if __name__ == "__main__":
    main()
