"""The end-of-game summary of On the Underground: the ranking, every player's points by
kind (start score, National Rail, termini, connections, loops, passenger) as a table and
as a stacked bar on one scale, the totals, the winners starred."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from metrobot.games.underground.words import colour as colour_word
from metrobot.i18n import EN, Lang

from ..style import INK, MUTED, PAPER, fit_text, font
from .geometry import umap
from .palette import NATIONAL_RAIL, ROUTE, RULE, palette, text_on
from .panel import tagged_swatch, turn_order

KINDS = (
    ("start", (150, 150, 150)),
    ("national_rail", NATIONAL_RAIL),
    ("terminus", (40, 40, 40)),
    ("connections", (0, 150, 110)),
    ("loops", (230, 150, 0)),
    ("passenger", ROUTE),
)
WIDTH = 1240
HEADER = 150
ROW = 104
FOOT = 70
WIN = (255, 240, 186)
NAME_X, COL0, COL_W, TOTAL_X = 90, 468, 104, WIDTH - 44


def kind_labels(lang: Lang = EN) -> dict[str, str]:
    """The column headings: each kind of points, short (a column is 104 px wide)."""
    return {
        "start": lang.p("score column", "Start"),
        "national_rail": lang.p("score column", "Nat. Rail"),
        "terminus": lang.p("score column", "Termini"),
        "connections": lang.p("score column", "Connect."),
        "loops": lang.p("score column", "Loops"),
        "passenger": lang.p("score column", "Passenger"),
    }


def _shrunk(text: str, size: int, room: float, bold: bool = False, least: int = 10) -> tuple[str, int]:
    """The text at the largest size up to `size` that fits `room` (at `least`, shortened)."""
    while size > least and font(size, bold).getlength(text) > room:
        size -= 1
    return fit_text(text, size, room, bold), size


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


def summary_image(
    view: dict[str, Any], names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    if view.get("phase") != "finished":
        raise ValueError("the summary is drawn for a finished game only")
    size = summary_size(view)
    pal = palette(vision)
    image = Image.new("RGB", size, PAPER)
    d = ImageDraw.Draw(image)
    winners = view.get("winners") or []
    breakdown = view.get("breakdown") or {}
    colours = view.get("colours") or {}
    d.text(
        (40, 26),
        fit_text(lang.t("On the Underground · final scores"), 36, WIDTH - 80, True),
        font=font(36, True),
        fill=INK,
    )
    won = " & ".join(_name(names, p) for p in winners)
    players, turns = len(view["players"]), view.get("turn_count", 0)
    sub = " · ".join(
        [
            umap(view).title,
            lang.n("{n} player", "{n} players", players, n=players),
            lang.n("{n} turn", "{n} turns", turns, n=turns),
        ]
    )
    sub = fit_text(sub, 17, (WIDTH - 80) / 2)
    room = WIDTH - 80 - font(17).getlength(sub) - 20  # the winners, beside the game's facts
    d.text(
        (40, 76),
        fit_text(lang.n("★ {names} wins", "★ {names} win", len(winners), names=won), 24, room, True),
        font=font(24, True),
        fill=INK,
    )
    d.text((WIDTH - 40, 84), sub, font=font(17), anchor="ra", fill=MUTED)
    y = HEADER - 24
    labels = kind_labels(lang)
    for i, (key, colour) in enumerate(KINDS):
        cx = COL0 + i * COL_W + COL_W / 2
        d.rounded_rectangle([cx - COL_W / 2 + 6, y - 12, cx + COL_W / 2 - 6, y + 12], radius=6, fill=colour)
        label, label_size = _shrunk(labels[key], 15, COL_W - 16, True)
        d.text((cx, y), label, font=font(label_size, True), anchor="mm", fill=text_on(colour))
    total, label_size = _shrunk(lang.p("score column", "Total"), 18, TOTAL_X - (COL0 + len(KINDS) * COL_W) - 4, True)
    d.text((TOTAL_X, y), total, font=font(label_size, True), anchor="rm", fill=INK)
    top = max(view.get("scores", {}).values() or [1]) or 1
    bar_x0, bar_x1 = NAME_X, TOTAL_X
    for row, (rank, p) in enumerate(ranking(view)):
        y0 = HEADER + row * ROW
        if p in winners:
            d.rounded_rectangle([20, y0 + 4, WIDTH - 20, y0 + ROW - 4], radius=12, fill=WIN)
        d.line([(20, y0), (WIDTH - 20, y0)], fill=RULE, width=1)
        d.text((52, y0 + 30), f"{rank}", font=font(34, True), anchor="mm", fill=INK)
        star = "★ " if p in winners else ""
        d.text(
            (NAME_X, y0 + 12),
            fit_text(star + _name(names, p), 24, COL0 - NAME_X - 20, True),
            font=font(24, True),
            fill=INK,
        )
        cx = NAME_X
        for c in (c for c, col in colours.items() if col["owner"] == p):
            tagged_swatch(image, (cx, y0 + 47, cx + 30, y0 + 61), c, pal, lang)
            word = colour_word(c, lang)
            d.text((cx + 36, y0 + 54), word, font=font(16), anchor="lm", fill=INK)
            cx += 44 + font(16).getlength(word)
        b = breakdown.get(p) or {}
        for i, (key, _) in enumerate(KINDS):
            value = b.get(key, 0)
            d.text(
                (COL0 + i * COL_W + COL_W / 2, y0 + 30),
                str(value),
                font=font(24, value > 0),
                anchor="mm",
                fill=INK if value else MUTED,
            )
        total = b.get("total", view.get("scores", {}).get(p, 0))
        d.text((TOTAL_X, y0 + 30), str(total), font=font(34, True), anchor="rm", fill=INK)
        # the stacked bar: every kind's points on one scale for all players
        x = bar_x0
        by0, by1 = y0 + ROW - 32, y0 + ROW - 14
        for key, colour in KINDS:
            value = max(0, b.get(key, 0))
            w = (bar_x1 - bar_x0) * value / top
            if w >= 1:
                d.rectangle([x, by0, x + w, by1], fill=colour)
                if w > 26:
                    d.text(
                        (x + w / 2, (by0 + by1) / 2), str(value), font=font(13, True), anchor="mm", fill=text_on(colour)
                    )
                x += w
        d.rectangle([bar_x0, by0, bar_x1, by1], outline=RULE)
    y = size[1] - FOOT + 22
    rules, rules_size = _shrunk(
        lang.t(
            "Start 0-4 by seat · National Rail +1 · terminus +2 · connection pair +3 · "
            "station inside a loop +1 · passenger +1 per colour ridden"
        ),
        15,
        WIDTH - 80,
    )
    d.text((40, y), rules, font=font(rules_size), fill=MUTED)
    return image
