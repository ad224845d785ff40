"""On the Underground's pictures in words, for screen readers: the alt text of the board and
of the final summary, from the same view the picture is drawn from (everything in this
game is public but the draw pile's order, which no view holds).

The board's alt text says, in this order (what does not fit Discord's 1,024 characters is
dropped from the end): the map and whose turn, the scores, the track just built, the
passenger's trips, the colours each player holds with the pieces left, the branch tokens,
the face-up destinations.
"""

from __future__ import annotations

from typing import Any

from ...i18n import EN, Lang
from ..alttext import fit, scores_sentence
from ..protocol import N_, or_empty
from . import words
from .board import board_named

PARTS = {
    "start": N_("start"),
    "national_rail": N_("National Rail"),
    "terminus": N_("termini"),
    "connections": N_("connections"),
    "loops": N_("loops"),
    "passenger": N_("passenger"),
}


def _name(names: dict[str, str] | None, seat: str) -> str:
    return (names or {}).get(seat, seat)


def turn_order(view: dict[str, Any]) -> list[str]:
    """The players from the start player on (the order of the board's panel)."""
    players = list(view["players"])
    start = view.get("start_player")
    i = players.index(start) if start in players else 0
    return players[i:] + players[:i]


def new_placements(view: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]], int]:
    """Who built what the picture highlights: this turn's placements so far, else the last
    turn's (the post after a turn), with the placements they forwent."""
    turn: Any = view.get("turn") or {}
    if turn.get("placements") or turn.get("forgone"):
        return turn.get("player"), list(turn.get("placements") or []), turn.get("forgone", 0)
    last: Any = view.get("last_turn") or {}
    return last.get("player"), list(last.get("placements") or []), last.get("forgone", 0)


def last_trips(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The passenger's trips of this turn, else of the turn just played (as the board shows)."""
    trips: Any = or_empty(view.get("passenger")).get("trips") or []
    if not trips:
        return []
    latest = trips[-1]["turn"]
    return [t for t in trips if t["turn"] == latest] if latest >= view.get("turn_count", 0) - 1 else []


def status(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    if view.get("phase") == "finished":
        winners: Any = view.get("winners") or []
        return lang.n(
            "Game over: {names} wins.",
            "Game over: {names} win.",
            len(winners),
            names=" & ".join(_name(names, p) for p in winners),
        )
    text = lang.t(
        "Turn {turn}: {name} to play.",
        turn=view.get("turn_count", 0) + 1,
        name=_name(names, or_empty(view.get("turn")).get("player", "")),
    )
    if view.get("phase") == "last_round":
        text = lang.sentences(text, lang.t("Last round: the deck is empty."))
    return text


def built(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    player, placements, forgone = new_placements(view)
    if player is None:
        return ""
    board = board_named(view["map"])
    said: list[str] = []
    if placements:
        said.append(
            lang.t(
                "{name} built {placements}.",
                name=_name(names, player),
                placements=lang.enumerated(
                    f"{words.colour(p['colour'], lang)} {board.label(p['gap'])}" for p in placements
                ),
            )
        )
    if forgone:
        said.append(
            lang.n(
                "{name} forwent {n} placement.",
                "{name} forwent {n} placements.",
                forgone,
                name=_name(names, player),
                n=forgone,
            )
        )
    return lang.sentences(*said)


def trip(t: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    kind, walks = words.destination_kind(t["kind"], lang), t["walks"]
    scored = lang.enumerated(f"{_name(names, p)} +{n}" for p, n in t["points"].items() if n) or lang.t("nobody scores")
    if not t["colours"]:
        return lang.n(
            "The passenger walked all the way from {start} to {to} ({kind}), {walks} walk: {scored}.",
            "The passenger walked all the way from {start} to {to} ({kind}), {walks} walks: {scored}.",
            walks,
            start=t["from"],
            to=t["to"],
            kind=kind,
            walks=walks,
            scored=scored,
        )
    by = " + ".join(words.colour(c, lang) for c in t["colours"])
    return lang.n(
        "The passenger went from {start} to {to} ({kind}) by {by}, {walks} walk: {scored}.",
        "The passenger went from {start} to {to} ({kind}) by {by}, {walks} walks: {scored}.",
        walks,
        start=t["from"],
        to=t["to"],
        kind=kind,
        by=by,
        walks=walks,
        scored=scored,
    )


def passenger(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> list[str]:
    said = [trip(t, names, lang) for t in last_trips(view)]
    where: Any = view.get("passenger") or {}
    said.append(
        lang.t("The passenger has left the board.")
        if where.get("gone")
        else lang.t("The passenger is at {station}.", station=where.get("at", ""))
    )
    pending = or_empty(view.get("turn")).get("pending_route")
    if pending:
        said.append(
            lang.t(
                "The passenger's best routes tie: {name} chooses one of {n}.",
                name=_name(names, view["turn"]["player"]),
                n=len(pending["options"]),
            )
        )
    return said


def colours_held(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    colours: Any = view.get("colours") or {}
    per_player = [
        f"{_name(names, p)} "
        + lang.enumerated(
            f"{words.colour(c, lang)} {col['pieces_left']}" for c, col in colours.items() if col["owner"] == p
        )
        for p in turn_order(view)
    ]
    return lang.t("Colours and pieces left: {players}.", players=lang.clauses(per_player))


def tokens(view: dict[str, Any], names: dict[str, str] | None, lang: Lang) -> str:
    held: Any = view.get("tokens") or {}
    return lang.t(
        "Branch tokens: {tokens}.",
        tokens=lang.enumerated(f"{_name(names, p)} {held.get(p, 0)}" for p in turn_order(view)),
    )


def face_up(view: dict[str, Any], lang: Lang) -> str:
    row: Any = or_empty(view.get("deck")).get("row") or []
    if not row:
        return lang.t("No destination is face up.")
    kind = board_named(view["map"]).kind
    return lang.t(
        "Face-up destinations: {cards}.",
        cards=lang.enumerated(
            station + lang.bracketed(words.destination_kind(kind.get(station, ""), lang)) for station in row
        ),
    )


def board_alt(view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN) -> str:
    title = board_named(view["map"]).map.title
    return fit(
        [
            lang.t("On the Underground board: {map}.", map=title),
            status(view, names, lang),
            scores_sentence(view, names, lang),
            built(view, names, lang),
            *passenger(view, names, lang),
            colours_held(view, names, lang),
            tokens(view, names, lang),
            face_up(view, lang),
        ]
    )


def summary_alt(view: dict[str, Any], names: dict[str, str] | None, lang: Lang = EN) -> str:
    """The final summary: the winners, then each player's score and where it came from."""
    breakdown: Any = view.get("breakdown") or {}
    scores: Any = view.get("scores") or {}
    ranked = sorted(view["players"], key=lambda p: -scores.get(p, 0))
    said = [
        lang.t("On the Underground, final scores: {map}.", map=board_named(view["map"]).map.title),
        status(view, names, lang),
    ]
    for p in ranked:
        parts = lang.enumerated(f"{lang.t(PARTS[k])} {v}" for k, v in or_empty(breakdown.get(p)).items() if k in PARTS)
        said.append(
            lang.n(
                "{name}: {total} point ({parts}).",
                "{name}: {total} points ({parts}).",
                scores.get(p, 0),
                name=_name(names, p),
                total=scores.get(p, 0),
                parts=parts,
            )
        )
    return fit(said)


def alt_text(
    view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN, *, picture: str = "board"
) -> str:
    if picture.startswith("final:"):
        return summary_alt(view, names, lang)
    return board_alt(view, viewer, names, lang)
