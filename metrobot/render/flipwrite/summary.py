"""The round summary of the flip-and-write game: every player's sheet as a small multiple.

One panel per player (seat order; 1-8 players in a grid): the player's colour, name and
score, whether they have chosen this round, their marks on a small copy of the map, a chip
per line (filled with a check and the points once completed), windows filled and empty
stations. Above: the round and the card of the round; at the end, the final ranking.

Everything that is the same every round (panels, small maps, unfilled chips, captions) is a
cached base image; a round pastes the marks through one mask per player and writes the text.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from PIL import Image, ImageDraw

from metrobot.i18n import EN, Lang

from ..style import INK, MUTED, fit_text, font, ink_on, player_colour
from ..vision import palette_key
from .geometry import fit_height
from .mapdraw import SheetLayout, Style, static_map
from .marks import CachedDraw, Draw, disc, marked_layer, paste_centred, square, tick
from .panel import RULE, card_text, draw_card, sheet_score
from .spec import MapSpec, map_spec

COLUMNS = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4}
WIDTHS = {1: 1000, 2: 1400, 3: 1500, 4: 1400, 5: 1500, 6: 1500, 7: 1600, 8: 1600}
HEADER_H = 150
GAP = 14
PANEL_TOP = 78  # name, score, status above the map
PANEL_BOTTOM = 92  # line chips and counts below it
RANK_ROW = 40
BACKDROP = (236, 232, 223)
WHITE = (255, 255, 255)


def _name(names: dict[str, str] | None, player: str) -> str:
    return (names or {}).get(player, player)


def summary_layout(view: dict[str, Any]) -> dict[str, Any]:
    """Image size; per player (seat order) the boxes of the panel, its map and its line
    chips; the ranking box when the game is over."""
    spec = map_spec(view)
    n = len(view["players"])
    cols = COLUMNS.get(n, 4)
    rows = (n + cols - 1) // cols
    width = WIDTHS.get(n, 1600)
    pw = (width - GAP * (cols + 1)) // cols
    mini = _mini_style(pw)
    mw = pw - 16
    mh = fit_height(spec, mw, mini.pad, mw * 0.45, mw * 0.9)
    ph = PANEL_TOP + mh + PANEL_BOTTOM
    n_lines = len(spec.lines)
    chip = min(34, (pw - 24 - (n_lines - 1) * 4) // n_lines)
    panels = {}
    for i, p in enumerate(view["players"]):
        r, c = divmod(i, cols)
        x = GAP + c * (pw + GAP)
        y = HEADER_H + GAP + r * (ph + GAP)
        cy = y + PANEL_TOP + mh + 8
        chips = {
            line.id: (x + 12 + j * (chip + 4), cy, x + 12 + j * (chip + 4) + chip, cy + chip)
            for j, line in enumerate(spec.lines)
        }
        panels[p] = {
            "panel": (x, y, x + pw, y + ph),
            "map": (x + 8, y + PANEL_TOP, x + 8 + mw, y + PANEL_TOP + mh),
            "chips": chips,
        }
    height = HEADER_H + GAP + rows * (ph + GAP)
    ranking = None
    if view["phase"] == "finished":
        ranking = (GAP, height, width - GAP, height + 56 + n * RANK_ROW + (40 if view.get("rating") else 0))
        height = ranking[3] + GAP
    return {
        "size": (width, height),
        "panels": panels,
        "map_size": (mw, mh),
        "ranking": ranking,
        "style": mini,
        "chip": chip,
    }


def _mini_style(panel_w: int) -> Style:
    f = max(0.8, min(2.0, panel_w / 380))
    return Style(
        line_width=round(3.2 * f, 1),
        radius=round(3.6 * f, 1),
        spacing=round(3.6 * f, 1),
        labels=False,
        badges=False,
        pad=(10, 10, 10, 10),
    )


class Lru:
    def __init__(self, size: int):
        self.size, self.data, self.lock = size, OrderedDict(), Lock()

    def get(self, key):
        with self.lock:
            hit = self.data.get(key)
            if hit is not None:
                self.data.move_to_end(key)
            return hit

    def put(self, key, value) -> None:
        with self.lock:
            self.data[key] = value
            while len(self.data) > self.size:
                self.data.popitem(last=False)


_BASES = Lru(12)


def clear_cache() -> None:
    """Forget the summaries' drawn bases."""
    _BASES.data.clear()


def _base(
    spec: MapSpec, lay: dict[str, Any], n: int, special: bool, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    """Backdrop, header, panels with their small maps, unfilled chips, captions (cached per
    map, size, variant, language and palette: the captions are words, panels coloured)."""
    key = (spec.key, lay["size"], n, special, lay["ranking"], lang.code, palette_key(vision))
    hit = _BASES.get(key)
    if hit is not None:
        return hit
    width, height = lay["size"]
    base = Image.new("RGB", (width, height), BACKDROP)
    d = ImageDraw.Draw(base)
    d.rectangle([0, 0, width, HEADER_H], fill=WHITE)
    d.line([(0, HEADER_H), (width, HEADER_H)], fill=RULE, width=2)
    mini, _ = static_map(spec, lay["map_size"], lay["style"], special, background=WHITE)
    chip = lay["chip"]
    for seat, boxes in enumerate(lay["panels"].values()):
        x0, y0, x1, _y1 = boxes["panel"]
        colour = player_colour(seat, vision)
        d.rounded_rectangle(boxes["panel"], radius=12, fill=WHITE, outline=RULE, width=2)
        d.rounded_rectangle([x0, y0, x1, y0 + 10], radius=5, fill=colour)
        d.rectangle([x0, y0 + 5, x1, y0 + 10], fill=colour)
        d.ellipse([x0 + 12, y0 + 22, x0 + 34, y0 + 44], fill=colour, outline=INK, width=1)
        d.text((x1 - 14, y0 + 56), fit_text(lang.t("points"), 13, 120), font=font(13), anchor="ra", fill=MUTED)
        base.paste(mini, boxes["map"][:2])
        for line in spec.lines:
            r = boxes["chips"][line.id]
            d.rounded_rectangle(r, radius=5, fill=WHITE, outline=line.colour, width=3)
            d.text(
                ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2 + 1),
                line.id,
                font=font(int(chip * 0.55), True),
                anchor="mm",
                fill=INK,
            )
    if lay["ranking"] is not None:
        d.rounded_rectangle(lay["ranking"], radius=12, fill=WHITE, outline=RULE, width=2)
        x0, y0 = lay["ranking"][:2]
        d.text((x0 + 20, y0 + 14), fit_text(lang.t("Final ranking"), 24, 560, True), font=font(24, True), fill=INK)
    _BASES.put(key, base)
    return base


def summary_image(
    view: dict[str, Any], names: dict[str, str] | None = None, lang: Lang = EN, vision: str = "off"
) -> Image.Image:
    """Every player's sheet as a small multiple, the card and the round; the ranking at the
    end; its words in `lang`, its colours in the palette of `vision`."""
    spec = map_spec(view, vision)
    special = bool((view.get("options") or {}).get("special_stations"))
    lay = summary_layout(view)
    image = _base(spec, lay, len(view["players"]), special, lang, vision).copy()
    d = CachedDraw(image)
    _header(image, d, view, spec, names, lay["size"][0], lang)
    mini_map, mini = static_map(spec, lay["map_size"], lay["style"], special, background=WHITE)
    finished = view["phase"] == "finished"
    winners = set(view.get("winners") or []) if len(view["players"]) > 1 else set()
    for seat, p in enumerate(view["players"]):
        _panel(image, d, view, spec, p, seat, lay, mini_map, mini, names, finished, p in winners, lang, vision)
    if lay["ranking"] is not None:
        _ranking(d, view, spec, names, lay["ranking"], lang, vision)
    return image


def _header(
    image: Image.Image,
    d: Draw,
    view: dict[str, Any],
    spec: MapSpec,
    names: dict[str, str] | None,
    width: int,
    lang: Lang = EN,
) -> None:
    finished = view["phase"] == "finished"
    heading = lang.t("{game} · {map}", game=lang.t("Metro flip-and-write"), map=spec.name)
    d.text((24, 16), fit_text(heading, 24, width - 48, True), font=font(24, True), fill=MUTED)
    if finished:
        d.text((24, 50), fit_text(lang.t("Game over"), 44, width - 48, True), font=font(44, True), fill=INK)
        winners = view.get("winners") or []
        who = lang.enumerated(_name(names, w) for w in winners)
        if len(view["players"]) == 1:
            total = (view.get("breakdown") or {}).get(winners[0], {}).get("total", view["scores"].get(winners[0], 0))
            text = lang.n(
                "{name}: {total} point",
                "{name}: {total} points",
                abs(total),
                name=who,
                total=str(total).replace("-", "−"),
            )
        else:
            text = (
                lang.t("★ {names} wins", names=who) if len(winners) == 1 else lang.t("★ shared win: {names}", names=who)
            )
        text += " · " + lang.n("{n} round", "{n} rounds", view["rounds"], n=view["rounds"])
        d.text((24, 106), fit_text(text, 22, width - 60, True), font=font(22, True), fill=INK)
        return
    card = (width - 124, 12, width - 24, 138)
    name = card_text(view.get("card"), lang)
    room = card[0] - 18 - 24 - max(font(32, True).getlength(name), font(18).getlength(lang.t("card of the round")))
    d.text(
        (24, 50),
        fit_text(lang.t("Round {round}", round=view["round"]), 44, room - 24, True),
        font=font(44, True),
        fill=INK,
    )
    waiting = list(view.get("waiting", []))
    text = (
        lang.t("waiting for {names}", names=lang.enumerated(_name(names, p) for p in waiting))
        if waiting
        else lang.t("everybody has chosen")
    )
    d.text((24, 108), fit_text(text, 20, width - 420), font=font(20), fill=MUTED)
    d.text((card[0] - 18, 44), fit_text(lang.t("card of the round"), 18, 360), font=font(18), anchor="rm", fill=MUTED)
    d.text((card[0] - 18, 80), name, font=font(32, True), anchor="rm", fill=INK)
    draw_card(image, card, view.get("card"), lang)


def _panel(
    image: Image.Image,
    d: Draw,
    view: dict[str, Any],
    spec: MapSpec,
    p: str,
    seat: int,
    lay: dict[str, Any],
    mini_map: Image.Image,
    mini: SheetLayout,
    names,
    finished: bool,
    winner: bool,
    lang: Lang = EN,
    vision: str = "off",
) -> None:
    boxes = lay["panels"][p]
    x0, y0, x1, y1 = boxes["panel"]
    colour = player_colour(seat, vision)
    sheet = view["sheets"][p]
    score = sheet_score(view, spec, p)
    total = str(score["total"]).replace("-", "−")
    tw = font(34, True).getlength(total)
    name = fit_text(_name(names, p), 22, x1 - x0 - 62 - tw, True)
    d.text((x0 + 42, y0 + 19), name, font=font(22, True), fill=INK)
    d.text((x1 - 14, y0 + 16), total, font=font(34, True), anchor="ra", fill=INK)
    if finished:
        if len(view["players"]) == 1:
            status, ink = "", MUTED
        elif winner:
            status, ink = lang.t("★ winner"), (150, 95, 0)
        else:
            place = next(pl for pl, q, _ in places(view, spec) if q == p)
            status, ink = ordinal_place(place, lang), MUTED
    elif p in view.get("sitting_out", []):
        status, ink = lang.t("all windows filled"), MUTED
    elif p in view.get("decided", []):
        status, ink = lang.t("✓ has chosen"), (20, 130, 60)
    else:
        status, ink = lang.t("choosing…"), (180, 90, 0)
    if status:  # beside it, the caption "points" under the score
        room = x1 - x0 - 42 - 14 - font(13).getlength(lang.t("points")) - 8
        d.text((x0 + 42, y0 + 48), fit_text(status, 15, room, True), font=font(15, True), fill=ink)
    # marks on the small map: crosses through one mask, boxed numbers one by one
    mx, my = boxes["map"][:2]
    special = bool((view.get("options") or {}).get("special_stations"))
    key = ("mini", spec.key, lay["map_size"], lay["style"], special, colour)
    layer = marked_layer(key, mini_map, mini.points, disc(mini.radius, colour))
    layer.paste(image, (mx, my), [sid for sid, mark in sheet["marks"].items() if mark == "x"])
    for sid, mark in sheet["marks"].items():
        if mark != "x" and sid in mini.points:
            x, y = mini.points[sid]
            paste_centred(image, square(mini.radius, colour, int(mark)), x + mx, y + my)
    chip = lay["chip"]
    for line in spec.lines:
        done = sheet["completed"].get(line.id)
        if not done:
            continue
        r = boxes["chips"][line.id]
        # filled, its letter kept (colour is never the only cue), a check mark in its corner
        d.rounded_rectangle(r, radius=5, fill=line.colour)
        d.text(
            (r[0] + chip * 0.38, (r[1] + r[3]) / 2 + 1),
            line.id,
            font=font(int(chip * 0.5), True),
            anchor="mm",
            fill=ink_on(line.colour),
        )
        paste_centred(image, tick(max(12, int(chip * 0.5)), _dark(line.colour)), r[2] - chip * 0.2, r[1] + chip * 0.22)
        d.text(
            ((r[0] + r[2]) / 2, r[3] + 3),
            f"+{done['points']}",
            font=font(max(11, int(chip * 0.42)), True),
            anchor="ma",
            fill=INK,
        )
    stats = lang.t(
        "windows {filled}/{windows} · lines {lines} · empty {empty}",
        filled=score["windows"],
        windows=score["windows_total"],
        lines=score["lines_done"],
        empty=score["empty"],
    )
    d.text((x0 + 12, y1 - 24), fit_text(stats, 15, x1 - x0 - 24), font=font(15), fill=MUTED)


def _dark(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return int(colour[0] * 0.55), int(colour[1] * 0.55), int(colour[2] * 0.55)


def places(view: dict[str, Any], spec: MapSpec) -> list[tuple[int, str, dict[str, int]]]:
    """(place, player, score breakdown), best first: most points, then fewer empty
    stations; players still tied share the place."""
    breakdown = view.get("breakdown") or {p: sheet_score(view, spec, p) for p in view["players"]}
    order = sorted(
        view["players"], key=lambda p: (-breakdown[p]["total"], breakdown[p]["empty"], view["players"].index(p))
    )
    out, place, prev = [], 0, None
    for i, p in enumerate(order):
        b = breakdown[p]
        if (b["total"], b["empty"]) != prev:
            place, prev = i + 1, (b["total"], b["empty"])
        out.append((place, p, b))
    return out


def ordinal_place(n: int, lang: Lang = EN) -> str:
    """ "1st place", "2nd place", ...: one text per English ending (a translation may use
    the same words for all four)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return lang.t("{n}th place", n=n)
    if n % 10 == 1:
        return lang.t("{n}st place", n=n)
    return lang.t("{n}nd place", n=n) if n % 10 == 2 else lang.t("{n}rd place", n=n)


def _ranking(d: Draw, view: dict[str, Any], spec: MapSpec, names, box, lang: Lang = EN, vision: str = "off") -> None:
    x0, y0, x1, _y1 = box
    winners = set(view.get("winners") or []) if len(view["players"]) > 1 else set()
    y = y0 + 52
    for place, p, b in places(view, spec):
        if p in winners:
            d.rounded_rectangle([x0 + 10, y - 3, x1 - 10, y + RANK_ROW - 5], radius=8, fill=(255, 236, 170))
        seat = view["players"].index(p)
        d.text((x0 + 28, y + 16), f"{place}.", font=font(22, True), anchor="lm", fill=INK)
        d.ellipse([x0 + 70, y + 6, x0 + 90, y + 26], fill=player_colour(seat, vision), outline=INK, width=1)
        label = ("★ " if p in winners else "") + _name(names, p)
        d.text((x0 + 100, y + 16), fit_text(label, 21, 400, True), font=font(21, True), anchor="lm", fill=INK)
        d.text((x0 + 560, y + 16), str(b["total"]).replace("-", "−"), font=font(24, True), anchor="rm", fill=INK)
        values = {"lines": b["completion"], "transfers": f"+{b['transfers']}", "empty": f"−{b['empty_penalty']}"}
        detail = lang.t("lines {lines}  ·  transfers {transfers}  ·  empty {empty}", **values)
        more = lang.n(
            "lines {lines}  ·  transfers {transfers}  ·  empty {empty} ({n} station)",
            "lines {lines}  ·  transfers {transfers}  ·  empty {empty} ({n} stations)",
            b["empty"],
            n=b["empty"],
            **values,
        )
        room = x1 - x0 - 620
        if font(17).getlength(more) <= room:
            detail = more
        d.text((x0 + 600, y + 16), fit_text(detail, 17, room), font=font(17), anchor="lm", fill=MUTED)
        y += RANK_ROW
    if view.get("rating"):
        r = view["rating"]
        d.text(
            (x0 + 28, y + 12),
            fit_text(
                lang.t("Solo rating {band}: {text}", band=lang.t(r["band"]), text=lang.t(r["text"])), 20, x1 - x0 - 56
            ),
            font=font(20, True),
            anchor="lm",
            fill=INK,
        )
