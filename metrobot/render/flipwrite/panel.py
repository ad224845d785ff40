"""The parts of the flip-and-write images around the map: the flipped card, the per-line
table (wagon windows, values, completion), the score boxes, and the score arithmetic
read from a view (the same formula as the engine's scoring, checked against its totals
in the tests).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from metrobot.i18n import EN, Lang
from metrobot.i18n import lang as language

from ..style import INK, MUTED, fit_text, font
from .mapdraw import text_on
from .marks import CachedDraw, Draw, paste_centred, tick
from .spec import LineSpec, MapSpec

LINE_TINT = 0.16  # how much of a line's colour tints its row once completed
PANEL_BG = (255, 255, 255)
RULE = (214, 208, 196)
EMPTY_BOX = (246, 244, 238)
PENDING = (255, 226, 110)

CARD_FILL = {"number": (32, 84, 160), "express": (196, 48, 40), "transfer": (16, 128, 84), "free": (112, 64, 160)}


def card_word(kind: str, lang: Lang = EN) -> str:
    """The word printed under a card's glyph."""
    return {
        "number": lang.p("card face", "stations"),
        "express": lang.p("card face", "EXPRESS"),
        "transfer": lang.p("card face", "TRANSFER"),
        "free": lang.p("card face", "FREE RIDE"),
    }[kind]


def card_kind(code: str) -> str:
    if code == "+":
        return "transfer"
    if code == "free":
        return "free"
    return "express" if code.startswith("E") else "number"


def draw_card(image: Image.Image, box: tuple[float, float, float, float], code: str | None, lang: Lang = EN) -> None:
    """The face-up card, big: a coloured card with its value and kind (a cached sprite)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    sprite = card_sprite(code, x1 - x0, y1 - y0, lang.code)
    image.paste(sprite, (x0, y0), sprite)


def _fitting(text: str, size: int, room: float, least: int = 8) -> int:
    """The largest font size up to `size` at which the bold `text` fits `room`."""
    while size > least and font(size, True).getlength(text) > room:
        size -= 1
    return size


@lru_cache(maxsize=64)
def card_sprite(code: str | None, w: int, h: int, language_code: str = "en") -> Image.Image:
    """Cached per card, size and language (the card's words are drawn on it)."""
    lang = language(language_code)
    k = 2
    big = Image.new("RGBA", ((w + 6) * k, (h + 7) * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    W, H = w * k, h * k
    box = (0, 0, W, H)
    if code is None:
        d.rounded_rectangle(box, radius=W * 0.12, fill=(236, 233, 226, 255), outline=MUTED, width=3 * k)
        d.text((W / 2, H / 2), "—", font=font(int(H * 0.3), True), anchor="mm", fill=MUTED)
        return big.resize((w + 6, h + 7), Image.Resampling.LANCZOS)
    kind = card_kind(code)
    fill, word = CARD_FILL[kind], card_word(kind, lang)
    white = (255, 255, 255)
    d.rounded_rectangle([4 * k, 5 * k, W + 4 * k, H + 5 * k], radius=W * 0.12, fill=(200, 195, 185, 255))  # shadow
    d.rounded_rectangle(box, radius=W * 0.12, fill=fill, outline=white, width=max(3 * k, int(W * 0.04)))
    inner = max(3 * k, int(W * 0.07))
    d.rounded_rectangle(
        [inner, inner, W - inner, H - inner], radius=W * 0.08, outline=white, width=max(k, int(W * 0.015))
    )
    cx = W / 2
    if kind == "number":
        glyph, size = code, 0.5
    elif kind == "express":
        glyph, size = code[1:], 0.46
    elif kind == "transfer":
        glyph, size = "+", 0.58
    else:
        glyph, size = lang.p("card face", "FREE"), 0.2
    room = W - 2 * inner - 6 * k
    d.text(
        (cx, H * (0.44 if kind != "free" else 0.42)),
        glyph,
        font=font(_fitting(glyph, int(H * size), room), True),
        anchor="mm",
        fill=white,
    )
    d.text((cx, H * 0.8), word, font=font(_fitting(word, int(H * 0.1), room), True), anchor="mm", fill=white)
    if kind == "free":
        any_one = lang.p("card face", "any 1 station")
        d.text(
            (cx, H * 0.6),
            fit_text(any_one, max(8, int(H * 0.075)), room),
            font=font(max(8, int(H * 0.075))),
            anchor="mm",
            fill=white,
        )
    return big.resize((w + 6, h + 7), Image.Resampling.LANCZOS)


def card_text(code: str | None, lang: Lang = EN) -> str:
    """The card's name, as the narration calls it."""
    if code is None:
        return lang.t("no card")
    kind = card_kind(code)
    if kind == "number":
        return lang.n("{n} station", "{n} stations", int(code), n=code)
    if kind == "express":
        return lang.t("Express {value}", value=code[1:])
    return lang.t("Transfer (+)") if kind == "transfer" else lang.t("Free ride")


# ---------------------------------------------------------------- score from a view
def sheet_score(view: dict[str, Any], spec: MapSpec, player: str) -> dict[str, int]:
    """Completion, transfers (2 x boxed numbers), empty penalty, total, and counts."""
    sheet = view["sheets"][player]
    marks = sheet["marks"]
    solo = bool((view.get("options") or {}).get("solo"))
    completion = sum(c["points"] for c in sheet["completed"].values())
    boxed = [v for v in marks.values() if isinstance(v, int) and not isinstance(v, bool)]
    transfers = 2 * sum(boxed)
    empty = sum(1 for s in spec.stations if s.id not in marks)
    penalty = empty if solo else empty // 2
    filled = sum(1 for ws in sheet["windows"].values() for w in ws if w is not None)
    total_windows = sum(len(ws) for ws in sheet["windows"].values())
    return {
        "completion": completion,
        "transfers": transfers,
        "empty_penalty": penalty,
        "total": completion + transfers - penalty,
        "empty": empty,
        "boxes": len(boxed),
        "windows": filled,
        "windows_total": total_windows,
        "lines_done": len(sheet["completed"]),
    }


def claimed_by_others(view: dict[str, Any], player: str) -> set[str]:
    """Lines somebody else has completed: this player can only score their low value."""
    if (view.get("options") or {}).get("solo"):
        return set()
    out: set[str] = set()
    for p, sheet in view["sheets"].items():
        if p != player:
            out.update(sheet["completed"])
    return out


# ---------------------------------------------------------------- the line table
ROW_H = 56


def line_table_height(spec: MapSpec) -> int:
    return ((len(spec.lines) + 1) // 2) * ROW_H + 16


def line_rows(spec: MapSpec, box: tuple[int, int, int, int]) -> dict[str, dict[str, tuple[int, int, int, int]]]:
    """Boxes of each line's row and of its parts (badge, windows, values, status)."""
    x0, y0, x1, _ = box
    per = (len(spec.lines) + 1) // 2
    colw = (x1 - x0) // 2
    out = {}
    for i, line in enumerate(spec.lines):
        col, row = divmod(i, per)
        left = x0 + col * colw
        top = y0 + 8 + row * ROW_H
        right = left + colw - 10
        out[line.id] = {
            "row": (left + 8, top, right, top + ROW_H - 6),
            "badge": (left + 16, top + 4, left + 56, top + 44),
            "windows": (left + 222, top + 4, left + 222 + 4 * 46 - 6, top + 44),
            "values": (left + 410, top + 4, left + 478, top + 44),
            "status": (left + 488, top + 2, right - 4, top + 46),
        }
    return out


def draw_table_static(image: Image.Image, spec: MapSpec, box: tuple[int, int, int, int]) -> None:
    """What every round shares: badges, names, empty windows, values, the column rule."""
    d = ImageDraw.Draw(image)
    for line in spec.lines:
        parts = line_rows(spec, box)[line.id]
        _name_cell(d, parts, line)
        _windows(d, parts["windows"], [None] * line.windows, None)
        _values(d, parts["values"], line, False)
    mid = (box[0] + box[2]) // 2
    d.line([(mid - 4, box[1] + 10), (mid - 4, box[3] - 8)], fill=RULE, width=2)


def draw_line_table(
    image: Image.Image,
    view: dict[str, Any],
    spec: MapSpec,
    player: str,
    box: tuple[int, int, int, int],
    pending: dict[str, Any] | None = None,
    lang: Lang = EN,
) -> None:
    """This round's part of the table, over `draw_table_static`: written windows (the
    viewer's sealed ones highlighted), progress, lost high values, completions."""
    d = CachedDraw(image)
    sheet = view["sheets"][player]
    marks = sheet["marks"]
    claimed = claimed_by_others(view, player)
    new_windows = (pending or {}).get("windows", {})
    rows = line_rows(spec, box)
    for line in spec.lines:
        parts = rows[line.id]
        done = sheet["completed"].get(line.id)
        codes = sheet["windows"][line.id]
        pend = new_windows.get(line.id)
        if done:  # a tinted row: everything in it is drawn again on the tint
            tint = tuple(int(255 * (1 - LINE_TINT) + c * LINE_TINT) for c in line.colour)
            d.rounded_rectangle(parts["row"], radius=10, fill=tint)
            _name_cell(d, parts, line)
            _windows(d, parts["windows"], codes, pend)
            _values(d, parts["values"], line, False)
        else:
            if any(c is not None for c in codes) or (pend and any(c is not None for c in pend)):
                _windows(d, parts["windows"], codes, pend, only_written=True)
            if line.id in claimed:
                _values(d, parts["values"], line, True)
        bx1 = parts["badge"][2]
        room = parts["windows"][0] - bx1 - 18
        n_marked = sum(1 for s in line.stations if s in marks)
        if line.ring:
            count = lang.t("{marked}/{total} stations · ring", marked=n_marked, total=len(line.stations))
        else:
            count = lang.t("{marked}/{total} stations", marked=n_marked, total=len(line.stations))
        d.text((bx1 + 10, parts["badge"][1] + 26), fit_text(count, 13, room), font=font(13), fill=MUTED)
        sx0, sy0, sx1, sy1 = parts["status"]
        if done:
            paste_centred(image, tick(34, _deep(line.colour)), sx0 + 19, (sy0 + sy1) / 2)
            d.text((sx0 + 44, sy0 + 2), f"+{done['points']}", font=font(22, True), fill=INK)
            d.text(
                (sx0 + 44, sy0 + 27),
                fit_text(lang.t("round {round}", round=done["round"]), 14, sx1 - sx0 - 44),
                font=font(14),
                fill=MUTED,
            )
        else:
            to_go = lang.t("{n} to go", n=len(line.stations) - n_marked)
            d.text(
                (sx0 + 4, (sy0 + sy1) / 2), fit_text(to_go, 15, sx1 - sx0 - 4), font=font(15), anchor="lm", fill=MUTED
            )


def _name_cell(d: Draw, parts: dict, line: LineSpec) -> None:
    _badge(d, parts["badge"], line)
    bx1 = parts["badge"][2]
    room = parts["windows"][0] - bx1 - 18
    size = 19
    while size > 14 and font(size, True).getlength(line.name) > room:
        size -= 1
    d.text(
        (bx1 + 10, parts["badge"][1] + 21),
        fit_text(line.name, size, room, True),
        font=font(size, True),
        anchor="ls",
        fill=INK,
    )


def _deep(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A line colour dark enough to carry a white check mark."""
    r, g, b = colour
    lum = 0.299 * r + 0.587 * g + 0.114 * b
    k = min(1.0, 120 / lum) if lum > 120 else 1.0
    return int(r * k), int(g * k), int(b * k)


def _badge(d: Draw, box, line: LineSpec) -> None:
    d.rounded_rectangle(box, radius=8, fill=line.colour)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    d.text((cx, cy + 1), line.id, font=font(26, True), anchor="mm", fill=text_on(line.colour))


def _windows(d: Draw, box, codes: list, pending_codes: list | None, only_written: bool = False) -> None:
    x, y0, _, y1 = box
    for i, code in enumerate(codes):
        new = pending_codes is not None and code is None and i < len(pending_codes) and pending_codes[i] is not None
        shown = pending_codes[i] if new and pending_codes is not None else code
        r = (x, y0, x + 40, y1)
        if only_written and shown is None:
            x += 46
            continue
        fill = PENDING if new else ((255, 255, 255) if shown is not None else EMPTY_BOX)
        d.rounded_rectangle(r, radius=6, fill=fill, outline=INK if shown is not None else (170, 164, 152), width=2)
        if shown is not None:
            size = 22 if len(shown) == 1 else 18
            # the cards' hues, deep enough for 4.5:1 on white and on the yellow of a sealed choice
            colour = (180, 40, 34) if shown.startswith("E") else ((14, 116, 76) if shown == "+" else INK)
            d.text((x + 20, (y0 + y1) / 2 + 1), shown, font=font(size, True), anchor="mm", fill=colour)
        x += 46


def _values(d: Draw, box, line: LineSpec, high_gone: bool) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=6, fill=(255, 255, 255), outline=(170, 164, 152), width=2)
    mid = (x0 + x1) / 2
    d.line([(mid, y0 + 6), (mid, y1 - 6)], fill=(200, 194, 182), width=2)
    hx = (x0 + mid) / 2
    d.text(
        (hx, (y0 + y1) / 2 + 1), str(line.high), font=font(22, True), anchor="mm", fill=MUTED if high_gone else INK
    )  # struck through in red when gone
    if high_gone:  # somebody completed it first: only the low value is left
        d.line([(hx - 12, y1 - 12), (hx + 12, y0 + 12)], fill=(196, 48, 40), width=3)
    d.text(((mid + x1) / 2, (y0 + y1) / 2 + 1), str(line.low), font=font(17), anchor="mm", fill=MUTED)


SCORE_WIDTHS = (200, 200, 200)


def score_titles(lang: Lang = EN) -> tuple[str, str, str]:
    return lang.p("score box", "Lines"), lang.p("score box", "Transfers"), lang.p("score box", "Empty")


def draw_score_static(image: Image.Image, box: tuple[int, int, int, int], lang: Lang = EN) -> None:
    """The score boxes and their titles (the same every round)."""
    d = ImageDraw.Draw(image)
    x0, y0, _x1, y1 = box
    x = x0 + 16
    cy = (y0 + y1) / 2
    for title, w in zip(score_titles(lang), SCORE_WIDTHS):
        d.rounded_rectangle([x, y0 + 8, x + w, y1 - 8], radius=10, fill=(255, 255, 255), outline=RULE, width=2)
        d.text((x + 14, y0 + 16), fit_text(title, 15, w - 28, True), font=font(15, True), fill=MUTED)
        x += w + 12
    d.text((x + 8, cy), "=", font=font(30, True), anchor="lm", fill=MUTED)
    x += 40
    d.rounded_rectangle([x, y0 + 6, x + 170, y1 - 6], radius=12, fill=INK)
    d.text(
        (x + 16, y0 + 16),
        fit_text(lang.p("score box", "Score"), 16, 140, True),
        font=font(16, True),
        fill=(255, 255, 255),
    )


def draw_score_row(
    image: Image.Image, score: dict[str, int], box: tuple[int, int, int, int], solo: bool, lang: Lang = EN
) -> None:
    """completion + transfers − empty penalty = total, into the boxes of `draw_score_static`."""
    d = CachedDraw(image)
    x0, y0, _x1, y1 = box
    empty = score["empty"]
    values = [
        (f"{score['completion']}", lang.t("{n} completed", n=score["lines_done"])),
        (f"+{score['transfers']}", lang.t("2 × boxed ({n})", n=score["boxes"])),
        (
            f"−{score['empty_penalty']}",
            lang.n("{n} station", "{n} stations", empty, n=empty)
            if solo
            else lang.n("{n} station ÷ 2", "{n} stations ÷ 2", empty, n=empty),
        ),
    ]
    x = x0 + 16
    cy = (y0 + y1) / 2
    for w, (big, small) in zip(SCORE_WIDTHS, values):
        room = w - 34 - font(28, True).getlength(big)
        d.text((x + 14, y0 + 36), fit_text(small, 13, room), font=font(13), fill=MUTED)
        d.text((x + w - 14, cy), big, font=font(28, True), anchor="rm", fill=INK)
        x += w + 12
    x += 40
    d.text((x + 156, cy), str(score["total"]).replace("-", "−"), font=font(36, True), anchor="rm", fill=(255, 255, 255))
