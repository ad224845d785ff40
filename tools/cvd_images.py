"""Writes the docs' before/after pictures of a board to docs/accessibility/: the same
On the Underground position (seed 7, 3 players, late in the game) as drawn before issue 35
and now, each with normal vision and as a person with deuteranopia sees it (coloraide,
Machado 2009, full severity):

    before.png, before-deutan.png   the code of an older checkout (`--before DIR`)
    after.png                       this code, the default palette
    after-deutan.png                this code in the deutan palette, seen with deuteranopia
    after-off-deutan.png            this code in the default palette, seen with deuteranopia
                                    (a channel whose people set nothing: the marks alone)

    mkdir /tmp/before && git archive 1f60fa4 | tar -x -C /tmp/before   # before issue 35
    .venv/bin/python -m tools.cvd_images --before /tmp/before

Each picture is a phone-sized part of the board at the size it is posted (CROP).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from coloraide import Color
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot.render.png import encode_png  # noqa: E402

OUT = ROOT / "docs" / "accessibility"
CROP = (560, 300, 1360, 820)  # central London: 800 x 520 px of the 2190 x 1120 board
SEED, PLAYERS, FRACTION = 7, 3, 0.85

DRAW = """
import sys
from metrobot.gamelog import self_play
from metrobot.games.underground import GAME
from metrobot.render import render_image
states = []
self_play(GAME, ["p1", "p2", "p3"][:{players}], {{}}, {seed}, each=states.append)
start = int(len(states) * {fraction})
state = next((s for s in states[start:] if len(s.turn.placements) >= 2 and s.phase != "finished"), states[start])
kw = {{"vision": sys.argv[2]}} if sys.argv[2] != "-" else {{}}
render_image(GAME, state, None, {{"p1": "Ann", "p2": "Bob", "p3": "Cat"}}, "en", **kw).save(sys.argv[1])
"""


def draw(root: Path, vision: str | None) -> Image.Image:
    """The board drawn by the code under `root` (in a process of its own)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "board.png"
        code = DRAW.format(players=PLAYERS, seed=SEED, fraction=FRACTION)
        subprocess.run(
            [sys.executable, "-c", code, str(out), vision or "-"],
            cwd=root,
            check=True,
            env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        )
        return Image.open(out).convert("RGB").crop(CROP)


def simulate(image: Image.Image, deficiency: str) -> Image.Image:
    """The image as seen with `deficiency` at full severity (each distinct colour once)."""
    method = "brettel" if deficiency == "tritan" else "machado"
    seen = {}
    # Never None (room for a colour a pixel); RGB: each colour is (r, g, b).
    for _, rgb in cast("list[tuple[int, tuple[int, int, int]]]", image.getcolors(image.width * image.height)):
        c = Color("srgb", [v / 255 for v in rgb]).filter(deficiency, 1, method=method, in_place=False)
        seen[rgb] = tuple(round(v * 255) for v in c.convert("srgb").clip().coords())
    out = Image.new("RGB", image.size)
    out.putdata([seen[p] for p in image.get_flattened_data()])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.cvd_images", description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--before", type=Path, help="a checkout of the code before issue 35 (for before*.png)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    pictures = {"after.png": draw(ROOT, "off")}
    pictures["after-off-deutan.png"] = simulate(pictures["after.png"], "deutan")
    pictures["after-deutan.png"] = simulate(draw(ROOT, "deutan"), "deutan")
    if args.before:
        pictures["before.png"] = draw(args.before.resolve(), None)
        pictures["before-deutan.png"] = simulate(pictures["before.png"], "deutan")
    for name, image in pictures.items():
        (OUT / name).write_bytes(encode_png(image))
        print(f"wrote {(OUT / name).relative_to(ROOT)} ({(OUT / name).stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
