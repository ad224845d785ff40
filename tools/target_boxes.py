"""Draws the tap targets of a play page over a board picture, to look at them: every box
`metrobot.render.board_targets` gives the steps of one seat, outlined, its centre dotted and, where
several steps share it (a chooser), their number beside it; the steps with no spot are
printed. The position comes from a seeded self-play of the game (automatic players).

    .venv/bin/python -m tools.target_boxes underground --options '{"map": "london"}' \\
        --players 5 --seed 7 --at 0.6 --out /tmp/london.png
    .venv/bin/python -m tools.target_boxes metromania --players 3 --at 0.5 --crop --out /tmp/mm.png

`--at` picks the position (a fraction of the game's states, mid-turn ones included);
`--code` the first position from there where one of the steps starts with it (e.g. `p:`,
`st:`, `r:`); `--crop` keeps the part of the picture around the targets, `--scale 2` enlarges it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot.games import get_plugin  # noqa: E402
from metrobot.render import board_targets, render_image  # noqa: E402
from metrobot.render.style import font  # noqa: E402

OUTLINE, FILL, DOT = (220, 0, 160, 255), (220, 0, 160, 50), (0, 0, 0, 255)


def positions(game: str, players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every state of a seeded self-play (greedy players, a short budget each)."""
    plugin = get_plugin(game)
    states: list[Any] = []
    plugin.self_play([f"p{i + 1}" for i in range(players)], options, seed, seconds=0.05, each=states.append)
    return states


def overlay(image: Image.Image, codes: list[str], boxes: list[Any]) -> Image.Image:
    """The picture with each box outlined and its centre dotted; a shared box says how many
    steps it holds."""
    shared: dict[tuple, list[str]] = defaultdict(list)
    for code, box in zip(codes, boxes):
        if box is not None:
            shared[tuple(box)].append(code)
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    for (x, y, w, h), held in shared.items():
        d.rectangle([x, y, x + w - 1, y + h - 1], fill=FILL, outline=OUTLINE, width=2)
        cx, cy = x + w / 2, y + h / 2
        d.ellipse([cx - 2, cy - 2, cx + 2, cy + 2], fill=DOT)
        if len(held) > 1:
            d.text((x + w + 1, y - 2), str(len(held)), font=font(13, True), fill=OUTLINE)
    return Image.alpha_composite(image.convert("RGBA"), layer).convert("RGB")


def around(boxes: list[Any], size: tuple[int, int], margin: int = 80) -> tuple[int, int, int, int]:
    placed = [b for b in boxes if b is not None]
    if not placed:
        return (0, 0, *size)
    left = max(0, min(b[0] for b in placed) - margin)
    top = max(0, min(b[1] for b in placed) - margin)
    right = min(size[0], max(b[0] + b[2] for b in placed) + margin)
    bottom = min(size[1], max(b[1] + b[3] for b in placed) + margin)
    return left, top, right, bottom


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--options", default="{}", help="the engine's options, as JSON")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--at", type=float, default=0.5)
    parser.add_argument("--code", default="", help="a position where a step starts with this")
    parser.add_argument("--crop", action="store_true")
    parser.add_argument("--lang", default="en", help="the picture's language (the boxes are the same in all)")
    parser.add_argument("--scale", type=float, default=1.0, help="enlarge the saved picture")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    plugin = get_plugin(args.game)
    states = positions(args.game, args.players, json.loads(args.options), args.seed)
    start = min(len(states) - 1, int(len(states) * args.at))
    for state in states[start:]:
        moving = sorted(plugin.game.to_move(state))
        if not moving:
            continue
        seat = moving[0]
        codes = [c.code for c in plugin.choices(state, seat)]
        if any(code.startswith(args.code) for code in codes):
            break
    else:
        print("no such position", file=sys.stderr)
        return 1
    viewer = plugin.game.owner(state, seat)
    size, boxes = board_targets(plugin.game, state, viewer, codes, None, args.lang, seat=seat)
    image = render_image(plugin.game, state, viewer, None, args.lang)
    assert image is not None  # (the games with targets draw boards)
    picture = overlay(image, codes, boxes)
    assert picture.size == size
    if args.crop:
        picture = picture.crop(around(boxes, size))
    if args.scale != 1.0:
        picture = picture.resize((round(picture.width * args.scale), round(picture.height * args.scale)))
    picture.save(args.out)
    off = [code for code, box in zip(codes, boxes) if box is None]
    spots = len({tuple(b) for b in boxes if b is not None})
    sides = [min(b[2], b[3]) for b in boxes if b is not None]
    print(
        f"{args.out}: state {states.index(state)} of {len(states)}, {seat} to move: {len(codes)} steps, "
        f"{spots} spots (smallest side {min(sides, default=0)} px), beside the board: {off}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
