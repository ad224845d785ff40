"""Chooses the colour-vision palettes of the images and writes them to metrobot/render/palettes.json.

    .venv/bin/python -m tools.palettes            # every set, every key (a few minutes)
    .venv/bin/python -m tools.palettes --report   # the stored palettes' closest pairs, nothing written

A *set* is colours that can share one image: a game's lines and highlights, the players'
colours, a packaged map's lines (each game's image package lists its own in
`palette_sets()`; the players' colours are `metrobot.render.style`'s). For every palette key but
"off" (`metrobot.render.vision.KEYS`: a deficiency or a mix) and every set, a seeded local search
(simulated annealing) moves the set's colours to make the closest pair as far apart as it
can, the distance of a pair being the smallest CIEDE2000 difference between the two
colours seen with normal vision and with each deficiency of the key, simulated at full
severity (Machado 2009 for protan and deutan, Brettel 1997 for tritan; coloraide's
filters). Normal vision counts too: the other people at the table see the same picture.

Each colour stays recognisably itself: at most `DRIFT` (CIEDE2000, normal vision) from the
game's own colour, its hue within `HUE` degrees (a colour with little chroma stays greyish);
some keep their colour (`fixed`: white and black). Each stays `BACKGROUND_DE` from the
paper it is drawn on (unless it is drawn with a dark casing). Beyond `CAP` a pair counts
no more, so the search then spends its moves on the next closest pairs and on staying near
the original colours (`DRIFT_WEIGHT`).

The output is data: the bot needs no colour science at run time.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import math
import random
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from coloraide import Color

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot.render.vision import DATA, KEYS, PaletteSet, deficiencies  # noqa: E402

TARGET = 10.0  # what the tests require of every pair (CIEDE2000)
CAP = 14.0  # pairs farther apart than this count as this far (a margin over TARGET)
DRIFT = 32.0  # how far a colour may move from the game's own (CIEDE2000, normal vision)
HUE = 38.0  # degrees of hue a colour may turn (colours with chroma over GREYISH)
GREYISH = 14.0  # a colour with less chroma than this is a grey; it stays under 2 x this
BACKGROUND_DE = 12.0
DRIFT_WEIGHT = 0.08
STEPS = 9000
RESTARTS = 3
SEED = 35
METHODS = {"protan": "machado", "deutan": "machado", "tritan": "brettel"}

Colour = tuple[int, int, int]


# ---------------------------------------------------------------- colour science
def _hex(c: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


_LAB: dict[tuple[Colour, str], Color] = {}


def seen(c: Colour, condition: str) -> Color:
    """`c` (sRGB 0-255) as seen with `condition` ("normal" or a deficiency), in Lab D65."""
    key = (c, condition)
    hit = _LAB.get(key)
    if hit is None:
        colour = Color("srgb", [v / 255 for v in c])
        if condition != "normal":
            colour = colour.filter(condition, 1, method=METHODS[condition], in_place=False).clip()
        hit = _LAB[key] = colour.convert("lab-d65")
    return hit


def distance(a: Colour, b: Colour, conditions: Sequence[str]) -> float:
    return min(seen(a, c).delta_e(seen(b, c), method="2000") for c in conditions)


def conditions_of(key: str) -> tuple[str, ...]:
    return ("normal",) + deficiencies(key)


def closest(colours: dict[str, Colour], condition: str, pairs=None) -> tuple[float, str, str]:
    """The closest pair of a set under one condition: (distance, a, b)."""
    pairs = pairs if pairs is not None else itertools.combinations(colours, 2)
    return min((distance(colours[a], colours[b], (condition,)), a, b) for a, b in pairs)


# ---------------------------------------------------------------- the search
@dataclass
class Problem:
    names: list[str]
    original: dict[str, Colour]
    fixed: set[str]
    background: Colour
    cased: set[str]
    conditions: tuple[str, ...]
    pairs: list[tuple[str, str]]

    def allowed(self, name: str, c: Colour) -> bool:
        if name in self.fixed:
            return c == self.original[name]
        o = seen(self.original[name], "normal")
        n = seen(c, "normal")
        if o.delta_e(n, method="2000") > DRIFT:
            return False
        lo, ln = o.convert("lch-d65"), n.convert("lch-d65")
        if lo["c"] < GREYISH:
            return ln["c"] < 2 * GREYISH
        turn = abs((ln["h"] - lo["h"] + 180) % 360 - 180)
        return turn <= HUE and ln["c"] >= 0.45 * lo["c"]

    def own_cost(self, name: str, c: Colour) -> float:
        """What a colour costs alone: its drift, and coming too near the paper."""
        cost = DRIFT_WEIGHT * seen(self.original[name], "normal").delta_e(seen(c, "normal"), method="2000")
        if name not in self.cased:
            near = distance(c, self.background, self.conditions)
            cost += 4.0 * max(0.0, BACKGROUND_DE - near) ** 2
        return cost


def pair_cost(d: float) -> float:
    return max(0.0, CAP - d) ** 2


def optimise(problem: Problem, seed: int, steps: int = STEPS) -> dict[str, Colour]:
    """A palette for `problem`: simulated annealing from the original colours."""
    rng = random.Random(seed)
    cur = dict(problem.original)
    movable = [n for n in problem.names if n not in problem.fixed]
    d = {p: distance(cur[p[0]], cur[p[1]], problem.conditions) for p in problem.pairs}
    by_name = {n: [p for p in problem.pairs if n in p] for n in problem.names}

    def total(dist: dict, colours: dict) -> float:
        worst = min(dist.values())
        return (
            60.0 * max(0.0, CAP - worst)
            + sum(pair_cost(v) for v in dist.values())
            + sum(problem.own_cost(n, colours[n]) for n in problem.names)
        )

    cost = total(d, cur)
    best, best_cost = dict(cur), cost
    for step in range(steps):
        heat = 1.0 - step / steps
        sigma = 4 + 36 * heat
        temperature = 0.02 + 3.0 * heat**2
        name = rng.choice(movable)
        old = cur[name]
        r, g, b = (min(255, max(0, round(v + rng.gauss(0, sigma)))) for v in old)
        new = (r, g, b)
        if new == old or not problem.allowed(name, new):
            continue
        cur[name] = new
        changed = {p: distance(cur[p[0]], cur[p[1]], problem.conditions) for p in by_name[name]}
        trial = {**d, **changed}
        new_cost = total(trial, cur)
        if new_cost <= cost or rng.random() < math.exp((cost - new_cost) / temperature):
            d, cost = trial, new_cost
            if cost < best_cost:
                best, best_cost = dict(cur), cost
        else:
            cur[name] = old
    return best


def worst_pair(colours: dict[str, Colour], key: str, pairs: list[tuple[str, str]]) -> tuple[float, str, str]:
    return min((distance(colours[a], colours[b], conditions_of(key)), a, b) for a, b in pairs)


def choose(name: str, pset: PaletteSet, key: str) -> dict[str, Colour]:
    problem = Problem(
        list(pset.originals),
        dict(pset.originals),
        set(pset.fixed),
        pset.background,
        set(pset.cased),
        conditions_of(key),
        list(itertools.combinations(pset.originals, 2)),
    )
    tries = [optimise(problem, seed=zlib.crc32(f"{SEED}/{name}/{key}/{r}".encode())) for r in range(RESTARTS)]

    def rank(colours):
        w = worst_pair(colours, key, problem.pairs)[0]
        return (min(w, CAP), -sum(problem.own_cost(n, colours[n]) for n in problem.names))

    return max(tries, key=rank)


# ---------------------------------------------------------------- the sets
def current_sets() -> dict[str, PaletteSet]:
    """Every set of colours with palettes: the players' colours and each game's own."""
    from metrobot.games import all_plugins
    from metrobot.render.style import palette_sets as shared

    sets = dict(shared())
    for plugin in all_plugins():
        if plugin.renderer and plugin.renderer.startswith("metrobot.render."):
            hook = getattr(importlib.import_module(plugin.renderer), "palette_sets", None)
            sets.update(hook() if hook else {})
    return sets


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.palettes", description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--report", action="store_true", help="print the stored palettes' closest pairs")
    parser.add_argument("--only", help="choose the palettes of this set only (the others are kept)")
    args = parser.parse_args(argv)
    stored = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {"sets": {}}
    sets = current_sets()
    if args.report:
        for name, entry in stored["sets"].items():
            for key, worst in entry["worst"].items():
                print(f"{name:24} {key:22} {worst[0]:5.1f}  {worst[1]} / {worst[2]}")
        return 0
    out = {
        "about": "Written by tools/palettes.py (see its docstring): do not edit by hand.",
        "method": {
            "distance": "CIEDE2000",
            "severity": 1.0,
            "simulation": METHODS,
            "target": TARGET,
            "drift": DRIFT,
            "hue": HUE,
            "seed": SEED,
        },
        "sets": {},
    }
    for name, pset in sets.items():
        if args.only and name != args.only and name in stored["sets"]:
            out["sets"][name] = stored["sets"][name]
            continue
        pairs = list(itertools.combinations(pset.originals, 2))
        entry = {"off": {k: _hex(v) for k, v in pset.originals.items()}, "palettes": {}, "worst": {}}
        for key in KEYS[1:]:
            started = time.monotonic()
            chosen = choose(name, pset, key)
            worst = worst_pair(chosen, key, pairs)
            before = worst_pair(pset.originals, key, pairs)
            entry["palettes"][key] = {k: _hex(v) for k, v in chosen.items()}
            entry["worst"][key] = [round(worst[0], 2), worst[1], worst[2], round(before[0], 2)]
            print(
                f"{name:24} {key:22} {before[0]:5.1f} -> {worst[0]:5.1f} ({worst[1]} / {worst[2]}) "
                f"{time.monotonic() - started:.0f} s",
                flush=True,
            )
        out["sets"][name] = entry
    DATA.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
