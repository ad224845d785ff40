"""The pictures' pixels before and after a change to the drawing code (a check, not a timing).

`dump DIR` draws a fixed set of pictures — every game's seed-7 self-play board at several
moments, for every seat and the spectator, in several languages and colour-vision palettes,
the flip-and-write sheets and summaries on every map, the benchmarks' images — and writes each
picture's raw RGB pixels as drawn and as decoded from the indexed PNG the bot posts.
`compare A B` says which pictures differ. Run `dump` with the old code and the new (e.g. an
old checkout on PYTHONPATH), then `compare`:

    python -m bench.picture_pixels dump /tmp/new
    python -m bench.picture_pixels compare /tmp/old /tmp/new
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path

from PIL import Image

LANGS = ("en", "ja", "ko", "de")
VISIONS = ("off", "deuteranopia")


def pictures():
    """(name, image) of every picture checked."""
    from metrobot.gamelog import self_play
    from metrobot.games import get_plugin
    from metrobot.render import clear_caches, render_image

    cases = [
        ("underground", 4, {}),
        ("underground", 2, {"map": "berlin"}),
        ("metromania", 4, {}),
        ("metromania", 2, {}),
        ("flipwrite", 8, {"map": "paris"}),
        ("flipwrite", 3, {"map": "berlin"}),
        ("flipwrite", 1, {"map": "amsterdam"}),
        ("flipwrite", 4, {"map": "madrid", "special_stations": True}),
    ]
    names = {"p1": "Ann", "p2": "Bartholomew", "p3": "김민준", "p4": "山田太郎 🚇", "p5": "Ђорђе", "p6": "Zoë 🫶"}
    for game_name, players, options in cases:
        game = get_plugin(game_name).game
        states = []
        try:
            self_play(game, [f"p{i + 1}" for i in range(players)], options, 7, each=states.append)
        except TypeError:
            states = [game.new_game([f"p{i + 1}" for i in range(players)], options, 7)]
        picks = sorted({0, len(states) // 3, (len(states) * 9) // 10, len(states) - 1})
        for n, at in enumerate(picks):
            state = states[at]
            viewers = [None] + [f"p{i + 1}" for i in range(players)]
            for viewer in viewers if n == len(picks) - 2 else viewers[:2]:
                for lang in LANGS if viewer is None else ("en",):
                    for vision in VISIONS if lang == "en" else ("off",):
                        tag = f"{game_name}-{players}-{'-'.join(f'{k}={v}' for k, v in options.items())}-{at}-{viewer}-{lang}-{vision}"
                        image = render_image(game, state, viewer, names, lang, vision)
                        if image is not None:
                            yield tag, image
        clear_caches()  # the next drawn from scratch too


def bench_pictures():
    from bench import flipwrite_render, metromania_render, underground_render
    from bench.png_palette import seed7_images
    from metrobot.games import get_plugin
    from metrobot.render import render_image

    for label, image, _ in seed7_images():
        yield "png_palette " + label, image
    state = flipwrite_render.late_state()
    game = get_plugin("flipwrite").game
    for viewer in (None, "p1"):
        image = render_image(game, state, viewer, flipwrite_render.NAMES)
        if image is not None:
            yield f"flipwrite_render {viewer}", image
    u = underground_render.late_game()
    yield "underground_render", underground_render.render_image(underground_render.GAME, u, u.players[0])
    m = metromania_render.late_game()
    yield "metromania_render", metromania_render.render_image(metromania_render.GAME, m, m.players[0])


def dump(folder: Path) -> None:
    from metrobot.render.png import encode_png

    folder.mkdir(parents=True, exist_ok=True)
    index = {}
    for name, image in (*pictures(), *bench_pictures()):
        rgb = image.convert("RGB")
        posted = Image.open(io.BytesIO(encode_png(image))).convert("RGB")
        key = hashlib.sha256(name.encode()).hexdigest()[:16]
        (folder / f"{key}.drawn").write_bytes(rgb.tobytes())
        (folder / f"{key}.posted").write_bytes(posted.tobytes())
        index[name] = [key, image.mode, list(image.size)]
    (folder / "index.json").write_text(json.dumps(index, indent=1))
    print(f"{len(index)} pictures in {folder}")


def compare(a: Path, b: Path) -> int:
    ia, ib = (json.loads((f / "index.json").read_text()) for f in (a, b))
    bad = sorted(set(ia) ^ set(ib))
    for name in sorted(set(ia) & set(ib)):
        key = ia[name][0]
        if ia[name] != ib[name] or any(
            (a / f"{key}.{kind}").read_bytes() != (b / f"{key}.{kind}").read_bytes() for kind in ("drawn", "posted")
        ):
            bad.append(name)
    for name in bad:
        print("differs:", name)
    print(f"{len(ia)} pictures, {len(bad)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(Path(sys.argv[2]))
    else:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
