"""On the Underground image speed: a late-game 4-player board.

(a) full render + PNG encode, (b) PNG encode alone of the same final image, both medians
of repeated runs in one process. Target: (a) / (b) <= 2.0, i.e. drawing a turn costs no
more than encoding it, thanks to the cached static layer. Also: the PNG's size and the
first render of a new board (the static layer drawn: stations, badges, name layout; then
read back from the user's cache as the bot's processes do, `metrobot/render/keptlayers.py`).
"""

from __future__ import annotations

import statistics
from typing import Any

from PIL import Image

from metrobot.gamelog import self_play
from metrobot.games.underground import GAME
from metrobot.render import render_image as render_any
from metrobot.render.png import encode_png

from .timing import measure, measure_pair, ratio_line, summary, with_and_without


def render_image(game: Any, state: Any, viewer: str | None = None, vision: str = "off") -> Image.Image:
    """The board (this game always draws one: render_image is None only for a game without pictures)."""
    image = render_any(game, state, viewer, vision=vision)
    assert image is not None
    return image


def late_game():
    """90% into a seeded 4-player self-play game, in the middle of a turn when possible."""
    states = []
    self_play(GAME, ["p1", "p2", "p3", "p4"], {}, 7, each=states.append)
    start = int(len(states) * 0.9)
    return next((s for s in states[start:] if s.turn.placements and s.phase != "finished"), states[start])


def main() -> None:
    state = late_game()
    viewer = state.players[0]
    image = render_image(GAME, state, viewer)  # warms the static-layer cache, as a running bot has
    png = encode_png(image)
    full, encode = measure_pair(
        lambda: encode_png(render_image(GAME, state, viewer)), lambda: encode_png(image), runs=20
    )
    draw = measure(lambda: render_image(GAME, state, viewer), runs=20)
    pieces = sum(len(c.track) for c in state.colours.values())
    print(
        f"late-game board: turn {state.turn_count + 1}, {pieces} pieces, image {image.size[0]}x{image.size[1]}, "
        f"PNG {len(png) // 1024} KiB"
    )
    print(summary("(a) full render + PNG encode", full))
    print(summary("(b) PNG encode alone", encode))
    print(summary("    drawing alone (for reference)", draw))
    ratio = statistics.median(full) / statistics.median(encode)
    print(f"{'ratio (a)/(b) of medians':<48} {ratio:8.2f}        target <= 2.0")
    from metrobot.render import keptlayers, labelcache
    from metrobot.render.underground.static import clear_cache

    kept = measure(lambda: (clear_cache(), render_image(GAME, state, viewer)), runs=3, warmup=1)
    labelcache.KEEP = False
    cold = measure(lambda: (clear_cache(), render_image(GAME, state, viewer)), runs=3, warmup=0)
    labelcache.KEEP = True
    keptlayers.keep_between_runs()  # (as the bot: the layer itself read back, once kept by the warm-up)
    layer = measure(lambda: (clear_cache(), render_image(GAME, state, viewer)), runs=3, warmup=1)
    keptlayers.keep_between_runs(False)
    print(summary("first render of a new board (static layer drawn)", cold))
    print(summary("  the same, its names' places kept from a run before", kept))
    print(summary("  the same, the whole layer kept (the bot's processes)", layer))
    marks_cost(state, viewer)


def marks_cost(state, viewer) -> None:
    """The line codes (issue 35) cost: render + encode with them (in a colour-vision
    palette: its colours are looked up, never computed) against without them."""
    from metrobot.render.underground import tags

    def switch(flag: bool) -> None:
        tags.MARKS = flag

    after, before = with_and_without(lambda: encode_png(render_image(GAME, state, viewer, vision="deutan")), switch)
    print(summary("line codes (deutan): render + encode, CPU", after))
    print(summary("no line codes: render + encode, CPU", before))
    print(ratio_line("line codes: with / without", after, before, "<= 1.10"))


if __name__ == "__main__":
    main()
