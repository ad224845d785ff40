"""End of a MetrOmania game: the seven test trips as small multiples.

Each panel shows the final city faded, the trip's two ends (marker cells, or the park and
the lake) outlined, every fastest route drawn in the riders' colours, the minutes, and who
scored; the last panel is the final ranking.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from metrobot.games.metromania.board import CITY_CELLS
from metrobot.games.metromania.canonical import from_json
from metrobot.games.metromania.scoring import route_hops
from metrobot.i18n import EN, N_, Lang

from ..style import HIGHLIGHT, INK, MUTED, PAPER, fit_text, font, ink_on, player_colour
from .board import board_geometry, static_layer
from .pieces import draw_line, draw_pieces, line_points

COLS, PANEL_W, PANEL_H, HEADER = 4, 350, 372, 64
MINI_H = 300
DAYS = {
    "A": N_("Monday"),
    "B": N_("Tuesday"),
    "C": N_("Wednesday"),
    "D": N_("Thursday"),
    "E": N_("Friday"),
    "F": N_("Saturday"),
    "park-lake": N_("Sunday"),
}


def trips_image(
    view: dict[str, Any], names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    names = names or {}
    state = from_json(view)
    hops = route_hops(state)
    players = view["players"]
    seat = {p: i for i, p in enumerate(players)}
    rows = 2
    image = Image.new("RGB", (COLS * PANEL_W, HEADER + rows * PANEL_H), PAPER)
    d = ImageDraw.Draw(image)
    d.text((20, 16), fit_text(lang.t("Test trips"), 30, COLS * PANEL_W - 40, True), font=font(30, True), fill=INK)
    geo = board_geometry(PANEL_W, MINI_H, 8)
    kinds = tuple(state.cells[c] for c in CITY_CELLS)
    base = static_layer(kinds, (PANEL_W, MINI_H), geo, labels=False)
    for i, trip in enumerate(view["trips"]):
        x0, y0 = (i % COLS) * PANEL_W, HEADER + (i // COLS) * PANEL_H
        image.paste(base, (x0, y0))
        g = geo.scaled(1, (x0, y0))
        draw_pieces(d, view, g, highlight=False, width_scale=0.8, fade=True, vision=vision)
        ends = _ends(view, trip["name"])
        for cell in ends:
            d.polygon(g.cell(cell), outline=HIGHLIGHT, width=3)
        for a, b, li in hops.get(trip["name"], []):
            line = state.lines[li]
            i_a, i_b = sorted((line.index[a], line.index[b]))
            pts = line_points(g, line.vertices[i_a : i_b + 1], line.cells[i_a:i_b], 0.2 * g.edge)
            draw_line(d, pts, player_colour(seat[line.player], vision), line.style, 0.2 * g.edge)
        ty = y0 + MINI_H + 6
        day = lang.t(DAYS[trip["name"]])
        verdict = lang.t("impossible") if trip["impossible"] else lang.t("{minutes} min", minutes=trip["minutes"])
        room = PANEL_W - 26 - font(18, True).getlength(verdict) - 10
        if trip["name"] == "park-lake":
            title = lang.t("{day} park–lake", day=day)
        else:  # a long day's name is shortened, never the trip's letters
            ends = f"{trip['name']}–{trip['name']}"
            day = fit_text(day, 18, room - font(18, True).getlength(" " + ends), True)
            title = lang.t("{day} {trip}", day=day, trip=ends)
        d.text((x0 + 12, ty), fit_text(title, 18, room, True), font=font(18, True), fill=INK)
        d.text((x0 + PANEL_W - 14, ty), verdict, font=font(18, True), anchor="ra", fill=INK)
        points = trip["points"]
        text = lang.enumerated(f"{names.get(p, p)} {v:+d}" for p, v in points.items()) or lang.t("nobody scores")
        d.text((x0 + 12, ty + 28), fit_text(text, 16, PANEL_W - 24), font=font(16), fill=MUTED)
        d.rectangle([x0, y0, x0 + PANEL_W - 1, y0 + PANEL_H - 1], outline=(214, 207, 191))
    _ranking(d, view, names, seat, (3 * PANEL_W, HEADER + PANEL_H), lang, vision)
    return image


def _ends(view: dict[str, Any], name: str) -> list:
    if name == "park-lake":
        return [(c["q"], c["r"], c["up"]) for c in view["board"]["cells"] if c["kind"] in ("park", "lake")]
    return [tuple(m["cell"]) for m in view["markers"] if m["letter"] == name and m["cell"] is not None]


def _ranking(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: dict[str, str],
    seat: dict[str, int],
    origin: tuple[int, int],
    lang: Lang = EN,
    vision: str = "off",
) -> None:
    x, y = origin[0] + 16, origin[1] + 14
    d.text((x, y), fit_text(lang.t("Final scores"), 22, PANEL_W - 32, True), font=font(22, True), fill=INK)
    y += 36
    breakdown = view.get("breakdown", {})
    order: list[str] = sorted(view["players"], key=lambda p: -view["scores"].get(p, 0))
    winners = set(view.get("winners", []))
    for p in order:
        b = breakdown.get(p, {})
        colour = player_colour(seat[p], vision)
        d.ellipse([x - 2, y + 2, x + 18, y + 22], fill=colour)
        d.text((x + 8, y + 12.5), str(seat[p] + 1), font=font(14, True), anchor="mm", fill=ink_on(colour))
        crown = " ★" if p in winners or (view.get("owners") or {}).get(p) in winners else ""
        d.text((x + 24, y), fit_text(names.get(p, p) + crown, 19, 220, True), font=font(19, True), fill=INK)
        d.text((x + PANEL_W - 40, y), str(view["scores"].get(p, 0)), font=font(20, True), anchor="ra", fill=INK)
        y += 26
        detail = lang.t(
            "stations {stations} → {after} after lines, trips {trips}",
            stations=b.get("stations", 0),
            after=b.get("after_lines", 0),
            trips=f"{b.get('trips', 0):+d}",
        )
        d.text((x + 24, y), fit_text(detail, 14, PANEL_W - 50), font=font(14), fill=MUTED)
        y += 34
