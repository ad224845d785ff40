"""What the channel reads after an On the Underground turn, in the language asked for.
Station names and players' names stay as they are."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import EN, Lang
from ..protocol import N_
from . import words
from .notation import route_label

Names = Callable[[str], str]
ITEM_WORDS = {
    "national_rail": N_("National Rail at {station}"),
    "terminus": N_("terminus {station}"),
    "enclosed": N_("{station} enclosed"),
}


def _scored(item: dict[str, Any], lang: Lang) -> str:
    if item["what"] == "connection":
        text = lang.t(
            "{symbol} connection {stations}",
            symbol=words.symbol(item["symbol"], lang),
            stations=" & ".join(item["stations"]),
        )
    else:
        text = lang.t(ITEM_WORDS[item["what"]], station=item["station"])
    return text + f" +{item['points']}"


def _placed(e: dict[str, Any], lang: Lang) -> str:
    a, b = e["stations"]
    text = f"{words.colour(e['colour'], lang)} {a}–{b}"
    if e["kind"] == "branch":
        text += lang.bracketed(words.placement_kind("branch", lang))
    if e["scored"]:
        text += " · " + lang.enumerated(_scored(i, lang) for i in e["scored"])
    return text


def _passenger(e: dict[str, Any], name: Names, lang: Lang) -> str:
    scored = lang.enumerated(f"{name(p)} +{n}" for p, n in e["points"].items() if n) or lang.t("nobody scores")
    walks, kind = e["walks"], words.destination_kind(e["kind"], lang)
    if not e["colours"]:
        return "🚶 " + lang.n(
            "The passenger walks all the way to **{to}** ({kind}), {walks} walk: {scored}.",
            "The passenger walks all the way to **{to}** ({kind}), {walks} walks: {scored}.",
            walks,
            to=e["to"],
            kind=kind,
            walks=walks,
            scored=scored,
        )
    by = " + ".join(words.colour(c, lang) for c in e["colours"])
    return "🚶 " + lang.n(
        "The passenger goes to **{to}** ({kind}) by {by}, {walks} walk: {scored}.",
        "The passenger goes to **{to}** ({kind}) by {by}, {walks} walks: {scored}.",
        walks,
        to=e["to"],
        kind=kind,
        by=by,
        walks=walks,
        scored=scored,
    )


def narrate(state: Any, events: list[dict[str, Any]], name: Names, lang: Lang = EN) -> list[str]:
    lines: list[str] = []
    built: list[str] = []
    actor = ""  # who placed or forwent: set before anything is built or forgone

    forgone = 0

    def flush() -> None:
        nonlocal forgone
        if built:
            lines.append(lang.t("**{name}** built {placements}.", name=name(actor), placements=lang.clauses(built)))
        if forgone:
            lines.append(
                lang.n(
                    "**{name}** forwent {n} placement (+{n} token).",
                    "**{name}** forwent {n} placements (+{n} tokens).",
                    forgone,
                    name=name(actor),
                    n=forgone,
                )
            )
        built.clear()
        forgone = 0

    for e in events:
        kind = e["type"]
        if kind not in ("placed", "forgo"):
            flush()  # told in the order it happened: the turn's building came first
        if kind == "placed":
            actor = e["player"]
            built.append(_placed(e, lang))
        elif kind == "forgo":
            actor = e["player"]
            forgone += e["count"]
        elif kind == "passenger_moved":
            lines.append(_passenger(e, name, lang))
        elif kind == "route_choice_needed":
            who = name(e["player"])
            lines.append(
                lang.t("{name} must choose the passenger's route to an express destination.", name=who)
                if e["kind"] == "express"
                else lang.t("{name} must choose the passenger's route to a standard destination.", name=who)
            )
        elif kind == "leg_skipped":
            lines.append(
                lang.t("No express destination is face up: the passenger skips that leg.")
                if e["kind"] == "express"
                else lang.t("No standard destination is face up: the passenger skips that leg.")
            )
        elif kind == "card_visited":
            lines.append(lang.t("The passenger is already at {station}: that card is discarded.", station=e["station"]))
        elif kind == "deck_empty":
            lines.append(
                "🚇 "
                + lang.t(
                    "The destination deck is empty: the passenger leaves the board. "
                    "Building goes on until the start player would be next."
                )
            )
        elif kind == "game_over":
            won = " & ".join(name(p) for p in e["winners"])
            lines.append(
                "🏁 "
                + lang.n(
                    "Game over. **{winners}** wins!", "Game over. **{winners}** win!", len(e["winners"]), winners=won
                )
            )
    flush()
    return lines


def route_options(state: Any, lang: Lang = EN) -> str:
    """The tied routes the active player chooses between, numbered as `/play route N` takes them."""
    pending: dict[str, Any] = state.turn.pending or {"options": []}
    return lang.clauses(f"{i}{lang.colon}{route_label(o, lang)}" for i, o in enumerate(pending["options"]))


def board_brief(view: dict[str, Any], destination_kind: Callable[[str], str], seat: str, lang: Lang = EN) -> str:
    """The coach's word on the board (a public view): the passenger, the face-up
    destinations (`destination_kind`: a station's card, express or standard), the seat's
    colours with the pieces they have left, and its branch tokens."""
    passenger = view["passenger"]
    said = [
        lang.t("The passenger has left the board.")
        if passenger["gone"]
        else lang.t("The passenger is at **{station}**.", station=passenger["at"])
    ]
    row = view["deck"]["row"]
    said.append(
        lang.t(
            "Face-up destinations: {cards}.",
            cards=lang.enumerated(
                station + lang.bracketed(words.destination_kind(destination_kind(station), lang)) for station in row
            ),
        )
        if row
        else lang.t("No destination is face up.")
    )
    mine = [
        lang.n(
            "{colour} ({n} piece left)",
            "{colour} ({n} pieces left)",
            c["pieces_left"],
            colour=words.colour(colour, lang),
            n=c["pieces_left"],
        )
        for colour, c in view["colours"].items()
        if c["owner"] == seat
    ]
    tokens = view["tokens"].get(seat, 0)
    said.append(
        lang.n(
            "Your colours: {colours}; {n} branch token.",
            "Your colours: {colours}; {n} branch tokens.",
            tokens,
            colours=lang.enumerated(mine),
            n=tokens,
        )
    )
    return "🗺 " + lang.sentences(*said)
