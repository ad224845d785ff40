"""Flip-and-write images: the round summary of a late 8-player game on Berlin.

Figures: render + PNG encode of the summary (what the bot does every round), the encode
alone, their ratio (target <= 2: drawing costs no more than encoding, because the map is
a cached static layer and a round only draws marks and text), and the PNG size (< 1 MB).
The sheet image of one player is timed too.

    .venv/bin/python -m bench.flipwrite_render
"""

from __future__ import annotations

import random
import statistics

from metrobot.games.flipwrite import GAME
from metrobot.render.flipwrite import sheet_image, summary_image
from metrobot.render.png import encode_png

from .timing import measure, ratio_line, summary, with_and_without

PLAYERS = [f"p{i}" for i in range(1, 9)]
NAMES = dict(zip(PLAYERS, ["Alice", "Bartholomew", "Chen", "Dörte", "Emeka", "Fatima", "Gustav", "Hiroko"]))


def late_state(seed: int = 7, left: int = 3):
    """An 8-player Berlin game `left` rounds before its end, mid-round (some have chosen)."""
    rnd = random.Random(seed)
    state = GAME.new_game(PLAYERS, {"map": "berlin"}, seed)
    history = [state]
    while not GAME.is_over(state):
        for p in sorted(GAME.to_move(state)):
            while p in GAME.to_move(state):
                state, _ = GAME.apply(state, p, GAME.auto_action(state, p, rnd))
        history.append(state)
    state = history[max(0, len(history) - 1 - left)]
    for p in PLAYERS[:3]:  # a few have sealed their decision already
        while p in GAME.to_move(state):
            state, _ = GAME.apply(state, p, GAME.auto_action(state, p, rnd))
    return state


def main() -> None:
    state = late_state()
    view = GAME.view(state, None)
    marks = sum(len(s["marks"]) for s in view["sheets"].values())
    image = summary_image(view, NAMES)  # warms the static-layer caches
    png = encode_png(image)
    print(
        f"late 8-player Berlin game, round {view['round']}, {marks} marks; summary {image.size[0]}x{image.size[1]}, "
        f"PNG {len(png) / 1024:.0f} KiB (target < 1024 KiB)"
    )
    both: list[float] = []
    alone: list[float] = []
    for _ in range(5):  # interleaved, so that both see the same machine load
        both += measure(lambda: encode_png(summary_image(view, NAMES)), runs=6, warmup=1)
        alone += measure(lambda: encode_png(image), runs=6, warmup=1)
    print(summary("summary: render + encode", both))
    print(summary("summary: encode alone", alone))
    ratio = statistics.median(both) / statistics.median(alone)
    print(f"{'summary: (render + encode) / encode':<48} ratio {ratio:8.2f}        target <= 2")
    me = GAME.view(state, PLAYERS[0])
    sheet = sheet_image(me, PLAYERS[0], NAMES)
    sheet_png = encode_png(sheet)
    print(f"sheet {sheet.size[0]}x{sheet.size[1]}, PNG {len(sheet_png) / 1024:.0f} KiB")
    print(summary("sheet: render + encode", measure(lambda: encode_png(sheet_image(me, PLAYERS[0], NAMES)), runs=20)))
    print(summary("sheet: encode alone", measure(lambda: encode_png(sheet), runs=20)))
    marks_cost(view, me)


def marks_cost(view, me) -> None:
    """The lines' letters at their far ends (issue 35) are in the cached map layer: a round
    costs the same with them (in a colour-vision palette) as without; drawing a new map's
    layer costs a little more."""
    from metrobot import render
    from metrobot.render.flipwrite import mapdraw

    def switch(flag: bool) -> None:
        mapdraw.MARKS = flag
        render.clear_caches()

    def both() -> None:
        encode_png(summary_image(view, NAMES, vision="deutan"))
        encode_png(sheet_image(me, PLAYERS[0], NAMES, vision="deutan"))

    after, before = with_and_without(both, switch, runs=4)
    print(summary("letters (deutan): summary+sheet, CPU", after))
    print(summary("no letters: summary+sheet, CPU", before))
    print(ratio_line("letters: with / without", after, before, "<= 1.10"))

    def cold() -> None:
        render.clear_caches()
        sheet_image(me, PLAYERS[0], NAMES, vision="deutan")

    from metrobot.render import labelcache

    labelcache.KEEP = False  # (the names placed every time, as on a map's first use)
    after, before = with_and_without(cold, switch, rounds=3, runs=2)
    labelcache.KEEP = True
    print(ratio_line("a new map's sheet layers: with / without", after, before, "(drawn once per map)"))


if __name__ == "__main__":
    main()
