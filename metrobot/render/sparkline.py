"""A player's rating over time: one small line per game kind, drawn with Pillow.

The caller gives the title and the series' labels in the reader's language; the only
word drawn here (no rated games yet) is in `lang`, and so are the numbers ("23,4" in German).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from metrobot.i18n import EN, Lang

from .style import INK, MUTED, PAPER, fit_text, font, in_language, player_colour

WIDTH, HEIGHT, PAD = 640, 200, 34


@in_language
def sparkline(series: dict[str, list[float]], title: str, lang: Lang = EN) -> Image.Image:
    """`series`: label -> values oldest first (the conservative rating after each game)."""
    im = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    d = ImageDraw.Draw(im)
    d.text((PAD, 8), fit_text(title, 16, WIDTH - 2 * PAD, True), fill=INK, font=font(16, bold=True))
    values = [v for vs in series.values() for v in vs]
    if not values:
        d.text(
            (PAD, HEIGHT // 2), fit_text(lang.t("No rated games yet."), 14, WIDTH - 2 * PAD), fill=MUTED, font=font(14)
        )
        return im
    lo, hi = min(values + [0.0]), max(values + [0.0])
    hi = hi if hi > lo else lo + 1
    box = (PAD + 28, 36, WIDTH - PAD, HEIGHT - 28)

    def y(v: float) -> float:
        return box[3] - (v - lo) / (hi - lo) * (box[3] - box[1])

    d.line((box[0], y(0), box[2], y(0)), fill=(215, 210, 200), width=1)
    d.text((PAD - 4, y(hi) - 8), lang.num(hi), fill=MUTED, font=font(12))
    d.text((PAD - 4, y(lo) - 8), lang.num(lo), fill=MUTED, font=font(12))
    legend_x = box[0]
    for i, (label, vs) in enumerate(series.items()):
        colour = player_colour(i)
        if len(vs) == 1:
            vs = vs * 2
        step = (box[2] - box[0]) / (len(vs) - 1)
        points = [(box[0] + j * step, y(v)) for j, v in enumerate(vs)]
        d.line(points, fill=colour, width=3, joint="curve")
        d.ellipse((points[-1][0] - 4, points[-1][1] - 4, points[-1][0] + 4, points[-1][1] + 4), fill=colour)
        text = lang.t("{game}: {rating}", game=label, rating=lang.num(vs[-1], 1))
        if legend_x + 16 + font(13).getlength(text) > WIDTH - 8:  # the legend stays inside the image
            if legend_x + 60 > WIDTH - 8:
                continue
            text = fit_text(text, 13, WIDTH - 8 - legend_x - 16)
        d.rectangle((legend_x, HEIGHT - 20, legend_x + 12, HEIGHT - 8), fill=colour)
        d.text((legend_x + 16, HEIGHT - 22), text, fill=INK, font=font(13))
        legend_x += 28 + font(13).getlength(text)
    return im
