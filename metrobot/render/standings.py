"""A tournament's final standings as a picture: the podium (the first three on steps of
gold, silver and bronze, their points on the steps) and, below it, everyone's line — rank,
name, points, games, and the tie-breaks in the order they count.

Plain data in (each row's rank, name, points, tie-breaks, games, byes, skipped, dropped),
PNG bytes out, in the worker processes like every image; the only words drawn are the
column heads and the title the caller gives, in the tournament's language. Names in any
script are drawn through `text.py`'s font chain (Hangul, Cyrillic, emoji).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from metrobot.i18n import Lang, lang

from .png import encode_png
from .style import INK, MUTED, PAPER, fit_text, font, in_language

WIDTH, PAD = 900, 32
ROW = 30
MOST = 32  # lines drawn (a bigger field's last lines are summed up in one)
GOLD, SILVER, BRONZE = (212, 175, 55), (168, 169, 173), (176, 112, 60)
STEPS = {1: (GOLD, 150), 2: (SILVER, 110), 3: (BRONZE, 80)}
SHADE = (238, 234, 225)
ORDER = (2, 1, 3)  # the podium's steps left to right


@in_language
def standings_image(title: str, subtitle: str, rows: list[dict[str, Any]], g: Lang) -> Image.Image:
    shown = rows[:MOST]
    podium_h = 250
    height = PAD + 70 + podium_h + 40 + ROW * (len(shown) + 1) + (ROW if len(rows) > MOST else 0) + PAD
    im = Image.new("RGB", (WIDTH, height), PAPER)
    d = ImageDraw.Draw(im)
    d.text((PAD, PAD), fit_text(title, 28, WIDTH - 2 * PAD, True), fill=INK, font=font(28, bold=True))
    d.text((PAD, PAD + 40), fit_text(subtitle, 16, WIDTH - 2 * PAD), fill=MUTED, font=font(16))
    _podium(d, rows, PAD + 70, podium_h, g)
    top = PAD + 70 + podium_h + 40
    columns = [
        (PAD, g.t("Rank")),
        (PAD + 70, g.t("Name")),
        (PAD + 420, g.t("Points")),
        (PAD + 510, g.t("Games")),
        (PAD + 590, g.t("Opp. pts")),
        (PAD + 670, g.t("S-B")),
        (PAD + 750, g.t("Opp. rating")),
    ]
    for x, head in columns:
        d.text(
            (x, top),
            fit_text(head, 14, 100 if x > PAD + 700 else 78 if x > PAD + 400 else 300, True),
            fill=MUTED,
            font=font(14, bold=True),
        )
    for i, r in enumerate(shown):
        y = top + ROW * (i + 1)
        if i % 2 == 0:
            d.rectangle((PAD - 8, y - 4, WIDTH - PAD + 8, y + ROW - 6), fill=SHADE)
        colour = MUTED if r.get("dropped") else INK
        breaks = list(r.get("tiebreaks", ())) + [0.0, 0.0, 0.0]
        name = r["name"] + (" †" if r.get("dropped") else "")
        cells = [
            (PAD, str(r["rank"])),
            (PAD + 70, fit_text(name, 16, 340)),
            (PAD + 420, g.num(r["points"], 2, trim=True)),
            (PAD + 510, g.num(r.get("played", 0))),
            (PAD + 590, g.num(breaks[0], 2)),
            (PAD + 670, g.num(breaks[1], 2)),
            (PAD + 750, g.num(breaks[2], 1)),
        ]
        for x, text in cells:
            d.text((x, y), text, fill=colour, font=font(16, bold=x == PAD + 420))
    if len(rows) > MOST:
        y = top + ROW * (len(shown) + 1)
        d.text(
            (PAD + 70, y),
            g.n("… and {count} more", "… and {count} more", len(rows) - MOST, count=len(rows) - MOST),
            fill=MUTED,
            font=font(16),
        )
    return im


def _podium(d: ImageDraw.ImageDraw, rows: list[dict[str, Any]], top: int, height: int, g: Lang) -> None:
    by_place: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if r["rank"] <= 3 and not r.get("dropped"):
            by_place.setdefault(r["rank"], []).append(r)
    width = 220
    left = (WIDTH - 3 * width) // 2
    base = top + height
    for i, place in enumerate(ORDER):
        colour, step = STEPS[place]
        x0 = left + i * width
        d.rectangle((x0 + 6, base - step, x0 + width - 6, base), fill=colour)
        d.text((x0 + width // 2, base - step // 2), str(place), fill=PAPER, font=font(44, bold=True), anchor="mm")
        people = by_place.get(place, [])
        for j, r in enumerate(people[:2]):
            y = base - step - 54 + j * 0 - (len(people[:2]) - 1 - j) * 44
            d.text(
                (x0 + width // 2, y),
                fit_text(r["name"], 18, width - 16, True),
                fill=INK,
                font=font(18, bold=True),
                anchor="mm",
            )
            d.text((x0 + width // 2, y + 22), g.num(r["points"], 2, trim=True), fill=MUTED, font=font(15), anchor="mm")
        if len(people) > 2:
            d.text((x0 + width // 2, base - step - 10), f"+{len(people) - 2}", fill=MUTED, font=font(14), anchor="mm")


def standings_png(title: str, subtitle: str, rows: list[dict[str, Any]], language: str = "en") -> bytes:
    """For a worker process: plain data in, the PNG the bot posts out."""
    return encode_png(standings_image(title, subtitle, rows, lang(language)))
