"""The side panel of the MetrOmania image: who plays, scores, what is left, the trips.

Every word is in the `lang` the image is drawn in; marker letters, arrow names and names
are data. Texts that may run long in another language are fitted to their room.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from metrobot.games.metromania.markers import LETTERS, MARKER_SET
from metrobot.games.metromania.narration import line_state
from metrobot.games.metromania.state import STATION_SUPPLY as STATIONS
from metrobot.i18n import EN, N_, Lang

from ..style import INK, MUTED, fit_text, font, ink_on, player_colour
from .board import SPOT_FILL, draw_spot_icon
from .pieces import Point, dashed

PHASES = {"building": N_("Building"), "last_round": N_("Last round"), "finished": N_("Game over")}
STYLES = {"solid": N_("solid"), "dashed": N_("dashed")}
KINDS = {"res": N_("residential"), "com": N_("commercial"), "ent": N_("entertainment")}


def day_short(letter: str, lang: Lang = EN) -> str:
    """The weekday of a test trip, short (Monday's trip is A–A, ... Saturday's F–F)."""
    return {
        "A": lang.p("weekday, short", "Mon"),
        "B": lang.p("weekday, short", "Tue"),
        "C": lang.p("weekday, short", "Wed"),
        "D": lang.p("weekday, short", "Thu"),
        "E": lang.p("weekday, short", "Fri"),
        "F": lang.p("weekday, short", "Sat"),
    }[letter]


def kind_short(kind: str, lang: Lang = EN) -> str:
    """A destination marker's kind, short, as in a hand "A-res"."""
    return {
        "res": lang.p("marker kind, short", "res"),
        "com": lang.p("marker kind, short", "com"),
        "ent": lang.p("marker kind, short", "ent"),
    }.get(kind, kind)


def draw_panel(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    box: tuple[int, int, int, int],
    names: dict[str, str],
    lang: Lang = EN,
    vision: str = "off",
) -> None:
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=(250, 248, 243))
    d.line([(x0, y0), (x0, y1)], fill=(205, 198, 184), width=2)
    x = x0 + 24
    w = x1 - x - 20
    y = y0 + 22
    players: list[str] = view["players"]
    seat = {p: i for i, p in enumerate(players)}
    phase = view["phase"]
    d.text((x, y), fit_text(lang.t("MetrOmania"), 30, w, True), font=font(30, True), fill=INK)
    y += 42
    current = players[view.get("current", 0)] if phase != "finished" else None
    status = lang.t(PHASES[phase]) if phase in PHASES else phase
    if current is not None:
        status = lang.t("{phase} · {name} to play", phase=status, name=names.get(current, current))
    elif view.get("winners"):
        winners: list[str] = view["winners"]
        won = " & ".join(names.get(p, p) for p in winners)
        status = lang.n(
            "{phase} · {names} wins", "{phase} · {names} win", len(view["winners"]), phase=status, names=won
        )
    d.text((x, y), fit_text(status, 18, w), font=font(18), fill=MUTED)
    y += 34

    markers = view["markers"]
    viewer = view.get("viewer")
    owners = view.get("owners") or {p: p for p in players}
    for p in players:
        colour = player_colour(seat[p], vision)
        top = y
        if p == current:
            d.rounded_rectangle([x - 10, y - 6, x1 - 12, y + 92], radius=10, fill=(255, 243, 196))
        d.ellipse([x - 1, y + 1, x + 21, y + 23], fill=colour)  # the number the board's lines carry
        d.text((x + 10, y + 12.5), str(seat[p] + 1), font=font(15, True), anchor="mm", fill=ink_on(colour))
        d.text((x + 28, y), fit_text(names.get(p, p), 21, w - 110, True), font=font(21, True), fill=INK)
        score = view["scores"].get(p, 0)
        d.text((x1 - 24, y), str(score), font=font(24, True), anchor="ra", fill=INK)
        y += 30
        for line in (l for l in view["lines"] if l["player"] == p):
            sample: list[Point] = [(x + 2, y + 10), (x + 44, y + 10)]
            pieces = [sample] if line["style"] == "solid" else list(dashed(sample, 8, 5))
            for piece in pieces:
                d.line(piece, fill=colour, width=6)
            style = lang.t(STYLES[line["style"]]) if line["style"] in STYLES else line["style"]
            text = lang.t("{line}: {state}", line=style, state=line_state(line, lang))
            d.text((x + 54, y), fit_text(text, 16, w - 54), font=font(16), fill=INK)
            y += 22
        hand = [m for m in markers if m["holder"] == p and m["cell"] is None]
        if (viewer is not None and owners.get(p) == viewer) or all(m["letter"] for m in hand):
            held = lang.enumerated(f"{m['letter']}-{kind_short(m['kind'], lang)}" for m in hand)
            text = lang.t("hand: {markers}", markers=held) if held else lang.t("hand: empty")
        else:
            text = lang.n("hand: {n} marker (hidden)", "hand: {n} markers (hidden)", len(hand), n=len(hand))
        d.text((x + 2, y), fit_text(text, 15, w), font=font(15), fill=MUTED)
        y = max(y + 30, top + 100)

    left = STATIONS - len(view["stations"])
    d.text(
        (x, y),
        fit_text(lang.t("Stations left: {left} of {total}", left=left, total=STATIONS), 18, w, True),
        font=font(18, True),
        fill=INK,
    )
    y += 36
    d.text((x, y), fit_text(lang.t("Test trips"), 20, w, True), font=font(20, True), fill=INK)
    y += 30
    placed = {(m["letter"], m["kind"]) for m in markers if m["cell"] is not None}
    trips = {t["name"]: t for t in view.get("trips", [])}
    for letter in LETTERS:
        trip = f"  {letter}–{letter}"  # the day shortened if need be, never the trip's letters
        day = fit_text(day_short(letter, lang), 17, 100 - font(17, True).getlength(trip), True)
        d.text((x, y), day + trip, font=font(17, True), fill=INK)
        kinds = [k for k, letters in MARKER_SET.items() if letter in letters]
        cx = x + 108
        for kind in kinds:
            ok = (letter, kind) in placed
            d.rounded_rectangle(
                [cx, y, cx + 26, y + 22],
                radius=5,
                fill=SPOT_FILL[kind] if ok else (236, 233, 226),
                outline=(150, 142, 128),
            )
            draw_spot_icon(d, kind, (cx + 13, y + 11), 7)
            where = lang.t("placed") if ok else lang.t("in hand")
            d.text((cx + 31, y + 2), fit_text(where, 14, 56), font=font(14), fill=INK if ok else MUTED)
            cx += 90
        if letter in trips:
            t = trips[letter]
            d.text(
                (x1 - 24, y + 2),
                "✗" if t["impossible"] else lang.t("{minutes} min", minutes=t["minutes"]),
                font=font(14, True),
                anchor="ra",
                fill=INK,
            )
        y += 28
    y += 10
    d.text((x, y), fit_text(lang.t("Key"), 17, w, True), font=font(17, True), fill=INK)
    y += 26
    for kind, label in KINDS.items():
        d.rounded_rectangle([x, y, x + 24, y + 22], radius=5, fill=SPOT_FILL[kind])
        draw_spot_icon(d, kind, (x + 12, y + 11), 7)
        d.text((x + 32, y + 2), fit_text(lang.t(label), 15, w - 32), font=font(15), fill=INK)
        y += 26
    d.ellipse([x + 4, y + 2, x + 20, y + 18], fill=(255, 255, 255), outline=INK, width=3)
    d.text((x + 32, y + 1), fit_text(lang.t("station   S = start   T = end"), 15, w - 32), font=font(15), fill=INK)
