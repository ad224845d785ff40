"""MetrOmania's pictures in words, for screen readers: the alt text of the board and of the
test trips at the end, from the same view the picture is drawn from. A marker still in a
hand is told only where the view shows it (the viewer's own, or every hand in an open
deal); others are counted, as the board's panel counts them.

The board's alt text says, in this order (what does not fit Discord's 1,024 characters is
dropped from the end): whose turn, the scores, what the last turn dug and placed, where
each line stands, the stations left, the markers placed and held.
"""

from __future__ import annotations

from typing import Any

from ...i18n import EN, Lang
from ..alttext import fit, scores_sentence
from ..protocol import N_
from .board import ARROW_BY_CELL, corners, vertex_name
from .narration import KINDS, STYLES, line_state
from .state import STATION_SUPPLY

PHASES = {"building": N_("Building"), "last_round": N_("Last round"), "finished": N_("Game over")}
DAYS = {
    "A": N_("Monday"),
    "B": N_("Tuesday"),
    "C": N_("Wednesday"),
    "D": N_("Thursday"),
    "E": N_("Friday"),
    "F": N_("Saturday"),
    "park-lake": N_("Sunday"),
}


def _name(names: dict[str, str] | None, seat: str) -> str:
    return (names or {}).get(seat, seat)


def cell_name(cell: list[Any] | tuple[Any, ...]) -> str:
    """A triangle by its three corners ("G9-G11-H10"), or the arrow it holds."""
    cell = (cell[0], cell[1], bool(cell[2]))
    if cell in ARROW_BY_CELL:
        return ARROW_BY_CELL[cell].name
    return "-".join(vertex_name(v) for v in sorted(corners(cell), key=lambda v: (v[1], v[0])))


def to_play(view: dict[str, Any]) -> str | None:
    players = view["players"]
    return players[view.get("current", 0)] if view["phase"] != "finished" and players else None


def status(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    phase = lang.t(PHASES[view["phase"]]) if view["phase"] in PHASES else view["phase"]
    current = to_play(view)
    if current is not None:
        return lang.t("{phase}: {name} to play.", phase=phase, name=_name(names, current))
    winners: Any = view.get("winners") or []
    return lang.n(
        "Game over: {names} wins.",
        "Game over: {names} win.",
        len(winners),
        names=" & ".join(_name(names, p) for p in winners),
    )


def changes(view: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """Who did what the picture shows as new: this turn's record so far, else the last turn's."""
    turn: Any = view.get("turn") or {}
    record: Any = turn.get("record") or {}
    if any(record.get(k) for k in ("tunnels", "stations", "markers")):
        return to_play(view), record
    last: Any = view.get("last_turn") or {}
    return last.get("player"), last


def dug(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    player, record = changes(view)
    if player is None:
        return ""
    by_line: dict[int, list[int]] = {}
    for li, ci in record.get("tunnels") or ():
        by_line.setdefault(li, []).append(ci)
    parts: list[str] = []
    for li, cells in by_line.items():
        line = view["lines"][li]
        path = line["vertices"][min(cells) : max(cells) + 2]
        parts.append(f"{lang.t(STYLES[line['style']])} {' → '.join(vertex_name(tuple(v)) for v in path)}")
    said = (
        [lang.ended(lang.t("{name} dug {tunnels}", name=_name(names, player), tunnels=lang.clauses(parts)))]
        if parts
        else []
    )
    if record.get("stations"):
        said.append(
            lang.t("New stations: {places}.", places=lang.enumerated(vertex_name(tuple(v)) for v in record["stations"]))
        )
    if record.get("markers"):
        said.append(lang.t("Markers dropped: {letters}.", letters=lang.enumerated(record["markers"])))
    return lang.sentences(*said)


def line_states(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    per_player: list[str] = []
    for p in view["players"]:
        mine = [line for line in view["lines"] if line["player"] == p]
        per_player.append(
            f"{_name(names, p)}{lang.colon}"
            + lang.enumerated(
                f"{lang.t(STYLES[line['style']])} {line_state(line, lang)}"
                + (
                    " " + lang.t("at {vertex}", vertex=vertex_name(tuple(line["vertices"][-1])))
                    if line["status"] == "building" and line["vertices"]
                    else ""
                )
                for line in mine
            )
        )
    return lang.t("Lines: {players}.", players=lang.clauses(per_player))


def stations_left(view: dict[str, Any], lang: Lang) -> str:
    left = STATION_SUPPLY - len(view.get("stations") or [])
    return lang.t("Stations left: {left} of {total}.", left=left, total=STATION_SUPPLY)


def markers(view: dict[str, Any], names: dict[str, str] | None, lang: Lang, *, where: bool = False) -> list[str]:
    """The markers placed (`where`: on which triangle), and what each hand holds as the view
    shows it."""
    placed = [m for m in view.get("markers") or () if m["cell"] is not None]
    said: list[str] = []
    if placed:
        said.append(
            lang.t(
                "Markers placed: {markers}.",
                markers=lang.enumerated(
                    (
                        lang.t(
                            "{marker} at {cell}",
                            marker=f"{m['letter']} {lang.t(KINDS[m['kind']])}",
                            cell=cell_name(m["cell"]),
                        )
                        if where
                        else f"{m['letter']} {lang.t(KINDS[m['kind']])}"
                    )
                    # (a name, but in parentheses of the reader's sentence: "（张三）" in Chinese)
                    + lang.bracketed(_name(names, m["holder"]))
                    for m in placed
                ),
            )
        )
    held: dict[str, list[dict[str, Any]]] = {}
    for m in view.get("markers") or ():
        if m["cell"] is None:
            held.setdefault(m["holder"], []).append(m)
    for holder, hand in held.items():
        shown = [m["letter"] + lang.bracketed(lang.t(KINDS[m["kind"]])) for m in hand if m["letter"]]
        hidden = len(hand) - len(shown)
        text = (
            lang.t("{name} holds {markers}", name=_name(names, holder), markers=lang.enumerated(shown)) if shown else ""
        )
        if hidden:
            text = lang.clauses(
                [
                    text,
                    lang.n(
                        "{name} holds {n} hidden marker",
                        "{name} holds {n} hidden markers",
                        hidden,
                        name=_name(names, holder),
                        n=hidden,
                    ),
                ]
            )
        said.append(lang.ended(text))
    return said


def board_alt(view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN) -> str:
    return fit(
        [
            lang.t("MetrOmania board."),
            status(view, names, lang),
            scores_sentence(view, names, lang),
            dug(view, names, lang),
            line_states(view, names, lang),
            stations_left(view, lang),
            *markers(view, names, lang),
        ]
    )


def trip_words(trip: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    day = lang.t(DAYS[trip["name"]]) if trip["name"] in DAYS else trip["name"]
    what = (
        lang.t("{day} park–lake", day=day)
        if trip["name"] == "park-lake"
        else lang.t("{day} {trip}", day=day, trip=f"{trip['name']}–{trip['name']}")
    )
    verdict = lang.t("impossible") if trip["impossible"] else lang.t("{minutes} min", minutes=trip["minutes"])
    points = lang.enumerated(f"{_name(names, p)} {v:+d}" for p, v in trip["points"].items()) or lang.t("nobody scores")
    # "Sunday park–lake: 12 min, Ann +3, Bob +1": the verdict and the points are two phrases of
    # one sentence (Chinese "，"), the points a list (`enumerated`, Chinese "、").
    return lang.ended(f"{what}{lang.colon}{verdict}{lang.comma}{points}")


def trips_alt(view: dict[str, Any], names: dict[str, str] | None, lang: Lang = EN) -> str:
    """The end: the winners, each test trip, then each player's final score."""
    said = [lang.t("MetrOmania test trips and final scores."), status(view, names, lang)]
    said += [trip_words(t, names, lang) for t in view.get("trips") or ()]
    breakdown: dict[str, Any] = view.get("breakdown") or {}
    for p, b in breakdown.items():
        said.append(
            lang.t(
                "{name}: {total} (stations {stations} → {after} after lines, trips {trips}).",
                name=_name(names, p),
                total=b.get("total", 0),
                stations=b.get("stations", 0),
                after=b.get("after_lines", 0),
                trips=b.get("trips", 0),
            )
        )
    return fit(said)


def alt_text(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN, *, picture: str = "board"
) -> str:
    if picture.startswith("final:"):
        return trips_alt(view, names, lang)
    return board_alt(view, viewer, names, lang)
