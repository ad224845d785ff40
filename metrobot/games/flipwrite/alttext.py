"""Flip-and-write's pictures in words, for screen readers, from the view the picture is drawn
from: a player's own sheet (with their sealed choice, which only their view holds) or the
round's summary of every sheet (the public view: sheets as of the last resolved round).

Both say, in this order (what does not fit Discord's 1,024 characters is dropped from the
end): the round and its card, who is still choosing, the scores, then each sheet's
progress; a player's own sheet also says their sealed choice and each line's stations
marked and windows free.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ...i18n import EN, Lang
from ..alttext import fit, scores_sentence
from ..protocol import or_empty
from .deck import NUMBER, parse_card
from .mapdata import MetroMap, map_of_view
from .notation import describe, said


def _name(names: dict[str, str] | None, seat: str) -> str:
    return (names or {}).get(seat, seat)


def metro_map(view: dict[str, Any]) -> MetroMap:
    """The view's map (every view carries the map it is played on)."""
    return map_of_view(view["map_data"])


def card_words(code: str | None, lang: Lang) -> str:
    if not code:
        return ""
    card = parse_card(code)
    if card.kind == NUMBER:
        return lang.n("{n} station", "{n} stations", card.value, n=card.value)
    return said(card.name, lang)


def round_sentence(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> list[str]:
    if view["phase"] == "finished":
        winners: Any = view.get("winners") or []
        return [
            lang.n("Game over after {n} round.", "Game over after {n} rounds.", view["rounds"], n=view["rounds"]),
            lang.n(
                "Winner: {names}.",
                "Winners: {names}.",
                len(winners),
                names=" & ".join(_name(names, p) for p in winners),
            ),
        ]
    out = [lang.t("Round {round}: the card is {card}.", round=view["round"], card=card_words(view.get("card"), lang))]
    waiting: Any = view.get("waiting") or []
    out.append(
        lang.t("Waiting for: {who}.", who=lang.enumerated(_name(names, p) for p in waiting))
        if waiting
        else lang.t("Everybody has chosen.")
    )
    return out


def sheet_of(view: dict[str, Any], player: str) -> dict[str, Any]:
    """A player's sheet as their picture shows it: with their sealed choice when the view
    holds it (their own view), else as of the last resolved round."""
    pending = view.get("pending") if view.get("you") == player else None
    return or_empty(pending).get("sheet") or view["sheets"][player]


def progress(view: dict[str, Any], sheet: dict[str, Any], lang: Lang) -> str:
    """ "windows 2 of 25, lines completed 0, stations empty 90"."""
    m = metro_map(view)
    windows = [w for ws in sheet["windows"].values() for w in ws]
    empty = sum(1 for sid in m.stations if sid not in sheet["marks"])
    return lang.t(
        "windows {filled} of {windows}, lines completed {lines}, stations empty {empty}",
        filled=sum(w is not None for w in windows),
        windows=len(windows),
        lines=len(sheet["completed"]),
        empty=empty,
    )


def lines_progress(view: dict[str, Any], sheet: dict[str, Any], lang: Lang) -> str:
    m = metro_map(view)
    parts: list[str] = []
    for line in m.lines:
        marked = sum(1 for sid in line.stations if sid in sheet["marks"])
        free = sum(w is None for w in sheet["windows"].get(line.id, ()))
        done = " ✓" if line.id in sheet["completed"] else ""
        parts.append(
            lang.n(
                "{line} {marked}/{total}{done}, {n} window free",
                "{line} {marked}/{total}{done}, {n} windows free",
                free,
                line=f"{line.id} {line.name}" if line.name != line.id else line.id,
                marked=marked,
                total=len(line.stations),
                done=done,
                n=free,
            )
        )
    return lang.t("Lines (stations marked): {lines}.", lines=lang.clauses(parts))


def choice(view: dict[str, Any], lang: Lang) -> str:
    """The viewer's sealed choice of this round (their own view only)."""
    pending = view.get("pending")
    if not pending or not pending.get("steps"):
        me = view.get("you")
        return lang.t("You have not chosen yet.") if me in (view.get("waiting") or []) else ""
    shim = SimpleNamespace(map=metro_map(view))
    return lang.t(
        "Your choice, hidden from the others until everybody has chosen: {choice}.",
        choice=lang.clauses(describe(shim, step, lang) for step in pending["steps"]),
    )


def sheet_alt(view: dict[str, Any], viewer: str, names: dict[str, str] | None, lang: Lang = EN) -> str:
    sheet = sheet_of(view, viewer)
    score = or_empty(view.get("scores")).get(viewer, 0)
    return fit(
        [
            lang.t(
                "Metro flip-and-write: the sheet of {name}, {map}.", name=_name(names, viewer), map=metro_map(view).name
            ),
            *round_sentence(view, names, lang),
            choice(view, lang),
            lang.n(
                "{n} point; {progress}.",
                "{n} points; {progress}.",
                abs(score),
                n=score,
                progress=progress(view, sheet, lang),
            ),
            lines_progress(view, sheet, lang),
        ]
    )


def summary_alt(view: dict[str, Any], names: dict[str, str] | None, lang: Lang = EN) -> str:
    said_ = [
        lang.t("Metro flip-and-write: every sheet, {map}.", map=metro_map(view).name),
        *round_sentence(view, names, lang),
        scores_sentence(view, names, lang),
    ]
    decided = set(view.get("decided") or [])
    for p in view["players"]:
        state = lang.t("has chosen") if p in decided else ""
        said_.append(
            lang.ended(
                f"{_name(names, p)}{lang.colon}" + lang.clauses([state, progress(view, view["sheets"][p], lang)])
            )
        )
    return fit(said_)


def alt_text(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN, *, picture: str = "board"
) -> str:
    if viewer is not None and viewer in view["sheets"] and not picture.startswith("final:"):
        return sheet_alt(view, viewer, names, lang)
    return summary_alt(view, names, lang)
