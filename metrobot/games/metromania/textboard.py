"""MetrOmania's position as text (`/board text`), for a screen reader: from the requester's view
only, so a marker in someone else's hidden hand is counted, never named.

Coordinates are the board's: a crossing is its row letter and column number (G13 is the
centre), an arrow its name (S1–S12 start, T1–T12 end), a triangle its three corners.
"""

from __future__ import annotations

from typing import Any

from ...i18n import EN, Lang
from ..alttext import scores_sentence
from ..protocol import or_empty
from . import alttext
from .board import vertex_name
from .narration import STYLES, line_state
from .rules import KINDS as CELL_KINDS


def _name(names: dict[str, str] | None, seat: str) -> str:
    return (names or {}).get(seat, seat)


def line_text(line: dict[str, Any], lang: Lang) -> str:
    head = lang.t(STYLES[line["style"]]) + lang.bracketed(line_state(line, lang))
    if not line["vertices"]:
        return lang.ended(head)
    return lang.ended(f"{head}{lang.colon}{' → '.join(vertex_name(tuple(v)) for v in line['vertices'])}")


def player_lines(view: dict[str, Any], seat: str, names: dict[str, str] | None, lang: Lang) -> list[str]:
    score = or_empty(view.get("scores")).get(seat, 0)
    out = [lang.n("{name}: {n} point.", "{name}: {n} points.", score, name=_name(names, seat), n=score)]
    out += ["  " + line_text(line, lang) for line in view["lines"] if line["player"] == seat]
    return out


def spots(view: dict[str, Any], lang: Lang) -> list[str]:
    """Where the spots, the lake and the park are (the board's layout is public)."""
    by_kind: dict[str, list[str]] = {}
    for cell in view["board"]["cells"]:
        if cell["kind"] in CELL_KINDS:
            by_kind.setdefault(cell["kind"], []).append(alttext.cell_name((cell["q"], cell["r"], cell["up"])))
    return [
        lang.t("{kind}: {cells}.", kind=lang.t(CELL_KINDS[kind]).capitalize(), cells=lang.enumerated(cells))
        for kind, cells in by_kind.items()
    ]


def text_board(view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN) -> list[str]:
    out = [lang.t("MetrOmania."), alttext.status(view, names, lang), scores_sentence(view, names, lang)]
    news = alttext.dug(view, names, lang)
    out += [news] if news else []
    for seat in view["players"]:
        out += ["", *player_lines(view, seat, names, lang)]
    stations = [vertex_name(tuple(v)) for v in view.get("stations") or ()]
    out += [
        "",
        alttext.stations_left(view, lang),
        lang.t("Stations: {places}.", places=lang.enumerated(stations)) if stations else lang.t("No station yet."),
    ]
    out += alttext.markers(view, names, lang, where=True)
    if view.get("trips"):
        out += ["", lang.t("Test trips:"), *("  " + alttext.trip_words(t, names, lang) for t in view["trips"])]
    out += ["", lang.t("The map (a triangle is named by its three corners):"), *("  " + s for s in spots(view, lang))]
    return out
