"""The side panel of the On the Underground board: whose turn, every player with their
colours (pieces left), score and branch tokens, the face-up destinations and the deck,
the passenger's last trip, the connection pairs of this game, and a legend.

Every word is in the `lang` the image is drawn in, colour names included (moves accept
them in any of our languages); people's names, station names and the map's title are data.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from metrobot.games.underground.words import colour as colour_word
from metrobot.games.underground.words import destination_kind
from metrobot.i18n import EN, Lang

from ..style import INK, MUTED, fit_around, fit_text, font, text_width
from .board import last_trips, new_placements
from .geometry import umap
from .glyphs import pawn, symbol
from .palette import CASING, EXPRESS, EXPRESS_INK, NATIONAL_RAIL, RULE, STATION_INK, Palette, palette
from .static import national_rail_arrows
from .strokes import CHEVRON
from .tags import code, draw_tag, ring_of
from .tags import sprite as tag_sprite

CURRENT = (255, 240, 186)
YOU = (0, 114, 178)
SYMBOL_ORDER = ("suitcase", "umbrella", "bowler", "teapot")
MAX_OPTIONS = 3  # tied routes listed


def _trip(kind: str, to: str, walks: int, lang: Lang) -> str:
    if walks:
        return lang.n(
            "{kind} → {station} · {n} walk",
            "{kind} → {station} · {n} walks",
            walks,
            n=walks,
            kind=destination_kind(kind, lang),
            station=to,
        )
    return lang.t("{kind} → {station}", kind=destination_kind(kind, lang), station=to)


def _route(number: int, to: str, walks: int, lang: Lang) -> str:
    if walks:
        return lang.n(
            "route {number} → {station} · {n} walk",
            "route {number} → {station} · {n} walks",
            walks,
            number=number,
            station=to,
            n=walks,
        )
    return lang.t("route {number} → {station}", number=number, station=to)


def _name(names: dict[str, str] | None, p: str) -> str:
    return (names or {}).get(p, p)


def turn_order(view: dict[str, Any]) -> list[str]:
    players = view["players"]
    i = players.index(view.get("start_player", players[0])) if view.get("start_player") in players else 0
    return players[i:] + players[:i]


def swatch(d: ImageDraw.ImageDraw, box, colour: str, pal: Palette | None = None) -> None:
    """A short piece of track in a colour (cased if light)."""
    pal = pal or palette()
    x0, y0, x1, y1 = box
    if colour in CASING:
        d.rounded_rectangle(box, radius=3, fill=CASING[colour])
        d.rounded_rectangle([x0 + 2, y0 + 2, x1 - 2, y1 - 2], radius=2, fill=pal.line(colour))
    else:
        d.rounded_rectangle(box, radius=3, fill=pal.line(colour))


def tagged_swatch(image: Image.Image, box, colour: str, pal: Palette, lang: Lang = EN) -> None:
    """A piece of track with the colour's code on it, as the map shows its sections' ends."""
    swatch(ImageDraw.Draw(image), box, colour, pal)
    draw_tag(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), colour, pal, lang)


def tags_in_a_row(
    image: Image.Image,
    x: float,
    y: float,
    right: float,
    colours: list[str],
    pal: Palette,
    lang: Lang = EN,
    height: int = 15,
) -> float:
    """Small tags of `colours` from (x, middle y) on, as many as fit before `right`;
    returns where the next thing may go."""
    for c in colours:
        w = tag_sprite(code(c, lang), ring_of(c, pal), height).width
        if x + w > right:
            break
        draw_tag(image, (x + w / 2, y), c, pal, lang, height)
        x += w + 5
    return x


def draw_panel(
    image: Image.Image,
    view: dict[str, Any],
    viewer: str | None,
    box,
    names: dict[str, str] | None,
    lang: Lang = EN,
    pal: Palette | None = None,
) -> None:
    pal = pal or palette()
    d = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    x, w = x0 + 22, x1 - x0 - 40
    right = x1 - 18
    y = y0 + 16
    m = umap(view)
    d.text((x, y), fit_text(lang.t("On the Underground"), 30, w, True), font=font(30, True), fill=INK)
    y += 40
    phase = view.get("phase")
    current = (view.get("turn") or {}).get("player")
    if phase == "finished":
        won = " & ".join(_name(names, p) for p in view.get("winners") or [])
        status = lang.n(
            "Game over · {names} wins", "Game over · {names} win", len(view.get("winners") or []), names=won
        )
    else:
        status = lang.t(
            "Turn {turn} · {name} to play", turn=view.get("turn_count", 0) + 1, name=_name(names, current or "")
        )
    d.text((x, y), fit_text(status, 21, w, True), font=font(21, True), fill=INK)
    y += 30
    sub = m.title
    if phase == "last_round":
        sub = lang.t("Last round: the deck is empty")
    if (view.get("turn") or {}).get("pending_route"):
        sub = lang.t("a route to choose")
    new = new_placements(view)
    if new:
        counts: dict[str, int] = {}
        for p in new:
            counts[p["colour"]] = counts.get(p["colour"], 0) + 1
        track = lang.t(
            "new track: {pieces}", pieces=lang.enumerated(f"{colour_word(c, lang)} ×{k}" for c, k in counts.items())
        )
        sub = track + (" · " + sub if sub != m.title else "")
    d.text((x, y), fit_text(sub, 17, w), font=font(17), fill=NATIONAL_RAIL if phase == "last_round" else MUTED)
    y += 32

    colours = view.get("colours") or {}
    order = turn_order(view)
    n = len(order)
    per_row = 2 if n in (2, 5) else 1  # 4 colours each, or 5 players: two colours a row
    for p in order:
        mine = [c for c, col in colours.items() if col["owner"] == p]
        rows = (len(mine) + per_row - 1) // per_row
        height = 34 + rows * 27 + 8
        if p == current and phase != "finished":
            d.rounded_rectangle([x - 12, y - 6, right + 6, y + height], radius=10, fill=CURRENT)
        if viewer is not None and p == viewer:
            d.rounded_rectangle([x - 12, y - 6, right + 6, y + height], radius=10, outline=YOU, width=3)
        mark = "▶ " if p == current and phase != "finished" else ""
        star = "★ " if phase == "finished" and p in (view.get("winners") or []) else ""
        who = lang.t("{name}  (you)", name=_name(names, p)) if p == viewer else _name(names, p)
        score = str(view.get("scores", {}).get(p, 0))
        d.text((right - 4, y - 2), score, font=font(30, True), anchor="ra", fill=INK)
        sw = font(30, True).getlength(score)
        tokens = (view.get("tokens") or {}).get(p, 0)
        token_text = lang.n("{n} token", "{n} tokens", tokens, n=tokens)
        tw = max(114.0, font(16).getlength(token_text))  # the English "12 tokens" fits the 130 px kept for it
        room = w - sw - tw - 16
        shown = fit_text(f"{mark}{star}{who}", 22, room, True)
        if p == viewer and shown != f"{mark}{star}{who}":  # the name is shortened, "(you)" stays
            shown = fit_around(
                lambda name, before=mark + star: before + lang.t("{name}  (you)", name=name),
                _name(names, p),
                22,
                room,
                True,
            )
        d.text((x, y), shown, font=font(22, True), fill=INK)
        d.text((right - sw - 16, y + 6), token_text, font=font(16), anchor="ra", fill=MUTED)
        y += 34
        col_w = (w + 10) // per_row
        for i, c in enumerate(mine):
            cx = x + (i % per_row) * col_w
            cy = y + (i // per_row) * 27
            tagged_swatch(image, (cx, cy + 5, cx + 40, cy + 17), c, pal, lang)
            left = colours[c]["pieces_left"]
            word = colour_word(c, lang)
            pieces = (
                lang.n("{n} left", "{n} left", left, n=left)
                if per_row > 1
                else lang.n("{n} piece left", "{n} pieces left", left, n=left)
            )
            room = cx + col_w - 6 - (cx + 50)  # the word, 8 px, the count
            if per_row > 1 and font(18, True).getlength(word) + 8 + text_width(pieces, 17) > room:
                # Two colours a row: the count stays when its word does not fit ("14"), and the
                # colour's name gives way to it where even the number does not (its tag names it).
                pieces = lang.num(left)
            word = fit_text(word, 18, room - 8 - text_width(pieces, 17) if per_row > 1 else room, True)
            d.text((cx + 50, cy), word, font=font(18, True), fill=INK)
            px = cx + 50 + font(18, True).getlength(word) + 8
            d.text(
                (px, cy + 1),
                fit_text(pieces, 17, cx + col_w - 6 - px),
                font=font(17),
                fill=INK if left else NATIONAL_RAIL,
            )
        y += rows * 27 + 18

    y = _destinations(d, view, m, x, y, w, lang) + 6
    y = _passenger(image, d, view, x, y, w, lang, pal) + 6
    y = _connections(image, d, view, x, y, w, lang, pal) + 6
    if y <= y1 - 118:  # the key only where it fits (a 5-player tie of routes fills the panel)
        _legend(image, d, view, x, y1 - 118, w, lang, pal)


def chevrons(d: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    """Two arrows pointing right from (x, middle y), as the trip is drawn on the map."""
    for dx in (0, 14):
        tip, base = x + dx + 12, x + dx + 12 - CHEVRON
        for edge, fill in ((7, (255, 255, 255)), (4, colour)):
            d.line([(base, y - 6), (tip, y), (base, y + 6)], fill=fill, width=edge, joint="curve")


def _heading(d: ImageDraw.ImageDraw, x: int, y: int, w: int, text: str, beside: float = 0.0) -> int:
    """A rule and a heading (`beside`: the width kept at the right for a note)."""
    d.line([(x, y), (x + w, y)], fill=RULE, width=2)
    d.text((x, y + 8), fit_text(text, 19, w - beside, True), font=font(19, True), fill=INK)
    return y + 36


def _destinations(d: ImageDraw.ImageDraw, view: dict[str, Any], m, x: int, y: int, w: int, lang: Lang = EN) -> int:
    deck = view.get("deck") or {}
    count = deck.get("draw_count", 0)
    note = lang.n("deck: {n} card", "deck: {n} cards", count, n=count)
    y = _heading(d, x, y, w, lang.t("Destinations"), font(16).getlength(note) + 12)
    d.text((x + w, y - 28), note, font=font(16), anchor="ra", fill=MUTED)
    row = deck.get("row") or []
    if not row:
        d.text((x, y), fit_text(lang.t("none face up"), 17, w), font=font(17), fill=MUTED)
        return y + 30
    cw, ch = (w - 10) // 2, 38
    for i, station in enumerate(row):
        cx, cy = x + (i % 2) * (cw + 10), y + (i // 2) * (ch + 8)
        express = m.stations[station].destination == "express" if station in m.stations else False
        d.rounded_rectangle(
            [cx, cy, cx + cw, cy + ch],
            radius=7,
            fill=EXPRESS if express else (255, 255, 255),
            outline=EXPRESS_INK if express else STATION_INK,
            width=2,
        )
        d.text(
            (cx + cw / 2, cy + ch / 2),
            fit_text(station, 17, cw - 12, True),
            font=font(17, True),
            anchor="mm",
            fill=STATION_INK,
        )
    return y + ((len(row) + 1) // 2) * (ch + 8) + 2


def _passenger(
    image: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    x: int,
    y: int,
    w: int,
    lang: Lang = EN,
    pal: Palette | None = None,
) -> int:
    pal = pal or palette()
    passenger = view.get("passenger") or {}
    sprite = pawn(30, pal.route)
    y = _heading(d, x, y, w, lang.t("Passenger"), sprite.width + 8)
    image.paste(sprite, (x + w - sprite.width, y - 36), sprite)
    if passenger.get("gone"):
        text = lang.t("has left the board (last at {station})", station=passenger.get("at"))
    else:
        text = lang.t("at {station}", station=passenger.get("at"))
    d.text((x, y), fit_text(text, 18, w, True), font=font(18, True), fill=INK)
    y += 28
    trips = last_trips(view)
    for t in trips:
        line = _trip(t["kind"], t["to"], t.get("walks", 0), lang)
        chevrons(d, x + 2, y + 10, pal.route)
        d.text((x + 34, y), fit_text(line, 17, w - 34), font=font(17), fill=INK)
        y += 24
        cx = x + 34
        tags_in_a_row(image, cx, y + 9, x + w, t.get("colours") or [], pal, lang)
        if not t.get("colours"):
            d.text((cx, y), fit_text(lang.t("no track ridden"), 15, x + w - cx), font=font(15), fill=MUTED)
        y += 22
    if not trips and not passenger.get("gone"):
        text = lang.t("no trip yet this turn") if view.get("turn_count") else lang.t("starts here")
        d.text((x, y), fit_text(text, 16, w), font=font(16), fill=MUTED)
        y += 24
    pending = (view.get("turn") or {}).get("pending_route")
    if pending:
        tie = lang.t("best {kind} routes tie; the player picks one:", kind=destination_kind(pending["kind"], lang))
        d.text((x, y), fit_text(tie, 16, w, True), font=font(16, True), fill=INK)
        y += 24
        options = pending.get("options") or []
        for i, o in enumerate(options[:MAX_OPTIONS]):
            line = _route(i, o["to"], o.get("walks", 0), lang)
            d.text((x + 10, y), fit_text(line, 16, w - 10), font=font(16), fill=INK)
            cx = x + 20 + int(font(16).getlength(fit_text(line, 16, w - 10)))
            tags_in_a_row(image, cx, y + 10, x + w, o.get("colours") or [], pal, lang)
            y += 24
        if len(options) > MAX_OPTIONS:
            d.text(
                (x + 10, y),
                fit_text(lang.t("… and {n} more", n=len(options) - MAX_OPTIONS), 16, w - 10),
                font=font(16),
                fill=MUTED,
            )
            y += 24
    return y


def _connections(
    image: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    x: int,
    y: int,
    w: int,
    lang: Lang = EN,
    pal: Palette | None = None,
) -> int:
    pal = pal or palette()
    tiles = view.get("connection_tiles") or {}
    y = _heading(d, x, y, w, lang.t("Connections: +3 per pair joined"))
    pairs: dict[str, list[str]] = {}
    for station, sym in sorted(tiles.items()):
        pairs.setdefault(sym, []).append(station)
    scored = view.get("scored") or {}
    for sym in sorted(pairs, key=lambda s: SYMBOL_ORDER.index(s) if s in SYMBOL_ORDER else 9):
        sprite = symbol(sym, 26, True)
        image.paste(sprite, (x, y - 2), sprite)
        joined = [c for c in (view.get("colours") or {}) if sym in (scored.get(c) or {}).get("connections", [])]
        room = w - 34 - sum(tag_sprite(code(c, lang), ring_of(c, pal), 15).width + 5 for c in joined) - 8
        text = fit_text(" – ".join(pairs[sym]), 16, room)
        d.text((x + 34, y + 1), text, font=font(16), fill=INK)
        cx = x + 42 + int(font(16).getlength(text))
        tags_in_a_row(image, cx, y + 11, x + w, joined, pal, lang)  # the colours that joined it (+3)
        y += 30
    return y


def _legend(
    image: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    x: int,
    y: int,
    w: int,
    lang: Lang = EN,
    pal: Palette | None = None,
) -> None:
    pal = pal or palette()
    y = _heading(d, x, y, w, lang.t("Key"))
    col = w // 2
    f = font(15)

    def key(left: float, top: float, text: str, room: float) -> None:
        d.text((left, top), fit_text(text, 15, room), font=f, fill=INK)

    # new track: glowing, a dashed stripe along its middle
    d.rounded_rectangle([x - 2, y + 1, x + 32, y + 17], radius=8, fill=pal.new_glow)
    d.rounded_rectangle([x + 3, y + 6, x + 27, y + 12], radius=3, fill=STATION_INK)
    for dx in (6, 15):
        d.line([(x + dx, y + 9), (x + dx + 4, y + 9)], fill=(255, 255, 255), width=2)
    key(x + 40, y + 1, lang.t("new track this turn"), col - 44)
    chevrons(d, x + col, y + 9, pal.route)  # the trip: arrows the way the passenger went
    key(x + col + 40, y + 1, lang.t("passenger's last trip"), w - col - 40)
    y += 26
    d.ellipse([x + 4, y, x + 22, y + 18], fill=EXPRESS, outline=EXPRESS_INK, width=2)
    d.ellipse([x + 9, y + 5, x + 17, y + 13], fill=(255, 255, 255), outline=STATION_INK, width=2)
    key(x + 40, y + 1, lang.t("express destination"), col - 44)
    d.ellipse([x + col + 4, y, x + col + 22, y + 18], fill=(255, 255, 255), outline=STATION_INK, width=2)
    d.ellipse([x + col + 9, y + 5, x + col + 17, y + 13], fill=(255, 255, 255), outline=STATION_INK, width=2)
    key(x + col + 40, y + 1, lang.t("standard destination"), w - col - 40)
    y += 26
    d.rounded_rectangle([x + 5, y + 1, x + 21, y + 17], radius=2, fill=(255, 255, 255), outline=STATION_INK, width=3)
    key(x + 40, y + 1, lang.t("terminus +2, 1 token"), col - 44)
    d.rounded_rectangle([x + col + 2, y + 2, x + col + 24, y + 16], radius=3, fill=NATIONAL_RAIL)
    national_rail_arrows(d, (x + col + 13, y + 9), 7, 3, 1)
    key(x + col + 40, y + 1, lang.t("National Rail +1"), w - col - 40)
