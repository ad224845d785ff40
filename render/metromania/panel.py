"""The side panel of the MetrOmania image: who plays, scores, what is left, the trips."""
from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from metrobot.games.metromania.markers import LETTERS, MARKER_SET

from .board import SPOT_FILL, dashed, draw_spot_icon
from ..style import INK, MUTED, fit_text, font, player_colour

PHASES = {"building": "Building", "last_round": "Last round", "finished": "Game over"}
DAYS = dict(zip(LETTERS, ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat")))
TUNNELS = 18
STATIONS = 30


def draw_panel(d: ImageDraw.ImageDraw, view: dict[str, Any], box: tuple[int, int, int, int],
               names: dict[str, str]) -> None:
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=(250, 248, 243))
    d.line([(x0, y0), (x0, y1)], fill=(205, 198, 184), width=2)
    x = x0 + 24
    w = x1 - x - 20
    y = y0 + 22
    players = view["players"]
    seat = {p: i for i, p in enumerate(players)}
    phase = view["phase"]
    d.text((x, y), "MetrOmania", font=font(30, True), fill=INK)
    y += 42
    current = players[view.get("current", 0)] if phase != "finished" else None
    status = PHASES.get(phase, phase)
    if current is not None:
        status += f" · {names.get(current, current)} to play"
    elif view.get("winners"):
        won = " & ".join(names.get(p, p) for p in view["winners"])
        status += f" · {won} win{'s' if len(view['winners']) == 1 else ''}"
    d.text((x, y), fit_text(status, 18, w), font=font(18), fill=MUTED)
    y += 34

    markers = view["markers"]
    viewer = view.get("viewer")
    owners = view.get("owners") or {p: p for p in players}
    for p in players:
        colour = player_colour(seat[p])
        top = y
        if p == current:
            d.rounded_rectangle([x - 10, y - 6, x1 - 12, y + 92], radius=10, fill=(255, 243, 196))
        d.ellipse([x, y + 3, x + 18, y + 21], fill=colour)
        d.text((x + 28, y), fit_text(names.get(p, p), 21, w - 110, True), font=font(21, True), fill=INK)
        score = view["scores"].get(p, 0)
        d.text((x1 - 24, y), str(score), font=font(24, True), anchor="ra", fill=INK)
        y += 30
        for line in (l for l in view["lines"] if l["player"] == p):
            left = TUNNELS - len(line["cells"])
            sample = [(x + 2, y + 10), (x + 44, y + 10)]
            pieces = [sample] if line["style"] == "solid" else list(dashed(sample, 8, 5))
            for piece in pieces:
                d.line(piece, fill=colour, width=6)
            state = {"finished": "finished ✓", "blocked": "blocked ✗", "unstarted": "not started"}.get(
                line["status"], f"{left} tunnels left")
            d.text((x + 54, y), f"{line['style']}: {state}", font=font(16), fill=INK)
            y += 22
        hand = [m for m in markers if m["holder"] == p and m["cell"] is None]
        if viewer is not None and owners.get(p) == viewer or all(m["letter"] for m in hand):
            text = "hand: " + (", ".join(f"{m['letter']}-{m['kind']}" for m in hand) or "empty")
        else:
            text = f"hand: {len(hand)} marker{'s' if len(hand) != 1 else ''} (hidden)"
        d.text((x + 2, y), fit_text(text, 15, w), font=font(15), fill=MUTED)
        y = max(y + 30, top + 100)

    left = STATIONS - len(view["stations"])
    d.text((x, y), f"Stations left: {left} of {STATIONS}", font=font(18, True), fill=INK)
    y += 36
    d.text((x, y), "Test trips", font=font(20, True), fill=INK)
    y += 30
    placed = {(m["letter"], m["kind"]) for m in markers if m["cell"] is not None}
    trips = {t["name"]: t for t in view.get("trips", [])}
    for letter in LETTERS:
        d.text((x, y), f"{DAYS[letter]}  {letter}–{letter}", font=font(17, True), fill=INK)
        kinds = [k for k, letters in MARKER_SET.items() if letter in letters]
        cx = x + 108
        for kind in kinds:
            ok = (letter, kind) in placed
            d.rounded_rectangle([cx, y, cx + 26, y + 22], radius=5, fill=SPOT_FILL[kind] if ok else (236, 233, 226),
                                outline=(150, 142, 128))
            draw_spot_icon(d, kind, (cx + 13, y + 11), 7)
            d.text((cx + 31, y + 2), "placed" if ok else "in hand", font=font(14), fill=INK if ok else MUTED)
            cx += 90
        if letter in trips:
            t = trips[letter]
            d.text((x1 - 24, y + 2), "✗" if t["impossible"] else f"{t['minutes']} min", font=font(14, True),
                   anchor="ra", fill=INK)
        y += 28
    y += 10
    d.text((x, y), "Legend", font=font(17, True), fill=INK)
    y += 26
    for kind, label in (("res", "residential"), ("com", "commercial"), ("ent", "entertainment")):
        d.rounded_rectangle([x, y, x + 24, y + 22], radius=5, fill=SPOT_FILL[kind])
        draw_spot_icon(d, kind, (x + 12, y + 11), 7)
        d.text((x + 32, y + 2), label, font=font(15), fill=INK)
        y += 26
    d.ellipse([x + 4, y + 2, x + 20, y + 18], fill=(255, 255, 255), outline=INK, width=3)
    d.text((x + 32, y + 1), "station   S = start   T = end", font=font(15), fill=INK)
