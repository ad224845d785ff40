"""The end-of-game summary of On the Underground: the ranking, every player's points by
kind (start score, National Rail, termini, connections, loops, passenger) as a table and
as a stacked bar on one scale, the totals, the winners starred."""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from ..style import INK, MUTED, PAPER, fit_text, font
from .geometry import umap
from .palette import NATIONAL_RAIL, ROUTE, RULE, text_on
from .panel import swatch, turn_order

KINDS = (("start", "Start", (150, 150, 150)), ("national_rail", "Nat. Rail", NATIONAL_RAIL),
         ("terminus", "Termini", (40, 40, 40)), ("connections", "Connect.", (0, 150, 110)),
         ("loops", "Loops", (230, 150, 0)), ("passenger", "Passenger", ROUTE))
WIDTH = 1240
HEADER = 150
ROW = 104
FOOT = 70
WIN = (255, 240, 186)
NAME_X, COL0, COL_W, TOTAL_X = 90, 468, 104, WIDTH - 44


def _name(names: dict[str, str] | None, p: str) -> str:
    return (names or {}).get(p, p)


def ranking(view: dict[str, Any]) -> list[tuple[int, str]]:
    """(rank, player), best first; equal totals share a rank; ties keep the turn order."""
    scores = view.get("scores") or {}
    order = turn_order(view)
    ranked = sorted(order, key=lambda p: (-scores.get(p, 0), order.index(p)))
    out = []
    for i, p in enumerate(ranked):
        rank = out[-1][0] if i and scores.get(p, 0) == scores.get(ranked[i - 1], 0) else i + 1
        out.append((rank, p))
    return out


def summary_size(view: dict[str, Any]) -> tuple[int, int]:
    return WIDTH, HEADER + ROW * len(view["players"]) + FOOT


def summary_image(view: dict[str, Any], names: dict[str, str] | None = None) -> Image.Image:
    if view.get("phase") != "finished":
        raise ValueError("the summary is drawn for a finished game only")
    size = summary_size(view)
    image = Image.new("RGB", size, PAPER)
    d = ImageDraw.Draw(image)
    winners = view.get("winners") or []
    breakdown = view.get("breakdown") or {}
    colours = view.get("colours") or {}
    d.text((40, 26), "On the Underground · final scores", font=font(36, True), fill=INK)
    won = " & ".join(_name(names, p) for p in winners)
    sub = f"{umap(view).title} · {len(view['players'])} players · {view.get('turn_count', 0)} turns"
    d.text((40, 76), fit_text(f"★ {won} win{'s' if len(winners) == 1 else ''}", 24, WIDTH - 80, True),
           font=font(24, True), fill=INK)
    d.text((WIDTH - 40, 84), sub, font=font(17), anchor="ra", fill=MUTED)
    y = HEADER - 24
    for i, (_, label, colour) in enumerate(KINDS):
        cx = COL0 + i * COL_W + COL_W / 2
        d.rounded_rectangle([cx - COL_W / 2 + 6, y - 12, cx + COL_W / 2 - 6, y + 12], radius=6, fill=colour)
        d.text((cx, y), label, font=font(15, True), anchor="mm", fill=text_on(colour))
    d.text((TOTAL_X, y), "Total", font=font(18, True), anchor="rm", fill=INK)
    top = max(view.get("scores", {}).values() or [1]) or 1
    bar_x0, bar_x1 = NAME_X, TOTAL_X
    for row, (rank, p) in enumerate(ranking(view)):
        y0 = HEADER + row * ROW
        if p in winners:
            d.rounded_rectangle([20, y0 + 4, WIDTH - 20, y0 + ROW - 4], radius=12, fill=WIN)
        d.line([(20, y0), (WIDTH - 20, y0)], fill=RULE, width=1)
        d.text((52, y0 + 30), f"{rank}", font=font(34, True), anchor="mm", fill=INK)
        star = "★ " if p in winners else ""
        d.text((NAME_X, y0 + 12), fit_text(star + _name(names, p), 24, COL0 - NAME_X - 20, True), font=font(24, True),
               fill=INK)
        cx = NAME_X
        for c in (c for c, col in colours.items() if col["owner"] == p):
            swatch(d, (cx, y0 + 47, cx + 30, y0 + 61), c)
            d.text((cx + 36, y0 + 54), c, font=font(16), anchor="lm", fill=INK)
            cx += 44 + font(16).getlength(c)
        b = breakdown.get(p) or {}
        for i, (key, _, _) in enumerate(KINDS):
            value = b.get(key, 0)
            d.text((COL0 + i * COL_W + COL_W / 2, y0 + 30), str(value), font=font(24, value > 0), anchor="mm",
                   fill=INK if value else MUTED)
        total = b.get("total", view.get("scores", {}).get(p, 0))
        d.text((TOTAL_X, y0 + 30), str(total), font=font(34, True), anchor="rm", fill=INK)
        # the stacked bar: every kind's points on one scale for all players
        x = bar_x0
        by0, by1 = y0 + ROW - 32, y0 + ROW - 14
        for key, _, colour in KINDS:
            value = max(0, b.get(key, 0))
            w = (bar_x1 - bar_x0) * value / top
            if w >= 1:
                d.rectangle([x, by0, x + w, by1], fill=colour)
                if w > 26:
                    d.text((x + w / 2, (by0 + by1) / 2), str(value), font=font(13, True), anchor="mm",
                           fill=text_on(colour))
                x += w
        d.rectangle([bar_x0, by0, bar_x1, by1], outline=RULE)
    y = size[1] - FOOT + 22
    d.text((40, y), "Start 0-4 by seat · National Rail +1 · terminus +2 · connection pair +3 · station inside "
                    "a loop +1 · passenger +1 per colour ridden", font=font(15), fill=MUTED)
    return image
