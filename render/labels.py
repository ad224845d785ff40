"""Station names on a metro map: where each goes, so names stay readable.

Every name tries spots around its dot: right, left, above, below, the diagonals, slid
along the dot, a little further out, on one to three lines, abbreviated ("Straße" ->
"Str."), a size smaller, and at last at 45 degrees (how metro maps name the stations of a
crowded horizontal line). Each spot has a cost: overlapping another name, a dot, a badge,
running over a line, leaving the map, sitting nearer to another dot than to its own (whose
name is it?), plus a small preference order. Names are placed greedily, most crowded
first, then each is re-placed against all the others until nothing improves. This runs
once per map and size (the static layer is cached), in well under a second.
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Iterable

from PIL import Image, ImageDraw

from .breaking import pieces
from .rects import Point, Rect, clip_len, dist_rect, grow, inside, overlap
from .style import INK, font

LINE_HEIGHT = 1.18  # of the font size


# ---------------------------------------------------------------- names: abbreviations, wrapping
_ABBREVIATIONS = [
    (r"(?<=\w)straße\b", "str."), (r"(?<=\w)strasse\b", "str."), (r"\bStra(ß|ss)e\b", "Str."),
    (r"(?<=\w)straat\b", "str."), (r"\bStraat\b", "Str."),
    (r"(?<=\w)platz\b", "pl."), (r"\bPlatz\b", "Pl."), (r"(?<=\w)plein\b", "pl."), (r"\bPlein\b", "Pl."),
    (r"\bBahnhof\b", "Bhf."), (r"(?<=\w)bahnhof\b", "bhf."), (r"\bBrücke\b", "Br."), (r"(?<=\w)brücke\b", "br."),
    (r"\bSaint\b", "St"), (r"\bSainte\b", "Ste"), (r"\bPorte\b", "Pte"), (r"\bPlace\b", "Pl."),
    (r"\bBoulevard\b", "Bd"), (r"\bAvenue\b", "Av."), (r"\bAvenida\b", "Av."), (r"\bPlaza\b", "Pza."),
    (r"\bEstación\b", "Est."), (r"\bCentraal Station\b", "Centraal"), (r"\bStation\b", "St."),
]


def abbreviate(name: str) -> str:
    out = name
    for pattern, short in _ABBREVIATIONS:
        out = re.sub(pattern, short, out)
    return out


def wrappings(name: str, size: int) -> list[tuple[str, ...]]:
    """The name on one line, and its best two- and three-line splits, where lines may break
    in any script (`breaking.py`: never inside a word; a hyphen stays at the line's end)."""
    f = font(size)
    parts = pieces(name)
    out: list[tuple[str, ...]] = [(name,)]
    if len(parts) < 2:
        return out

    def width(lines: tuple[str, ...]) -> float:
        return max(f.getlength(s) for s in lines)

    out.append(min((tuple("".join(parts[a:b]).strip() for a, b in ((0, i), (i, len(parts))))
                    for i in range(1, len(parts))), key=width))
    if len(parts) >= 3 and len(name) > 18:
        out.append(min((tuple("".join(parts[a:b]).strip() for a, b in ((0, i), (i, j), (j, len(parts))))
                        for i in range(1, len(parts) - 1) for j in range(i + 1, len(parts))), key=width))
    return out


# ---------------------------------------------------------------- labels
@dataclass(frozen=True)
class Label:
    sid: str
    lines: tuple[str, ...]
    rect: Rect  # bounding box
    align: str  # "l", "r" or "m" (horizontal names)
    size: int
    angle: float = 0.0  # degrees, counter-clockwise; 45 or -45 for diagonal names
    centre: Point = (0.0, 0.0)  # of the text (diagonal names are drawn rotated about it)
    boxes: tuple[Rect, ...] = ()  # footprint used for collisions


# (dx sign, dy sign, along, preference cost). `along` slides a name above/below the dot to
# start (1) or end (-1) at it, or a side name up (-1) / down (1).
_POSITIONS = ((1, 0, 0, 0.0), (-1, 0, 0, 4.0), (0, -1, 0, 6.0), (0, 1, 0, 6.0),
              (1, -1, 0, 10.0), (1, 1, 0, 10.0), (-1, -1, 0, 12.0), (-1, 1, 0, 12.0),
              (0, -1, 1, 9.0), (0, -1, -1, 10.0), (0, 1, 1, 9.0), (0, 1, -1, 10.0),
              (1, 0, 1, 8.0), (1, 0, -1, 8.0), (-1, 0, 1, 11.0), (-1, 0, -1, 11.0))
# diagonal names: (direction of reading from the dot's side, sign) -> start at the dot or end there
_DIAGONALS = (("NE", 0.0), ("SE", 2.0), ("SW", 4.0), ("NW", 6.0))

# a station's preferred side (where the map's author would put its name), and the cost of another side
HINTS = {"e": (1, 0), "w": (-1, 0), "n": (0, -1), "s": (0, 1), "ne": (1, -1), "se": (1, 1), "nw": (-1, -1), "sw": (-1, 1)}
HINT_MISS = 7.0

W_DOT = 6.0  # per px² of a name over a dot or badge
W_LINE = 1.6  # x line width, per px of line under a name
W_NAME = 14.0  # per px² of two names overlapping
W_AMBIGUOUS = 150.0  # a name nearer to another dot than to its own
AMBIG_MID, AMBIG_MARGIN = 0.5, 6.0  # "nearer": distance to the name plus this much of the distance to its middle
SMALLER = 45.0  # a size smaller
ABBREVIATED = 30.0
WRAPPED = 8.0  # per extra line
FARTHER = 25.0
DIAGONAL = 55.0


@dataclass
class _Cand:
    label: Label
    static: float


@dataclass
class _Surroundings:
    dots: list[Rect]
    segs: list[tuple]
    obstacles: list[Rect]
    points: list[Point]


def _static_cost(boxes: Iterable[Rect], env: _Surroundings, line_width: float) -> float:
    cost = 0.0
    half = line_width / 2
    for b in boxes:
        ix0, iy0, ix1, iy1 = b[0] + 1, b[1] + 2, b[2] - 1, b[3] - 2
        for r in env.dots:
            if r[2] > ix0 and r[0] < ix1 and r[3] > iy0 and r[1] < iy1:
                cost += W_DOT * (min(r[2], ix1) - max(r[0], ix0)) * (min(r[3], iy1) - max(r[1], iy0))
        for r in env.obstacles:
            if r[2] > ix0 and r[0] < ix1 and r[3] > iy0 and r[1] < iy1:
                cost += W_DOT * (min(r[2], ix1) - max(r[0], ix0)) * (min(r[3], iy1) - max(r[1], iy0))
        wide = (ix0 - half, iy0 - half, ix1 + half, iy1 + half)
        for p, q, mnx, mxx, mny, mxy in env.segs:
            if mxx < wide[0] or mnx > wide[2] or mxy < wide[1] or mny > wide[3]:
                continue
            cost += W_LINE * line_width * clip_len(p, q, wide)
    return cost


def _flat(sid: str, at: Point, lines: tuple[str, ...], fs: int, text_cost: float, far: float, radius: float,
          line_width: float, env: _Surroundings, bounds: Rect, hint: tuple[int, int] | None = None) -> list[_Cand]:
    """Every horizontal spot around the dot for this text, with its static cost (off the `hint` side: more)."""
    sx, sy = at
    f = font(fs)
    w = max(f.getlength(t) for t in lines)
    h = fs * LINE_HEIGHT * len(lines)
    gap = radius * 1.45 + 2
    out = []
    for dx, dy, along, pref in _POSITIONS:
        if hint is not None:
            pref = (0.0 if along == 0 else 3.0) if (dx, dy) == hint else pref + HINT_MISS
        diag = (0.75 if dx and dy else 1.0) * far
        pref += FARTHER if far > 1 else 0.0
        if dx > 0:
            left, align = sx + gap * diag, "l"
        elif dx < 0:
            left, align = sx - gap * diag - w, "r"
        elif along > 0:
            left, align = sx - radius * far, "l"
        elif along < 0:
            left, align = sx + radius * far - w, "r"
        else:
            left, align = sx - w / 2, "m"
        if dy > 0:
            top = sy + gap * diag - (0 if dx else 2)
        elif dy < 0:
            top = sy - gap * diag - h + (0 if dx else 2)
        elif along:
            top = sy - h / 2 + along * (h / 2 - fs * 0.3) * (1 if len(lines) > 1 else 0.6)
        else:
            top = sy - h / 2
        rect = (left, top, left + w, top + h)
        if not inside(rect, bounds):
            continue
        cost = pref + text_cost + _static_cost((rect,), env, line_width)
        # whose name is it? another dot nearer to the name (its edge and its middle) than its own
        cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        own = dist_rect(at, rect) + AMBIG_MID * math.hypot(sx - cx, sy - cy) + AMBIG_MARGIN
        for p in env.points:
            if rect[0] - own < p[0] < rect[2] + own and rect[1] - own < p[1] < rect[3] + own \
                    and dist_rect(p, rect) + AMBIG_MID * math.hypot(p[0] - cx, p[1] - cy) < own:
                cost += W_AMBIGUOUS
        out.append(_Cand(Label(sid, lines, rect, align, fs, 0.0, (cx, cy), (rect,)), cost))
    return out


def _diagonal(sid: str, at: Point, text: str, fs: int, text_cost: float, radius: float, line_width: float,
              env: _Surroundings, bounds: Rect) -> list[_Cand]:
    """The name at 45 degrees, starting (NE, SE) or ending (SW, NW) beside the dot."""
    sx, sy = at
    length = font(fs).getlength(text)
    h = fs * LINE_HEIGHT
    gap = radius * 1.3 + 3
    out = []
    c = math.sqrt(0.5)
    for name, pref in _DIAGONALS:
        ux = c if name in ("NE", "SE") else -c
        uy = -c if name in ("NE", "NW") else c
        # the text's middle line runs from the dot outwards along (ux, uy)
        start = (sx + ux * gap, sy + uy * gap)
        mid = (start[0] + ux * length / 2, start[1] + uy * length / 2)
        n = max(2, int(length / (h * 0.75)) + 1)
        side = h * 0.82
        boxes = []
        for i in range(n):
            t = (i + 0.5) / n * length
            px, py = start[0] + ux * t, start[1] + uy * t
            boxes.append((px - side / 2, py - side / 2, px + side / 2, py + side / 2))
        bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                max(b[3] for b in boxes))
        if not inside(bbox, bounds):
            continue
        angle = 45.0 if uy * ux < 0 else -45.0  # reading left to right, rising or falling
        cost = DIAGONAL + pref + text_cost + _static_cost(boxes, env, line_width)
        out.append(_Cand(Label(sid, (text,), bbox, "m", fs, angle, mid, tuple(boxes)), cost))
    return out


def place_labels(stations: list[tuple[str, str, Point, float]], segments: list[tuple[Point, Point]], radius: float,
                 line_width: float, size: int, obstacles: list[Rect], bounds: Rect,
                 explain: dict | None = None, hints: dict[str, str] | None = None) -> list[Label]:
    """Names for `stations` [(id, name, dot centre, dot radius)] on a map with these line `segments`; `radius`
    is the usual dot radius (a special station's star is bigger). `explain`, if given, receives every station's
    spots with their fixed and overlap costs (for tuning the weights). `hints` {id: a side of HINTS}: the
    preferred sides of the names."""
    segs = [(p, q, min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])) for p, q in segments]
    pts = {sid: xy for sid, _, xy, _ in stations}
    radii = {sid: r for sid, _, _, r in stations}
    reach = 3.2 * radius + font(size).getlength("M" * 14)
    cands: dict[str, list[_Cand]] = {}
    for sid, name, (sx, sy), own_r in stations:
        env = _Surroundings(
            dots=[(x - radii[o] - 1, y - radii[o] - 1, x + radii[o] + 1, y + radii[o] + 1) for o, (x, y) in pts.items()
                  if o != sid and abs(x - sx) < reach and abs(y - sy) < reach],
            segs=[g for g in segs if g[2] < sx + reach and g[3] > sx - reach and g[4] < sy + reach and g[5] > sy - reach],
            obstacles=[r for r in obstacles if r[0] < sx + reach and r[2] > sx - reach and r[1] < sy + reach
                       and r[3] > sy - reach],
            points=[(x, y) for o, (x, y) in pts.items() if o != sid and abs(x - sx) < reach and abs(y - sy) < reach])
        short = abbreviate(name)
        hint = HINTS.get((hints or {}).get(sid, ""))
        out: list[_Cand] = []
        # full size first; farther spots, a smaller size and diagonals only when few clean spots exist
        for stage in range(4):
            if sum(1 for c in out if c.static < 20) >= 4:
                break
            fs, extra = (size, 0.0) if stage < 2 else (size - 2, SMALLER)
            if stage == 3:
                for text, tc in ((name, 0.0), (short, ABBREVIATED)) if short != name else ((name, 0.0),):
                    for fsz, ex in ((size, 0.0), (size - 2, SMALLER)):
                        out += _diagonal(sid, (sx, sy), text, fsz, tc + ex, own_r, line_width, env, bounds)
                continue
            texts = [(lines, extra + WRAPPED * i) for i, lines in enumerate(wrappings(name, fs))]
            if short != name:
                texts += [(lines, extra + ABBREVIATED + WRAPPED * i) for i, lines in enumerate(wrappings(short, fs))]
            fars = (1.0,) if stage == 0 else ((1.8,) if stage == 1 else (1.0, 1.8))
            for lines, text_cost in texts:
                for far in fars:
                    out += _flat(sid, (sx, sy), lines, fs, text_cost, far, own_r, line_width, env, bounds, hint)
        if not out:  # nothing fits inside the bounds: below the dot, pushed inside
            fs = size - 2
            w, h = font(fs).getlength(name), fs * LINE_HEIGHT
            left = min(max(bounds[0], sx - w / 2), bounds[2] - w)
            top = min(sy + own_r + 4, bounds[3] - h)
            rect = (left, top, left + w, top + h)
            out.append(_Cand(Label(sid, (name,), rect, "m", fs, 0.0, ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2),
                                   (rect,)), 1e6))
        cands[sid] = out

    ids = [sid for sid, _, _, _ in stations]
    near: dict[str, list[str]] = {sid: [] for sid in ids}
    for i, a in enumerate(ids):
        ax, ay = pts[a]
        for b in ids[i + 1:]:
            bx, by = pts[b]
            if abs(ax - bx) < 2 * reach and abs(ay - by) < 2 * reach:
                near[a].append(b)
                near[b].append(a)
    for sid in cands:  # the 60 cheapest spots are plenty to choose from
        cands[sid] = sorted(cands[sid], key=lambda c: c.static)[:60]
    static = {c.label: c.static for cl in cands.values() for c in cl}
    reach_box = {sid: (min(c.label.rect[0] for c in cl) - 2, min(c.label.rect[1] for c in cl) - 2,
                       max(c.label.rect[2] for c in cl) + 2, max(c.label.rect[3] for c in cl) + 2)
                 for sid, cl in cands.items()}
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
        explain.update({sid: [(c.label, c.static, cost_of(sid, c.label) - c.static) for c in cands[sid]] for sid in ids})
    return [chosen[sid] for sid in ids]


def _anneal(ids: list[str], cands: dict[str, list[_Cand]], chosen: dict[str, Label], cost_of,
            moves_per_name: int = 120) -> None:
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


def draw_labels(image: Image.Image, labels: list[Label], k: int, halo: tuple[int, int, int], ink=INK) -> None:
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
            ImageDraw.Draw(tile).text((w / 2, h / 2), text, font=f, anchor="mm", fill=255, stroke_width=stroke,
                                      stroke_fill=255)
            glyphs = Image.new("L", (w, h), 0)
            ImageDraw.Draw(glyphs).text((w / 2, h / 2), text, font=f, anchor="mm", fill=255)
            tile, glyphs = (t.rotate(lab.angle, resample=Image.Resampling.BICUBIC, expand=True) for t in (tile, glyphs))
            x, y = (int(round(c * k - n / 2)) for c, n in zip(lab.centre, tile.size))
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
