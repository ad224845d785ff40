"""Flip-and-write's position as text (`/board text`), for a screen reader, from the requester's
view: a player hears their own sheet line by line, station by station (with their sealed
choice, which only their view holds); a spectator hears every sheet's progress, as the
round's summary shows it.
"""

from __future__ import annotations

from typing import Any

from ...i18n import EN, Lang
from ..alttext import scores_sentence
from ..protocol import or_empty
from . import alttext


def mark_words(mark: Any, special: bool, lang: Lang) -> str:
    if mark is None:
        text = lang.t("empty")
    elif isinstance(mark, int) and not isinstance(mark, bool):
        text = lang.t("transfer {n}", n=mark)
    else:
        text = lang.t("crossed")
    return text + (lang.bracketed(lang.t("special station")) if special else "")


def line_text(view: dict[str, Any], line: Any, sheet: dict[str, Any], lang: Lang) -> list[str]:
    m = alttext.metro_map(view)
    marked = sum(1 for sid in line.stations if sid in sheet["marks"])
    windows = [w if w is not None else "_" for w in sheet["windows"].get(line.id, ())]
    head = lang.t(
        "Line {line}: {marked} of {total} stations marked; windows {windows}; completing it scores {high} "
        "first, else {low}.",
        line=f"{line.id} ({line.name})" if line.name != line.id else line.id,  # (as notation._line_label)
        marked=marked,
        total=len(line.stations),
        windows=" ".join(windows) or "—",
        high=line.high,
        low=line.low,
    )
    if line.id in sheet["completed"]:
        round_done, points = sheet["completed"][line.id]
        head = lang.sentences(
            head, lang.t("Completed in round {round} for {points} points.", round=round_done, points=points)
        )
    if line.ring:
        head = lang.sentences(head, lang.t("A ring line."))
    special = bool(or_empty(view.get("options")).get("special_stations"))
    stations = [
        f"{m.stations[sid].name} {mark_words(sheet['marks'].get(sid), special and m.stations[sid].special, lang)}"
        for sid in line.stations
    ]
    return [head, "  " + lang.ended(lang.enumerated(stations))]


def own_sheet(view: dict[str, Any], viewer: str, names: dict[str, str] | None, lang: Lang) -> list[str]:
    sheet = alttext.sheet_of(view, viewer)
    out: list[str] = []
    for line in alttext.metro_map(view).lines:
        out += ["", *line_text(view, line, sheet, lang)]
    breakdown = or_empty(view.get("breakdown")).get(viewer)
    if breakdown:
        out += [
            "",
            lang.t(
                "Final score {total}: lines {completion}, transfers {transfers}, minus {penalty} for {empty} "
                "empty stations.",
                total=breakdown.get("total", 0),
                completion=breakdown.get("completion", 0),
                transfers=breakdown.get("transfers", 0),
                penalty=breakdown.get("empty_penalty", 0),
                empty=breakdown.get("empty", 0),
            ),
        ]
    return out


def text_board(view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN) -> list[str]:
    m = alttext.metro_map(view)
    seated = viewer is not None and viewer in view["sheets"]
    head = (
        lang.t("Metro flip-and-write: the sheet of {name}, {map}.", name=(names or {}).get(viewer, viewer), map=m.name)
        if seated and viewer is not None
        else lang.t("Metro flip-and-write: every sheet, {map}.", map=m.name)
    )
    out = [head, *alttext.round_sentence(view, names, lang), scores_sentence(view, names, lang)]
    out.append(
        lang.n("{n} card in the pile.", "{n} cards in the pile.", view.get("draw_pile", 0), n=view.get("draw_pile", 0))
    )
    if seated and viewer is not None:  # (seated says so; the checker needs it said)
        choice = alttext.choice(view, lang)
        return out + ([choice] if choice else []) + own_sheet(view, viewer, names, lang)
    for p in view["players"]:
        sheet = view["sheets"][p]
        out += [
            "",
            lang.ended(f"{(names or {}).get(p, p)}{lang.colon}{alttext.progress(view, sheet, lang)}"),
            alttext.lines_progress(view, sheet, lang),
        ]
    return out
