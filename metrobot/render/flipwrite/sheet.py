"""Flip-and-write images: one player's sheet, and the round summary of every sheet.

Input is always a viewer's *view* (`GAME.view(state, viewer)`), never the raw state: the
other players' sealed decisions are not in it, so they cannot be drawn. The viewer's own
sealed decision (`view["pending"]`) is shown, highlighted, on the viewer's own sheet only.

The maps come from the view's map data; the static layers (lines, stations, names) are
cached per map and size (see `mapdraw`), so a round draws marks and text only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from metrobot.i18n import EN, Lang

from ..style import INK, MUTED, PAPER, contrast, fit_text, font, player_colour
from .geometry import fit_height
from .mapdraw import SHEET_STYLE, SheetLayout, layout, static_map
from .marks import CachedDraw, Draw, MarkedLayer, boxed, cross, marked_layer, paste_centred, tick
from .panel import (
    PENDING,
    RULE,
    card_text,
    draw_card,
    draw_line_table,
    draw_score_row,
    draw_score_static,
    draw_table_static,
    line_rows,
    line_table_height,
    sheet_score,
)
from .spec import MapSpec, map_spec
from .summary import Lru, summary_image, summary_layout

__all__ = ["prewarm", "sheet_geometry", "sheet_image", "summary_image", "summary_layout"]

SHEET_W = 1400
HEADER_H = 150
SCORE_H = 84
MAP_MIN_H, MAP_MAX_H = 560, 1150


# ---------------------------------------------------------------- one sheet
@lru_cache(maxsize=32)
def _sheet_frame(spec: MapSpec, special: bool) -> tuple[int, int]:
    """(map height, image height) of a sheet of this map."""
    map_h = fit_height(spec, SHEET_W, SHEET_STYLE.pad, MAP_MIN_H, MAP_MAX_H)
    return map_h, HEADER_H + map_h + line_table_height(spec) + SCORE_H


def sheet_geometry(view: dict[str, Any]) -> dict[str, Any]:
    """Where things are on `sheet_image` of this view: each station's dot centre, each line's
    table row (parts: row, badge, windows, values, status) and the card. For tests and for
    callers that want to point at something."""
    spec = map_spec(view)
    map_h, height = _sheet_frame(spec, _special(view))
    lay = layout(spec, (SHEET_W, map_h), SHEET_STYLE)
    stations = {sid: (x, y + HEADER_H) for sid, (x, y) in lay.points.items()}
    rows = line_rows(spec, (0, HEADER_H + map_h, SHEET_W, HEADER_H + map_h + line_table_height(spec)))
    return {
        "size": (SHEET_W, height),
        "stations": stations,
        "lines": rows,
        "card": _card_box(),
        "map": (0, HEADER_H, SHEET_W, HEADER_H + map_h),
    }


def _special(view: dict[str, Any]) -> bool:
    return bool((view.get("options") or {}).get("special_stations"))


def _card_box() -> tuple[int, int, int, int]:
    return SHEET_W - 128, 14, SHEET_W - 28, 14 + 124


def _name(names: dict[str, str] | None, player: str) -> str:
    return (names or {}).get(player, player)


def sheet_image(
    view: dict[str, Any], player: str, names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    """One player's sheet: the map with their marks, the line table, the score, the card;
    its words in `lang` (station, line and map names are data), its colours in the palette
    of `vision` (see `metrobot/render/vision.py`)."""
    if player not in view["sheets"]:
        raise ValueError(f"{player!r} has no sheet in this game")
    spec = map_spec(view, vision)
    special = _special(view)
    map_h, height = _sheet_frame(spec, special)
    base, lay = static_map(spec, (SHEET_W, map_h), SHEET_STYLE, special)
    image = _sheet_base(spec, special, lang).copy()
    sheet = view["sheets"][player]
    pending = view.get("pending") if view.get("you") == player else None
    pend_sheet = (pending or {}).get("sheet")

    layer = marked_layer(("sheet", spec.key, special), base, lay.points, cross(lay.radius, INK))
    _draw_marks(image, layer, lay, sheet["marks"], (0, HEADER_H), pend_sheet["marks"] if pend_sheet else None)
    _draw_completed_on_map(image, spec, sheet, (0, HEADER_H))

    d = CachedDraw(image)
    colour = player_colour(view["players"].index(player), vision)
    _sheet_header(image, d, view, spec, player, names, colour, pending is not None, lang)
    top = HEADER_H + map_h
    table = (0, top, SHEET_W, top + line_table_height(spec))
    draw_line_table(image, view, spec, player, table, pend_sheet, lang)
    solo = bool((view.get("options") or {}).get("solo"))
    draw_score_row(image, sheet_score(view, spec, player), (0, table[3], SHEET_W, height), solo, lang)
    return image


_SHEET_BASES = Lru(8)


def clear_cache() -> None:
    """Forget the sheets' drawn bases."""
    _SHEET_BASES.data.clear()


def _sheet_base(spec: MapSpec, special: bool, lang: Lang = EN) -> Image.Image:
    """The sheet without anything of a player or a round: header background, the map, the
    table's badges, names, empty windows and values, the score boxes, the legend (cached
    per map, variant and language: the score boxes and the legend are words)."""
    key = (spec.key, special, lang.code)
    hit = _SHEET_BASES.get(key)
    if hit is not None:
        return hit
    map_h, height = _sheet_frame(spec, special)
    image = Image.new("RGB", (SHEET_W, height), PAPER)
    d = ImageDraw.Draw(image)
    d.rectangle([0, 0, SHEET_W, HEADER_H], fill=(255, 255, 255))
    image.paste(static_map(spec, (SHEET_W, map_h), SHEET_STYLE, special)[0], (0, HEADER_H))
    d.line([(0, HEADER_H), (SHEET_W, HEADER_H)], fill=RULE, width=2)
    top = HEADER_H + map_h
    table = (0, top, SHEET_W, top + line_table_height(spec))
    d.rectangle(table, fill=(255, 255, 255))
    d.line([(0, top), (SHEET_W, top)], fill=RULE, width=2)
    draw_table_static(image, spec, table)
    srow = (0, table[3], SHEET_W, height)
    d.rectangle(srow, fill=(243, 240, 233))
    d.line([(0, table[3]), (SHEET_W, table[3])], fill=RULE, width=2)
    draw_score_static(image, srow, lang)
    _legend(d, (900, srow[1], SHEET_W - 20, srow[3]), special, lang)
    _SHEET_BASES.put(key, image)
    return image


def _sheet_header(
    image: Image.Image,
    d: Draw,
    view: dict[str, Any],
    spec: MapSpec,
    player: str,
    names: dict[str, str] | None,
    colour,
    sealed: bool,
    lang: Lang = EN,
) -> None:
    d.rectangle([0, 0, 12, HEADER_H], fill=colour)
    finished = view["phase"] == "finished"
    title = f"{_name(names, player)} · {spec.name}"
    d.text((34, 18), fit_text(title, 36, 900, True), font=font(36, True), fill=INK)
    if finished:
        status = lang.t("Game over")
        winners = view.get("winners") or []
        if player in winners and len(view["players"]) > 1:
            status = lang.t("Game over · ★ winner") if len(winners) == 1 else lang.t("Game over · ★ shared win")
    else:
        points = view["scores"].get(player, 0)
        total = str(points).replace("-", "−")
        status = lang.n(
            "Round {round}  ·  {total} point",
            "Round {round}  ·  {total} points",
            abs(points),
            round=view["round"],
            total=total,
        )
    cb = _card_box()
    card = card_text(view.get("card"), lang)
    card_w = 0.0 if finished else font(26, True).getlength(card)
    d.text(
        (34, 70),
        fit_text(status, 28, cb[0] - 16 - 34 - card_w - 24, True),
        font=font(28, True),
        fill=colour if contrast(colour, (255, 255, 255)) >= 3 else INK,
    )  # large text: 3:1 (WCAG AA)
    sub = []
    owed = (view.get("pending") or {}).get("owed", 0) if sealed else 0
    if not finished:
        if player in view.get("sitting_out", []):
            sub.append(lang.t("all windows filled: waiting for the others"))
        elif owed:
            sub.append(lang.t("special station! use the card again ({n} more)", n=owed))
        elif sealed or player in view.get("decided", []):
            sub.append(lang.t("choice sealed — revealed when everybody has chosen"))
        elif player in view.get("waiting", []):
            sub.append(lang.t("choose a line for this card"))
        pile = view.get("draw_pile", 0)
        sub.append(lang.n("{n} card in the pile", "{n} cards in the pile", pile, n=pile))
    else:
        sc = (view.get("breakdown") or {}).get(player)
        if sc:
            sub.append(lang.t("final score {total}", total=str(sc["total"]).replace("-", "−")))
        if view.get("rating"):
            rating = view["rating"]
            sub.append(lang.t("rating {band}: {text}", band=lang.t(rating["band"]), text=lang.t(rating["text"])))
    note = lang.t("yellow = your choice (hidden from others)")
    w = font(15, True).getlength(note)
    if sealed:
        w = min(w, SHEET_W - 176 - 34 - 360)  # the note never pushes the line before it under 360 px
        note = fit_text(note, 15, w, True)
    # the line ends where the note begins (840 px beside the English note)
    d.text((34, 110), fit_text(" · ".join(sub), 18, SHEET_W - 203 - w if sealed else 1100), font=font(18), fill=MUTED)
    if sealed:
        d.rounded_rectangle([SHEET_W - 176 - w, 104, SHEET_W - 156, 134], radius=8, fill=PENDING)
        d.text((SHEET_W - 166 - w / 2, 119), note, font=font(15, True), anchor="mm", fill=INK)
    if not finished:
        d.text((cb[0] - 16, 34), fit_text(lang.t("this round's card"), 16, 420), font=font(16), anchor="rm", fill=MUTED)
        d.text((cb[0] - 16, 64), card, font=font(26, True), anchor="rm", fill=INK)
        draw_card(image, cb, view.get("card"), lang)


def _legend(d: Draw, box, special: bool, lang: Lang = EN) -> None:
    x0, y0, x1, _y1 = box
    room = x1 - x0 - 10
    marks = lang.t("✕ crossed   ▢ transfer (×2)")
    d.text((x0 + 10, y0 + 18), fit_text(marks, 15, room), font=font(15), fill=MUTED)
    values = lang.t("high / low value per line   ★ special") if special else lang.t("high / low value per line")
    d.text((x0 + 10, y0 + 42), fit_text(values, 15, room), font=font(15), fill=MUTED)


def _draw_marks(
    image: Image.Image,
    layer: MarkedLayer,
    lay: SheetLayout,
    marks: dict[str, Any],
    offset: tuple[int, int],
    pending_marks: dict[str, Any] | None = None,
) -> None:
    """Crosses through the cached all-crossed layer; boxed numbers and the viewer's sealed
    (pending) marks, highlighted, one by one."""
    ox, oy = offset
    r = lay.radius
    layer.paste(image, offset, [sid for sid, mark in marks.items() if mark == "x"])
    singles = [(sid, mark, None) for sid, mark in marks.items() if mark != "x"]
    if pending_marks:
        singles += [(sid, mark, PENDING) for sid, mark in pending_marks.items() if sid not in marks]
    for sid, mark, halo in singles:
        if sid not in lay.points:
            continue
        x, y = lay.points[sid]
        sprite = cross(r, INK, halo) if mark == "x" else boxed(int(mark), r, halo)
        paste_centred(image, sprite, x + ox, y + oy)


def _draw_completed_on_map(image: Image.Image, spec: MapSpec, sheet: dict[str, Any], offset: tuple[int, int]) -> None:
    """A check mark beside the wagon badge of every completed line."""
    spots = _badge_points(spec)
    for line in spec.lines:
        if line.id in sheet["completed"] and line.id in spots:
            x, y = spots[line.id]
            paste_centred(image, tick(22, (20, 140, 60)), x + offset[0] + 15, y + offset[1] - 15)


def _badge_points(spec: MapSpec) -> dict[str, tuple[float, float]]:
    from .mapdraw import badge_spots

    map_h, _ = _sheet_frame(spec, False)
    return badge_spots(spec, (SHEET_W, map_h), SHEET_STYLE)


def prewarm(
    maps: list[str] | None = None, special: tuple[bool, ...] = (False,), languages: tuple[str, ...] = ("en",)
) -> None:
    """Draw the static sheet layers of packaged maps ahead of time (about a second or two
    each, once per process), e.g. from a background thread when the bot starts, so that the
    first player to open a sheet does not wait for the label layout. The map layer holds
    no words (station names are data); the sheet's frame is drawn per language."""
    from metrobot.games.flipwrite.mapdata import load_map, map_names
    from metrobot.i18n import lang

    for name in maps if maps is not None else map_names():
        data = load_map(name).to_json()
        for flag in special:
            view = {"map": name, "map_data": data, "options": {"special_stations": flag}}
            spec = map_spec(view)
            for code in languages:
                _sheet_base(spec, flag, lang(code))
            map_h, _ = _sheet_frame(spec, flag)
            base, lay = static_map(spec, (SHEET_W, map_h), SHEET_STYLE, flag)
            marked_layer(("sheet", spec.key, flag), base, lay.points, cross(lay.radius, INK))
