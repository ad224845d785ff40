"""Station names on a metro map: where each goes, so names stay readable.

Every name tries spots around its dot: right, left, above, below, the diagonals, slid
along the dot, a little further out, on one to three lines, abbreviated ("Straße" ->
"Str."), a size smaller, and at last at 45 degrees (how metro maps name the stations of a
crowded horizontal line). Each spot has a cost: overlapping another name, a dot, a badge,
running over a line, leaving the map, sitting nearer to another dot than to its own (whose
name is it?), plus a small preference order. Names are placed greedily, most crowded
first, then each is re-placed against all the others until nothing improves. This runs
once per map and size (the static layer is cached), in a second or so for the largest map,
and the answer is kept between runs (`labelcache.py`).

The spots and their costs are in `labelspots.py`, a name's text (abbreviations, line breaks)
in `labeltext.py`; here is the search among the spots, and the drawing of the names chosen.
"""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from .labelcache import kept_between_runs
from .labelspots import (
    ABBREVIATED,
    HINTS,
    LINE_HEIGHT,
    SMALLER,
    W_NAME,
    WRAPPED,
    Cand,
    Label,
    Surroundings,
    diagonal,
    flat,
)
from .labeltext import abbreviate, wrappings
from .rects import Point, Rect, grow, overlap
from .style import INK, font


def search_labels(
    stations: list[tuple[str, str, Point, float]],
    segments: list[tuple[Point, Point]],
    radius: float,
    line_width: float,
    size: int,
    obstacles: list[Rect],
    bounds: Rect,
    explain: dict | None = None,
    hints: dict[str, str] | None = None,
) -> list[Label]:
    """Names for `stations` [(id, name, dot centre, dot radius)] on a map with these line `segments`; `radius`
    is the usual dot radius (a special station's star is bigger). `explain`, if given, receives every station's
    spots with their fixed and overlap costs (for tuning the weights). `hints` {id: a side of HINTS}: the
    preferred sides of the names."""
    segs = [(p, q, min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])) for p, q in segments]
    pts = {sid: xy for sid, _, xy, _ in stations}
    radii = {sid: r for sid, _, _, r in stations}
    reach = 3.2 * radius + font(size).getlength("M" * 14)
    cands: dict[str, list[Cand]] = {}
    for sid, name, (sx, sy), own_r in stations:
        env = Surroundings(
            dots=[
                (x - radii[o] - 1, y - radii[o] - 1, x + radii[o] + 1, y + radii[o] + 1)
                for o, (x, y) in pts.items()
                if o != sid and abs(x - sx) < reach and abs(y - sy) < reach
            ],
            segs=[
                g for g in segs if g[2] < sx + reach and g[3] > sx - reach and g[4] < sy + reach and g[5] > sy - reach
            ],
            obstacles=[
                r
                for r in obstacles
                if r[0] < sx + reach and r[2] > sx - reach and r[1] < sy + reach and r[3] > sy - reach
            ],
            points=[(x, y) for o, (x, y) in pts.items() if o != sid and abs(x - sx) < reach and abs(y - sy) < reach],
        )
        short = abbreviate(name)
        hint = HINTS.get((hints or {}).get(sid, ""))
        out: list[Cand] = []
        # full size first; farther spots, a smaller size and diagonals only when few clean spots exist
        for stage in range(4):
            if sum(1 for c in out if c.static < 20) >= 4:
                break
            fs, extra = (size, 0.0) if stage < 2 else (size - 2, SMALLER)
            if stage == 3:
                for text, tc in ((name, 0.0), (short, ABBREVIATED)) if short != name else ((name, 0.0),):
                    for fsz, ex in ((size, 0.0), (size - 2, SMALLER)):
                        out += diagonal(sid, (sx, sy), text, fsz, tc + ex, own_r, line_width, env, bounds)
                continue
            texts = [(lines, extra + WRAPPED * i) for i, lines in enumerate(wrappings(name, fs))]
            if short != name:
                texts += [(lines, extra + ABBREVIATED + WRAPPED * i) for i, lines in enumerate(wrappings(short, fs))]
            fars = (1.0,) if stage == 0 else ((1.8,) if stage == 1 else (1.0, 1.8))
            for lines, text_cost in texts:
                for far in fars:
                    out += flat(sid, (sx, sy), lines, fs, text_cost, far, own_r, line_width, env, bounds, hint)
        if not out:  # nothing fits inside the bounds: below the dot, pushed inside
            fs = size - 2
            w, h = font(fs).getlength(name), fs * LINE_HEIGHT
            left = min(max(bounds[0], sx - w / 2), bounds[2] - w)
            top = min(sy + own_r + 4, bounds[3] - h)
            rect = (left, top, left + w, top + h)
            out.append(
                Cand(
                    Label(
                        sid, (name,), rect, "m", fs, 0.0, ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2), (rect,)
                    ),
                    1e6,
                )
            )
        cands[sid] = out

    ids = [sid for sid, _, _, _ in stations]
    near: dict[str, list[str]] = {sid: [] for sid in ids}
    for i, a in enumerate(ids):
        ax, ay = pts[a]
        for b in ids[i + 1 :]:
            bx, by = pts[b]
            if abs(ax - bx) < 2 * reach and abs(ay - by) < 2 * reach:
                near[a].append(b)
                near[b].append(a)
    for sid in cands:  # the 60 cheapest spots are plenty to choose from
        cands[sid] = sorted(cands[sid], key=lambda c: c.static)[:60]
    static = {c.label: c.static for cl in cands.values() for c in cl}
    reach_box = {
        sid: (
            min(c.label.rect[0] for c in cl) - 2,
            min(c.label.rect[1] for c in cl) - 2,
            max(c.label.rect[2] for c in cl) + 2,
            max(c.label.rect[3] for c in cl) + 2,
        )
        for sid, cl in cands.items()
    }
    chosen: dict[str, Label] = {}

    def clash(a: Label, o: Label) -> float:
        ar, orr = a.rect, o.rect
        if ar[0] - 2 >= orr[2] or ar[2] + 2 <= orr[0] or ar[1] - 2 >= orr[3] or ar[3] + 2 <= orr[1]:
            return 0.0
        if len(a.boxes) == 1 and len(o.boxes) == 1:
            return W_NAME * overlap(grow(ar, 2), orr)
        return sum(W_NAME * overlap(grow(b, 2), ob) for b in a.boxes for ob in o.boxes)

    # names that can touch: some spot of one overlaps some spot of the other
    touch = {sid: [o for o in near[sid] if overlap(reach_box[sid], reach_box[o]) > 0] for sid in ids}

    def cost_of(sid: str, label: Label, skip: str | None = None) -> float:
        cost = static[label]
        x0, y0, x1, y1 = label.rect
        for o in touch[sid]:
            other = chosen.get(o)
            if other is None or o == skip:
                continue
            r = other.rect
            if x0 - 2 < r[2] and x1 + 2 > r[0] and y0 - 2 < r[3] and y1 + 2 > r[1]:
                cost += clash(label, other)
        return cost

    def best(sid: str) -> Label:
        top, top_cost = None, math.inf
        rb = reach_box[sid]
        others = [chosen[o] for o in touch[sid] if o in chosen and overlap(rb, chosen[o].rect) > 0]
        for c in cands[sid]:
            cost = c.static
            if cost >= top_cost:
                continue
            for o in others:
                cost += clash(c.label, o)
                if cost >= top_cost:
                    break
            if cost < top_cost:
                top, top_cost = c.label, cost
        assert top is not None, "a station has candidates, at finite costs"
        return top

    def settle(rounds: int) -> None:
        """Move every name to its best spot given the others, until nothing moves."""
        for _ in range(rounds):
            changed = False
            for sid in order:
                old = chosen.pop(sid)
                label = best(sid)
                changed |= label != old
                chosen[sid] = label
            if not changed:
                break

    order = sorted(ids, key=lambda sid: (-len(near[sid]), min(c.static for c in cands[sid])))
    for sid in order:
        chosen[sid] = best(sid)
    settle(4)
    _anneal(ids, cands, chosen, cost_of)
    settle(3)  # polish after annealing
    if explain is not None:
        explain.update(
            {sid: [(c.label, c.static, cost_of(sid, c.label) - c.static) for c in cands[sid]] for sid in ids}
        )
    return [chosen[sid] for sid in ids]


# What the bot calls: the search, answered from the cache of earlier runs where it can.
place_labels = kept_between_runs(search_labels)


def _anneal(
    ids: list[str], cands: dict[str, list[Cand]], chosen: dict[str, Label], cost_of, moves_per_name: int = 120
) -> None:
    """Simulated annealing over the spots (deterministic): lets a crowded corner rearrange
    several names at once, which one-name-at-a-time improvement cannot."""
    rnd = random.Random(0)
    moves = moves_per_name * len(ids)
    t_hot, t_cold = 150.0, 2.0
    crowded = [sid for sid in ids if len(cands[sid]) > 1]
    if not crowded:
        return
    for i in range(moves):
        temp = t_hot * (t_cold / t_hot) ** (i / moves)
        sid = crowded[rnd.randrange(len(crowded))]
        options = cands[sid]
        new = options[rnd.randrange(min(len(options), 40))].label
        old = chosen[sid]
        if new == old:
            continue
        delta = cost_of(sid, new) - cost_of(sid, old)
        if delta <= 0 or rnd.random() < math.exp(-delta / temp):
            chosen[sid] = new


def draw_labels(
    image: Image.Image,
    labels: list[Label],
    k: int,
    halo: tuple[int, int, int] | int,
    ink: tuple[int, int, int] | int = INK,
) -> None:
    """Names with a halo in the map's background colour, on an image `k` times the layout (ink = halo = 255: a mask)."""
    d = ImageDraw.Draw(image)
    for lab in labels:
        f = font(int(lab.size * k))
        lh = lab.size * LINE_HEIGHT * k
        stroke = int(2.5 * k)
        if lab.angle:
            text = lab.lines[0]
            w = int(f.getlength(text)) + 4 * stroke
            h = int(lh) + 4 * stroke
            tile = Image.new("L", (w, h), 0)
            ImageDraw.Draw(tile).text(
                (w / 2, h / 2), text, font=f, anchor="mm", fill=255, stroke_width=stroke, stroke_fill=255
            )
            glyphs = Image.new("L", (w, h), 0)
            ImageDraw.Draw(glyphs).text((w / 2, h / 2), text, font=f, anchor="mm", fill=255)
            tile, glyphs = (t.rotate(lab.angle, resample=Image.Resampling.BICUBIC, expand=True) for t in (tile, glyphs))
            x, y = (round(c * k - n / 2) for c, n in zip(lab.centre, tile.size))
            image.paste(halo, (x, y, x + tile.width, y + tile.height), tile)
            image.paste(ink, (x, y, x + glyphs.width, y + glyphs.height), glyphs)
            continue
        left, top, right, _ = (v * k for v in lab.rect)
        for i, text in enumerate(lab.lines):
            y = top + i * lh + lh / 2
            if lab.align == "l":
                x, anchor = left, "lm"
            elif lab.align == "r":
                x, anchor = right, "rm"
            else:
                x, anchor = (left + right) / 2, "mm"
            d.text((x, y), text, font=f, anchor=anchor, fill=ink, stroke_width=stroke, stroke_fill=halo)
